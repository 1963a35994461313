package dev.fabrictwin.twin.sim;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultSpec;
import dev.fabrictwin.twin.fault.FaultTarget;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.routing.Router;
import dev.fabrictwin.twin.workload.PlacedJob;

/**
 * The faults in force (started, flapping, ended: their events) and the link states telemetry reports, and the
 * {@link Conditions} and router states they make.
 */
final class FaultState implements Serializable {

    private final Fabric fabric;
    private final List<FaultSpec> faults;
    private final FaultEffects effects;
    private final Conditions conditions;
    private final Router router;
    private final long seed;
    private final boolean[] activeFaults;
    /** Links telemetry reports down (the analyzer's replica follows reality, not a fault list). */
    private final boolean[] reportedDown;
    /** The state each link's latest report asks for, in effect or still an event ({@link FluidSimulation#setLinkUp}). */
    private final boolean[] requestedDown;
    private final boolean[] flapDown;

    FaultState(final Fabric fabric, final List<PlacedJob> placedJobs, final List<FaultSpec> faults,
               final Conditions conditions, final Router router, final long seed) {
        this.fabric = fabric;
        this.faults = List.copyOf(faults);
        this.effects = new FaultEffects(fabric, placedJobs);
        this.conditions = conditions;
        this.router = router;
        this.seed = seed;
        this.activeFaults = new boolean[this.faults.size()];
        this.reportedDown = new boolean[fabric.links().size()];
        this.requestedDown = new boolean[fabric.links().size()];
        this.flapDown = new boolean[this.faults.size()];
        for (final FaultSpec f : this.faults) {
            effects.validate(f);
        }
    }

    /** Schedules every fault's start and end. */
    void scheduleAll(final EventQueue events) {
        for (int i = 0; i < faults.size(); i++) {
            final FaultSpec f = faults.get(i);
            events.schedule(f.startSeconds(), EventKind.FAULT_START, i);
            events.schedule(f.endSeconds(), EventKind.FAULT_END, i);
        }
    }

    /** Fault {@code i} starts now (a flapping link's flaps are scheduled); its undeclared traffic's flows, unrouted. */
    List<SimFlow> start(final int i, final EventQueue events, final double now) {
        activeFaults[i] = true;
        flapDown[i] = true;
        final FaultSpec f = faults.get(i);
        if (f.type() == FaultType.LINK_DOWN && f.param("flapPeriod") > 0) {
            events.schedule(now + f.param("flapPeriod"), EventKind.FAULT_FLAP, i);
        }
        if (f.type() == FaultType.LINK_FLAP) {
            events.schedule(now + f.param("downSeconds"), EventKind.FAULT_FLAP, i);
        }
        return f.type() == FaultType.UNEXPECTED_TRAFFIC ? rogueFlows(i, f) : List.of();
    }

    /** Fault {@code i}'s link flaps now, if the fault is still in force (then true). */
    boolean flap(final int i, final EventQueue events, final double now) {
        if (!activeFaults[i]) {
            return false;
        }
        flapDown[i] = !flapDown[i];
        events.schedule(now + flapHalf(faults.get(i), flapDown[i]), EventKind.FAULT_FLAP, i);
        return true;
    }

    void end(final int i) {
        activeFaults[i] = false;
    }

    /** Whether the latest report of the link, in effect or still ahead, has it up. */
    boolean linkRequestedUp(final int link) {
        return !requestedDown[link];
    }

    /** Notes a report of the link's state; false (nothing to do) if it repeats the latest. */
    boolean request(final int link, final boolean up) {
        if (requestedDown[link] == !up) {
            return false;
        }
        requestedDown[link] = !up;
        return true;
    }

    /** Whether the link is in effect reported up ({@code up}) or down. */
    boolean reported(final int link, final boolean up) {
        return reportedDown[link] == !up;
    }

    /** The link's reported state takes effect; whether it changed. */
    boolean report(final int link, final boolean up) {
        if (reportedDown[link] == !up) {
            return false;
        }
        reportedDown[link] = !up;
        return true;
    }

    /** Recomputes the conditions and the router's states from the faults in force and the reports; if paths moved. */
    boolean apply() {
        final boolean[] upBefore = conditions.linkUp.clone();
        final double[] skewBefore = conditions.skew.clone();
        conditions.reset();
        for (int i = 0; i < faults.size(); i++) {
            if (activeFaults[i]) {
                effects.apply(faults.get(i), conditions, flapDown[i]);
            }
        }
        for (int l = 0; l < reportedDown.length; l++) {
            if (reportedDown[l]) {
                conditions.linkUp[l] = false;
            }
        }
        boolean reroute = !Arrays.equals(skewBefore, conditions.skew);
        for (int l = 0; l < upBefore.length; l++) {
            if (upBefore[l] != conditions.linkUp[l]) {
                router.setLinkUp(l, conditions.linkUp[l]);
                reroute = true;
            }
        }
        for (int n = 0; n < conditions.skew.length; n++) {
            router.setSkew(n, conditions.skew[n]);
        }
        return reroute;
    }

    /**
     * How long a flapping link stays in the state it just entered: LINK_DOWN's half-period, LINK_FLAP's down time or
     * the rest of its period.
     */
    private static double flapHalf(final FaultSpec f, final boolean down) {
        if (f.type() == FaultType.LINK_FLAP) {
            return down ? f.param("downSeconds") : f.param("period") - f.param("downSeconds");
        }
        return f.param("flapPeriod");
    }

    /**
     * Undeclared traffic from where the fault's target names: a NIC sends it, or up to {@code senders} NICs under a
     * switch (or of a job) do; each at {@code load} of its line rate, all towards one host NIC elsewhere (drawn from
     * the fault's seed), so the receiver is congested as by an incast. The target is the culprit: the traffic is
     * the sender's, its receiver a victim (as other simulators and operators name it).
     */
    private List<SimFlow> rogueFlows(final int faultIndex, final FaultSpec fault) {
        final List<PortRef> targetNics = effects.targetPorts(fault.target()).stream()
            .filter(p -> fabric.requireNode(p.device()).isHost()).toList();
        final List<PortRef> sources = new ArrayList<>(targetNics.isEmpty() ? hostPortsUnder(fault.target()) : targetNics);
        if (sources.isEmpty()) {
            return List.of();
        }
        final SplittableRandom random = new SplittableRandom(seed ^ fault.id().hashCode());
        while (sources.size() > Math.max(1, (int) fault.param("senders"))) {
            sources.remove(random.nextInt(sources.size()));
        }
        final List<Node> destinations = new ArrayList<>(fabric.hosts());
        destinations.removeIf(h -> sources.stream().anyMatch(s -> s.device().equals(h.name())));
        if (destinations.isEmpty()) {
            return List.of();
        }
        final PortRef dst = fabric.nicsOf(destinations.get(random.nextInt(destinations.size()))).get(0);
        final List<SimFlow> flows = new ArrayList<>();
        for (final PortRef src : sources) {
            final double demand = fault.param("load") * fabric.requireLinkAt(src).capacityBps();
            final SimFlow f = new SimFlow(null, src, dst, Double.POSITIVE_INFINITY, demand, faultIndex,
                Router.flowKey(src, dst, fault.id().hashCode()), false, fabric.txLink(src));
            flows.add(f);
        }
        return flows;
    }

    private List<PortRef> hostPortsUnder(final FaultTarget target) {
        final List<PortRef> ports = new ArrayList<>();
        final Node device = fabric.requireNode(target.device());
        for (final int li : fabric.linksOf(device.index())) {
            final int other = fabric.link(li).other(device.index());
            if (fabric.node(other).isHost()) {
                ports.add(fabric.link(li).portOf(other));
            }
        }
        return ports;
    }
}
