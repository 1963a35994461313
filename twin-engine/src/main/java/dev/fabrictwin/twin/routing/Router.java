package dev.fabrictwin.twin.routing;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Link;

import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.scenario.Routing;

/**
 * Shortest-path multipath routing over the switch graph, as a Clos fabric does it: each switch forwards a
 * flow on one of its next hops that bring it closer to the destination leaf.
 *
 * <ul>
 * <li>ECMP: the member is {@code hash(flowKey, switchSeed) mod members}. Each switch has its own seed
 *     derived from the routing seed; with {@code sameSeedEverywhere} every switch hashes alike, which
 *     reproduces polarization (a flow's choice at one tier predicts its choice at the next).</li>
 * <li>SPRAY: the flow is split evenly across every next hop of the source leaf (adaptive routing /
 *     packet spraying); deeper tiers still hash.</li>
 * <li>Down links are skipped and distances recomputed, so flows re-route as the fabric does.</li>
 * <li>An ECMP skew (fault {@code ECMP_IMBALANCE}) on a switch sends a share of its flows to its first member.</li>
 * </ul>
 * Switches' real hash functions are unknown; the analyzer must not assume this one matches them.
 */
public final class Router implements Serializable {

    private final Fabric fabric;
    private final Routing routing;
    private final boolean[] linkDown;
    private final double[] skew;
    /** BFS distances to each destination switch, computed on first use; cleared when a link changes state. */
    private final int[][] distanceTo;
    /** Pinned next hops: {@link #pinKey(long, int)} of a flow and a switch to the physical link it takes there. */
    private final HashMap<Long, Integer> pins = new HashMap<>();
    /**
     * Routes already computed, by flow key, while nothing that decides them changed (links, skews; a flow's own pins): a job's flows
     * are routed again at every comm phase, over the same paths (a tenth of a shard's time). Bounded by the
     * flows routed since the last change that will come again (not background traffic's), and at most {@value #MAX_CACHED}.
     */
    private final HashMap<Long, Cached> cache = new HashMap<>();
    static final int MAX_CACHED = 1 << 18;

    private record Cached(PortRef source, PortRef destination, List<Route> routes) implements Serializable {
    }

    /**
     * {@link #choices} already walked, by flow key, under the same rules as {@link #cache}: the analyzer's path learner
     * asks every flow's choices at each of its epochs, and they change only when what decides them does. Not
     * checkpointed (made again after a restart).
     */
    private transient HashMap<Long, CachedChoices> choicesCache;

    private record CachedChoices(PortRef source, PortRef destination, Choices choices) {
    }

    public Router(final Fabric fabric, final Routing routing) {
        this.fabric = fabric;
        this.routing = routing;
        this.linkDown = new boolean[fabric.links().size()];
        this.skew = new double[fabric.nodes().size()];
        this.distanceTo = new int[fabric.nodes().size()][];
    }

    public Fabric fabric() {
        return fabric;
    }

    /** Marks a physical link down (or up again); later routes avoid it. */
    public void setLinkUp(final int link, final boolean up) {
        if (linkDown[link] == up) {
            linkDown[link] = !up;
            Arrays.fill(distanceTo, null);
            forgetRoutes();
        }
    }

    public boolean isLinkUp(final int link) {
        return !linkDown[link];
    }

    /** Share of a switch's flows forced onto its first ECMP member (0 = healthy hashing). */
    public void setSkew(final int node, final double share) {
        if (skew[node] != share) {
            forgetRoutes();
        }
        skew[node] = share;
    }

    /** Something every route depends on changed: routes and choices are walked again. */
    private void forgetRoutes() {
        cache.clear();
        if (choicesCache != null) {
            choicesCache.clear();
        }
    }

    /**
     * Pins a flow's next hop at a switch to physical link {@code link} (a scenario's {@code via}, or a path the
     * analyzer learned from counters), or unpins it with {@code link < 0}. A pin whose link is not a member
     * there (down, or not towards the destination) is ignored and the hash decides, so a pin never strands a
     * flow. Returns whether the pin changed.
     */
    public boolean pin(final long flowKey, final int node, final int link) {
        final Integer before = link < 0 ? pins.remove(pinKey(flowKey, node)) : pins.put(pinKey(flowKey, node), link);
        final boolean changed = before == null ? link >= 0 : before != link;
        if (changed) {
            cache.remove(flowKey); // a pin steers only its own flow
            if (choicesCache != null) {
                choicesCache.remove(flowKey);
            }
        }
        return changed;
    }

    /** The link a flow is pinned to at a switch, or -1. */
    public int pinned(final long flowKey, final int node) {
        return pins.getOrDefault(pinKey(flowKey, node), -1);
    }

    /** Number of pins held (bounded by the flows the caller pins: one per flow and switch). */
    public int pinCount() {
        return pins.size();
    }

    private static long pinKey(final long flowKey, final int node) {
        return mix(flowKey ^ (node * 0xC2B2AE3D27D4EB4FL));
    }

    /**
     * The equal-cost first hops a flow from {@code source} to {@code destination} can take at its source switch
     * (physical link indices), and for each the path it would follow from there: {@code paths[i]} starts with the
     * NIC uplink and goes through {@code firstHops[i]}. Empty when the two NICs share a switch or no path is up.
     * Remembered and handed out again: its arrays are read, never changed.
     */
    public record Choices(int node, int[] firstHops, int[][] paths) {
    }

    public Choices choices(final PortRef source, final PortRef destination, final long flowKey) {
        if (choicesCache == null) {
            choicesCache = new HashMap<>();
        }
        final CachedChoices known = choicesCache.get(flowKey);
        if (known != null && known.source().equals(source) && known.destination().equals(destination)) {
            return known.choices();
        }
        final Choices choices = walkChoices(source, destination, flowKey);
        if (choicesCache.size() >= MAX_CACHED) {
            choicesCache.clear();
        }
        choicesCache.put(flowKey, new CachedChoices(source, destination, choices));
        return choices;
    }

    private Choices walkChoices(final PortRef source, final PortRef destination, final long flowKey) {
        final Link first = fabric.requireLinkAt(source);
        final Link last = fabric.requireLinkAt(destination);
        final int srcHost = fabric.requireNode(source.device()).index();
        final int dstHost = fabric.requireNode(destination.device()).index();
        final int srcSwitch = first.other(srcHost);
        final int dstSwitch = last.other(dstHost);
        if (linkDown[first.index()] || linkDown[last.index()] || srcSwitch == dstSwitch) {
            return new Choices(srcSwitch, new int[0], new int[0][]);
        }
        final int[] dist = distances(dstSwitch);
        if (dist[srcSwitch] < 0) {
            return new Choices(srcSwitch, new int[0], new int[0][]);
        }
        final int[] members = nextHops(srcSwitch, dist);
        final int[][] paths = new int[members.length][];
        for (int i = 0; i < members.length; i++) {
            paths[i] = walk(first.from(srcHost), srcSwitch, members[i], dstSwitch, last.from(dstSwitch), dist, flowKey);
        }
        return new Choices(srcSwitch, members, paths);
    }

    /**
     * Routes for a flow from NIC {@code source} to NIC {@code destination}; empty when no path is up
     * (a NIC link down, or the fabric partitioned).
     */
    public List<Route> routes(final PortRef source, final PortRef destination, final long flowKey) {
        return routes(source, destination, flowKey, true);
    }

    /**
     * As above; {@code remember} false for a flow that will not come again (background traffic redraws its peers every
     * period), which the cache would only fill with.
     */
    public List<Route> routes(final PortRef source, final PortRef destination, final long flowKey, final boolean remember) {
        if (!remember) {
            return route(source, destination, flowKey);
        }
        final Cached known = cache.get(flowKey);
        if (known != null && known.source().equals(source) && known.destination().equals(destination)) {
            return known.routes();
        }
        final List<Route> routes = route(source, destination, flowKey);
        if (cache.size() >= MAX_CACHED) {
            cache.clear();
        }
        cache.put(flowKey, new Cached(source, destination, routes));
        return routes;
    }

    private List<Route> route(final PortRef source, final PortRef destination, final long flowKey) {
        final Link first = fabric.requireLinkAt(source);
        final Link last = fabric.requireLinkAt(destination);
        if (linkDown[first.index()] || linkDown[last.index()]) {
            return List.of();
        }
        final int srcHost = fabric.requireNode(source.device()).index();
        final int dstHost = fabric.requireNode(destination.device()).index();
        final int srcSwitch = first.other(srcHost);
        final int dstSwitch = last.other(dstHost);
        final int up = first.from(srcHost);
        final int down = last.from(dstSwitch);
        if (srcSwitch == dstSwitch) {
            return List.of(new Route(new int[] {up, down}, 1.0));
        }
        final int[] dist = distances(dstSwitch);
        if (dist[srcSwitch] < 0) {
            return List.of();
        }
        if (routing.mode() == Routing.Mode.SPRAY) {
            final int[] members = nextHops(srcSwitch, dist);
            final List<Route> routes = new ArrayList<>(members.length);
            for (final int m : members) {
                routes.add(new Route(walk(up, srcSwitch, m, dstSwitch, down, dist, flowKey), 1.0 / members.length));
            }
            return routes;
        }
        return List.of(new Route(walk(up, srcSwitch, choose(srcSwitch, nextHops(srcSwitch, dist), flowKey), dstSwitch,
            down, dist, flowKey), 1.0));
    }

    /**
     * The directed links of every shortest path from switch {@code from} to switch {@code to}, hop by hop: layer
     * {@code i} holds every link a flow may take at its {@code i}-th hop (down links left out). Hashes, skews and pins
     * play no part: an aggregated flow class spreads over each layer evenly (docs/twin.md, "Flow classes"). Empty when
     * the two are one switch or no path is up.
     */
    public int[][] layers(final int from, final int to) {
        if (from == to) {
            return new int[0][];
        }
        final int[] dist = distances(to);
        if (dist[from] < 0) {
            return new int[0][];
        }
        final int hops = dist[from];
        final int[][] layers = new int[hops][];
        int[] frontier = {from};
        final boolean[] seen = new boolean[dist.length];
        for (int hop = 0; hop < hops - 1; hop++) {
            final List<Integer> links = new ArrayList<>();
            final List<Integer> next = new ArrayList<>();
            for (final int node : frontier) {
                for (final int li : nextHops(node, dist)) {
                    final Link l = fabric.link(li);
                    links.add(l.from(node));
                    final int other = l.other(node);
                    if (!seen[other]) {
                        seen[other] = true;
                        next.add(other);
                    }
                }
            }
            layers[hop] = links.stream().mapToInt(Integer::intValue).toArray();
            frontier = next.stream().mapToInt(Integer::intValue).toArray();
        }
        // the last hop from the destination's side: a spine of a large fabric has a thousand links, its leaf a few dozen
        final int[] back = distances(from);
        final List<Integer> last = new ArrayList<>();
        for (int i = 0; i < fabric.degree(to); i++) {
            final int li = fabric.linkOf(to, i);
            final int other = fabric.link(li).other(to);
            if (!linkDown[li] && !fabric.node(other).isHost() && dist[other] == 1 && back[other] == hops - 1) {
                last.add(fabric.link(li).from(other));
            }
        }
        layers[hops - 1] = last.stream().mapToInt(Integer::intValue).toArray();
        return layers;
    }

    private int[] walk(final int up, final int srcSwitch, final int firstHopLink, final int dstSwitch, final int down,
                       final int[] dist, final long flowKey) {
        final int[] path = new int[dist[srcSwitch] + 2];
        int n = 0;
        path[n++] = up;
        int at = srcSwitch;
        int viaLink = firstHopLink;
        while (true) {
            final Link l = fabric.link(viaLink);
            path[n++] = l.from(at);
            at = l.other(at);
            if (at == dstSwitch) {
                break;
            }
            viaLink = choose(at, nextHops(at, dist), flowKey);
        }
        path[n++] = down;
        return n == path.length ? path : Arrays.copyOf(path, n);
    }

    /** Links from {@code node} to switches one step closer to the destination. */
    private int[] nextHops(final int node, final int[] dist) {
        int count = 0;
        final int degree = fabric.degree(node);
        final int[] hops = new int[degree];
        for (int i = 0; i < degree; i++) {
            final int li = fabric.linkOf(node, i);
            if (linkDown[li]) {
                continue;
            }
            final int other = fabric.link(li).other(node);
            if (dist[other] == dist[node] - 1 && !fabric.node(other).isHost()) {
                hops[count++] = li;
            }
        }
        return Arrays.copyOf(hops, count);
    }

    private int choose(final int node, final int[] members, final long flowKey) {
        if (members.length == 1) {
            return members[0];
        }
        if (!pins.isEmpty()) {
            final int pinned = pinned(flowKey, node);
            for (final int m : members) {
                if (m == pinned) {
                    return m;
                }
            }
        }
        final long seed = routing.sameSeedEverywhere() ? routing.hashSeed() : mix(routing.hashSeed() * 31 + node);
        final long h = mix(flowKey ^ seed);
        if (skew[node] > 0) {
            final double u = (h >>> 11) * 0x1.0p-53;
            if (u < skew[node]) {
                return members[0];
            }
        }
        return members[(int) Long.remainderUnsigned(h, members.length)];
    }

    /** BFS hop counts from every switch to {@code leaf} over up links (hosts excluded), -1 if unreachable. */
    private int[] distances(final int leaf) {
        int[] dist = distanceTo[leaf];
        if (dist != null) {
            return dist;
        }
        dist = new int[fabric.nodes().size()];
        Arrays.fill(dist, -1);
        final int[] queue = new int[dist.length]; // each node enters at most once
        int head = 0;
        int tail = 0;
        dist[leaf] = 0;
        queue[tail++] = leaf;
        while (head < tail) {
            final int u = queue[head++];
            for (int i = 0; i < fabric.degree(u); i++) {
                final int li = fabric.linkOf(u, i);
                if (linkDown[li]) {
                    continue;
                }
                final int v = fabric.link(li).other(u);
                if (dist[v] < 0 && !fabric.node(v).isHost()) {
                    dist[v] = dist[u] + 1;
                    queue[tail++] = v;
                }
            }
        }
        distanceTo[leaf] = dist;
        return dist;
    }

    /** A stable 64-bit key for a flow between two NICs (what a switch's 5-tuple hash would see). */
    public static long flowKey(final PortRef source, final PortRef destination, final int salt) {
        return mix(mix(source.nameHash() * 0x9E3779B97F4A7C15L + destination.nameHash()) + salt);
    }

    /** SplitMix64 finalizer: a well-mixed hash of 64 bits. */
    static long mix(final long z0) {
        long z = z0 + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

}
