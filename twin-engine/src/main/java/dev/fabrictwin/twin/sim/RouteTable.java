package dev.fabrictwin.twin.sim;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.routing.Route;
import dev.fabrictwin.twin.routing.Router;
import dev.fabrictwin.twin.solver.RateAllocator;
import dev.fabrictwin.twin.sim.FluidSimulation.Pin;
import dev.fabrictwin.twin.workload.FlowClass;
import dev.fabrictwin.twin.workload.Pattern;

/**
 * The routes of the flows in flight: each flow routed (its pins, or each flow class's path of bundles), and all of
 * them flattened into primitive arrays as the per-solve passes read them, in place ({@link PfcCoupling},
 * {@link Recorder}).
 */
final class RouteTable implements Serializable {

    /**
     * The routes in flight flattened once per solve (every flow's routes in order, their links concatenated): the
     * offered-load passes and the pause spread walk every hop several times per solve, and an all-to-all has tens of
     * thousands of them, so they read primitive arrays rather than chase flows and routes.
     */
    int[] hops = new int[0];
    /** Index in {@code hops} after the last link of route k. */
    int[] routeEnd = new int[0];
    /** Per route k: its flow, its allocator id and weight, whether it is its flow's first (to count flows per NIC). */
    SimFlow[] routeFlow = new SimFlow[0];
    int[] routeId = new int[0];
    double[] routeWeight = new double[0];
    boolean[] routeFirst = new boolean[0];
    /**
     * Per route k: its flow's NIC link and natural demand, read by every offered-load computation. A flow class's
     * route has no NIC link (-1): its hops are bundles ({@link Bundles}), which the per-link passes skip.
     */
    int[] routeNic = new int[0];
    double[] routeDemand = new double[0];
    int routeCount;
    int longestRoute;
    boolean anyLockStep;
    /** Flows were added or re-routed since the routes were flattened (removals are compacted instead). */
    private boolean stale = true;
    /** Each class's path of bundles while no link changes state (a job's classes come again every iteration). */
    private final Map<FlowClass, int[]> classPaths = new IdentityHashMap<>();
    /** Pins waiting for their instant, by the sequence number of their event. */
    private final Map<Long, List<Pin>> pendingPins = new HashMap<>();
    private final Fabric fabric;
    private final Router router;
    private final RateAllocator allocator;
    private final Bundles bundles;
    private final Conditions conditions;

    RouteTable(final Fabric fabric, final Router router, final RateAllocator allocator, final Bundles bundles,
               final Conditions conditions) {
        this.fabric = fabric;
        this.router = router;
        this.allocator = allocator;
        this.bundles = bundles;
        this.conditions = conditions;
    }

    /** Pins to apply when their event comes (its sequence number). */
    void pinAt(final long sequence, final Collection<Pin> pins) {
        pendingPins.put(sequence, List.copyOf(pins));
    }

    /** The pins waiting for the event of this sequence number, now due. */
    Collection<Pin> pendingAt(final long sequence) {
        return pendingPins.remove(sequence);
    }

    /** Sets the pins and re-routes the running flows they move; whether any pin changed. */
    boolean applyPins(final Collection<Pin> pins, final List<SimFlow> flows) {
        final Set<Long> moved = new HashSet<>();
        for (final Pin p : pins) {
            final long key = Router.flowKey(p.source(), p.destination(), 0);
            if (router.pin(key, p.node(), p.link())) {
                moved.add(key);
            }
        }
        for (final SimFlow f : flows) {
            if (moved.contains(f.key)) {
                route(f);
            }
        }
        return !moved.isEmpty();
    }

    /** Routes the flow anew (its routes and allocator ids) on the links up, its pins and its class path. */
    void route(final SimFlow f) {
        if (f.delivered) {
            // a flow completed coarsely since the last solve: routing it again (a link's state changed, a pin moved
            // it) would deliver it, and end its job's comm, a second time (a ring would stay in comm for good)
            return;
        }
        markStale();
        f.release(allocator);
        if (f.flowClass != null) {
            final int[] path = classPath(f.flowClass);
            f.routes = path.length == 0 ? new Route[0] : new Route[] {new Route(path, 1.0)};
            f.ids = path.length == 0 ? new int[0] : new int[] {allocator.addFlow(path, f.demand(), f.flowClass.members())};
            return;
        }
        // a background job's peers are drawn again every period: its flows do not come again
        final boolean again = f.job == null || f.job.job.spec().pattern() != Pattern.BACKGROUND;
        final List<Route> routes = router.routes(f.source, f.destination, f.key, again);
        f.routes = routes.toArray(new Route[0]);
        f.ids = new int[routes.size()];
        for (int i = 0; i < routes.size(); i++) {
            f.ids[i] = allocator.addFlow(routes.get(i).links(), f.demand() * routes.get(i).weight());
        }
    }

    /** Flows were added or re-routed: the next {@link #flatten} rebuilds the arrays. */
    void markStale() {
        stale = true;
    }

    /** Links changed state: class paths are found again. */
    void forgetClassPaths() {
        classPaths.clear();
    }

    /** Rebuilds the flat routes after flows were added or re-routed, else drops the routes of released flows. */
    void flatten(final List<SimFlow> flows) {
        if (stale) {
            rebuild(flows);
            stale = false;
            return;
        }
        int first = 0; // routes before the first released one stay where they are
        while (first < routeCount && routeFlow[first].ids.length > 0) {
            first++;
        }
        if (first == routeCount) {
            return;
        }
        int kept = first;
        int from = first == 0 ? 0 : routeEnd[first - 1];
        int h = from;
        for (int k = first; k < routeCount; k++) {
            final int to = routeEnd[k];
            if (routeFlow[k].ids.length > 0) { // released flows have no allocator ids left
                System.arraycopy(hops, from, hops, h, to - from);
                h += to - from;
                routeEnd[kept] = h;
                routeFlow[kept] = routeFlow[k];
                routeId[kept] = routeId[k];
                routeWeight[kept] = routeWeight[k];
                routeFirst[kept] = routeFirst[k];
                routeNic[kept] = routeNic[k];
                routeDemand[kept] = routeDemand[k];
                kept++;
            }
            from = to;
        }
        Arrays.fill(routeFlow, kept, routeCount, null);
        routeCount = kept;
    }

    private void rebuild(final List<SimFlow> flows) {
        int entries = 0;
        int count = 0;
        anyLockStep = false;
        longestRoute = 0;
        for (final SimFlow f : flows) {
            anyLockStep |= f.lockStep;
            count += f.routes.length;
            for (final Route r : f.routes) {
                entries += r.links().length;
                longestRoute = Math.max(longestRoute, r.links().length);
            }
        }
        if (hops.length < entries) {
            hops = new int[entries + (entries >>> 2)];
        }
        if (routeEnd.length < count) {
            final int size = count + (count >>> 2);
            routeEnd = new int[size];
            routeFlow = new SimFlow[size];
            routeId = new int[size];
            routeWeight = new double[size];
            routeFirst = new boolean[size];
            routeNic = new int[size];
            routeDemand = new double[size];
        }
        int h = 0;
        int k = 0;
        for (final SimFlow f : flows) {
            for (int i = 0; i < f.routes.length; i++) {
                final int[] links = f.routes[i].links();
                System.arraycopy(links, 0, hops, h, links.length);
                h += links.length;
                routeEnd[k] = h;
                routeFlow[k] = f;
                routeId[k] = f.ids[i];
                routeWeight[k] = f.routes[i].weight();
                routeFirst[k] = i == 0;
                routeNic[k] = f.nicLink;
                routeDemand[k] = f.naturalDemand;
                k++;
            }
        }
        Arrays.fill(routeFlow, k, Math.max(k, Math.min(routeCount, routeFlow.length)), null);
        routeCount = count;
    }

    /**
     * A class's path: the bundle of its source NICs' links, one bundle per hop of the equal-cost paths between its
     * two switches, the bundle of its destination NICs' links (links that are down left out). Empty if none is up.
     */
    int[] classPath(final FlowClass c) {
        return classPaths.computeIfAbsent(c, this::findClassPath);
    }

    private int[] findClassPath(final FlowClass c) {
        final int[] sources = upLinks(c.sources(), true);
        final int[] destinations = upLinks(c.destinations(), false);
        if (sources.length == 0 || destinations.length == 0) {
            return new int[0];
        }
        final PortRef a = c.sources().get(0);
        final PortRef b = c.destinations().get(0);
        final int from = fabric.requireLinkAt(a).other(fabric.requireNode(a.device()).index());
        final int to = fabric.requireLinkAt(b).other(fabric.requireNode(b.device()).index());
        final int[][] layers = router.layers(from, to);
        if (from != to && layers.length == 0) {
            return new int[0];
        }
        final int[] path = new int[layers.length + 2];
        path[0] = bundles.of(sources, allocator);
        for (int i = 0; i < layers.length; i++) {
            path[i + 1] = bundles.of(layers[i], allocator);
        }
        path[path.length - 1] = bundles.of(destinations, allocator);
        return path;
    }

    private int[] upLinks(final List<PortRef> nics, final boolean sending) {
        return nics.stream().mapToInt(p -> sending ? fabric.txLink(p) : fabric.rxLink(p))
            .filter(d -> conditions.linkUp[d / 2]).toArray();
    }

    /**
     * Hands what each bundle carries to its members, evenly: {@code scale ×} its load to {@code into}, and with
     * {@code flowsOn} its flows (a class counts all its members) to the members' flow counts.
     */
    void spreadBundles(final double[] into, final double scale, final int[] flowsOn) {
        if (bundles.count() == 0) {
            return;
        }
        final double[] members = new double[bundles.count()];
        if (flowsOn != null) {
            int h = 0;
            for (int k = 0; k < routeCount; k++) {
                final int to = routeEnd[k];
                for (; h < to; h++) {
                    if (routeNic[k] < 0) {
                        members[hops[h] - bundles.id(0)] += routeFlow[k].flowClass.members();
                    }
                }
            }
        }
        for (int i = 0; i < members.length; i++) {
            final int id = bundles.id(i);
            final double load = allocator.load(id) * scale;
            final int[] links = bundles.members(id);
            for (final int l : links) {
                into[l] += load / links.length;
                if (flowsOn != null) {
                    flowsOn[l] += (int) Math.round(members[i] / links.length);
                }
            }
        }
    }
}
