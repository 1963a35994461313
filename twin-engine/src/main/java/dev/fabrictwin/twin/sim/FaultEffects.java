package dev.fabrictwin.twin.sim;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultSpec;
import dev.fabrictwin.twin.fault.FaultTarget;
import dev.fabrictwin.twin.workload.PlacedJob;

/** Resolves fault targets to links and writes each active fault's effect into {@link Conditions}. */
final class FaultEffects implements Serializable {

    private final Fabric fabric;
    private final List<PlacedJob> jobs;

    FaultEffects(final Fabric fabric, final List<PlacedJob> jobs) {
        this.fabric = fabric;
        this.jobs = jobs;
    }

    /** Checks at start-up that a fault's target exists, so a typo fails fast rather than doing nothing. */
    void validate(final FaultSpec fault) {
        if (targetLinks(fault.target()).isEmpty() && fault.target().kind() != FaultTarget.Kind.DEVICE) {
            throw new IllegalArgumentException("fault " + fault.id() + ": target " + fault.target() + " matches no link");
        }
        if (fault.target().kind() == FaultTarget.Kind.DEVICE) {
            fabric.requireNode(fault.target().device());
        }
    }

    /** Applies one active fault ({@code flapDown} tells a flapping LINK_DOWN or a LINK_FLAP whether the link is down now). */
    void apply(final FaultSpec fault, final Conditions c, final boolean flapDown) {
        final List<Link> links = targetLinks(fault.target());
        switch (fault.type()) {
            case LINK_DEGRADED -> links.forEach(l -> {
                c.scaleBoth(l.index(), fault.param("capacity"));
                for (final int d : new int[] {l.up(), l.down()}) {
                    c.fecPerBit[d] += fault.param("fecErrorRate");
                    c.crcPerPacket[d] += fault.param("crcErrorRate");
                }
            });
            case LINK_DOWN, LINK_FLAP -> {
                if (flapDown) {
                    links.forEach(l -> c.linkUp[l.index()] = false);
                }
            }
            case PFC_STORM -> {
                // The stuck port pauses its peer: the direction it receives on stops for pauseFraction of the time.
                for (final PortRef port : targetPorts(fault.target())) {
                    final int rx = fabric.rxLink(port);
                    c.stormPause[rx] = Math.max(c.stormPause[rx], fault.param("pauseFraction"));
                }
            }
            case ECMP_IMBALANCE -> c.skew[fabric.requireNode(fault.target().device()).index()] = fault.param("skew");
            case SILENT_DROP -> links.forEach(l -> {
                c.dropFraction[l.up()] = fault.param("dropRate");
                c.dropFraction[l.down()] = fault.param("dropRate");
            });
            case STRAGGLER, JOB_BOTTLENECK -> links.forEach(l -> c.scaleBoth(l.index(), fault.param("rateFactor")));
            case ECN_MISCONFIG -> c.ecnEnabled[fabric.requireNode(fault.target().device()).index()] = false;
            case LATENCY_SLO -> {
                for (final PortRef port : targetPorts(fault.target())) {
                    c.addedLatencyUs[fabric.txLink(port)] += fault.param("addedLatencyUs");
                }
            }
            case UNEXPECTED_TRAFFIC -> {
                // Traffic, not a condition: the simulation adds the rogue flows.
            }
            default -> throw new IllegalStateException("unhandled fault type " + fault.type());
        }
    }

    /** Physical links a target covers: a port's link, every parallel link of a device pair, a device's links, a job's NIC links. */
    List<Link> targetLinks(final FaultTarget t) {
        final List<Link> out = new ArrayList<>();
        switch (t.kind()) {
            case JOB -> jobOf(t.job()).ranks().forEach(p -> out.add(fabric.requireLinkAt(p)));
            case LINK -> {
                for (final Link l : fabric.linksBetween(t.device(), t.peer())) {
                    if (t.port() == null || l.lower().port().equals(t.port()) && l.lower().device().equals(t.device())
                        || l.upper().port().equals(t.port()) && l.upper().device().equals(t.device())) {
                        out.add(l);
                    }
                }
            }
            case PORT -> out.add(fabric.requireLinkAt(new PortRef(t.device(), t.port())));
            case DEVICE -> {
                final Node n = fabric.requireNode(t.device());
                for (final int li : fabric.linksOf(n.index())) {
                    out.add(fabric.link(li));
                }
            }
            default -> throw new IllegalStateException();
        }
        return out;
    }

    /** Ports on the target's own device: the port, the device's side of the link, all device ports, or a job's NICs. */
    List<PortRef> targetPorts(final FaultTarget t) {
        final List<PortRef> out = new ArrayList<>();
        if (t.kind() == FaultTarget.Kind.JOB) {
            return jobOf(t.job()).ranks();
        }
        final int node = fabric.requireNode(t.device()).index();
        for (final Link l : targetLinks(t)) {
            out.add(l.portOf(node));
        }
        return out;
    }

    PlacedJob jobOf(final String id) {
        return jobs.stream().filter(j -> j.id().equals(id)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("fault targets unknown job '" + id + "'"));
    }
}
