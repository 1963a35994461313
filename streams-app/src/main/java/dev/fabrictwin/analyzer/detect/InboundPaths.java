package dev.fabrictwin.analyzer.detect;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.workload.FlowClass;
import dev.fabrictwin.twin.workload.PlacedJob;
import dev.fabrictwin.twin.workload.Transfer;

/**
 * Whether a job's traffic into one NIC can cross a fault's entity: a sender's own port or link, or a switch or
 * switch-to-switch link on any shortest path from a sender's switch to the NIC's (ECMP may hash a flow onto any of
 * them; the hash is unknown). A collective runs at the pace of its slowest flow, so a NIC whose inbound flows cross
 * a degraded link takes in slowly and its switch port sees the bursts of the others: the fault's victim, not a
 * straggler. A NIC whose senders' paths avoid the fault (a ring neighbour on its own leaf) is not explained by it.
 *
 * <p>Cost: the job's transfers into the NIC (one pass over the job's transfers and flow classes) and three
 * breadth-first searches over the fabric, only for a straggler candidate while another fault is open.
 */
final class InboundPaths {

    private InboundPaths() {
    }

    static boolean crosses(final Fabric fabric, final PlacedJob job, final PortRef nic, final Entity fault) {
        final Set<PortRef> senders = senders(job, nic);
        if (senders.isEmpty()) {
            return false;
        }
        for (final PortRef s : senders) {
            if (names(fault, s, fabric)) {
                return true; // the sender's own port or host link
            }
        }
        final int target = switchOf(fabric, nic);
        final Set<Integer> sources = new HashSet<>();
        senders.forEach(s -> sources.add(switchOf(fabric, s)));
        sources.remove(target);
        sources.remove(-1);
        if (sources.isEmpty() || target < 0) {
            return false;
        }
        final int[] toTarget = distances(fabric, target);
        return switch (fault.kind()) {
            case LINK, PORT -> {
                final Link l = fabricLink(fabric, fault);
                yield l != null && !isHost(fabric, l.lowerNode()) && !isHost(fabric, l.upperNode())
                    && onAPath(fabric, l, sources, toTarget);
            }
            case DEVICE, ECMP_GROUP -> fabric.node(fault.device()).filter(n -> !n.isHost())
                .map(n -> throughNode(fabric, n.index(), sources, toTarget)).orElse(false);
            case JOB -> false;
        };
    }

    private static Set<PortRef> senders(final PlacedJob job, final PortRef nic) {
        final Set<PortRef> out = new HashSet<>();
        for (final Transfer t : job.transfers()) {
            if (t.destination().equals(nic)) {
                out.add(t.source());
            }
        }
        for (final FlowClass c : job.classes()) {
            if (c.destinations().contains(nic)) {
                out.addAll(c.sources());
            }
        }
        out.remove(nic);
        return out;
    }

    /** A port entity on the sender, or a link entity with the sender's host at one end. */
    private static boolean names(final Entity fault, final PortRef sender, final Fabric fabric) {
        if (fault.kind() == Entity.Kind.PORT) {
            return fault.device().equals(sender.device()) && fault.port().equals(sender.port())
                || fabric.linkAt(sender).map(l -> l.portOf(l.other(fabric.requireNode(sender.device()).index())))
                    .map(p -> p.device().equals(fault.device()) && p.port().equals(fault.port())).orElse(false);
        }
        return fault.kind() == Entity.Kind.LINK && fault.touches(sender.device());
    }

    private static Link fabricLink(final Fabric fabric, final Entity fault) {
        if (fault.kind() == Entity.Kind.PORT) {
            return fabric.linkAt(new PortRef(fault.device(), fault.port())).orElse(null);
        }
        final var between = fabric.linksBetween(fault.device(), fault.peer());
        return between.isEmpty() ? null : between.get(0);
    }

    private static boolean onAPath(final Fabric fabric, final Link l, final Set<Integer> sources, final int[] toTarget) {
        final int[] fromLower = distances(fabric, l.lowerNode());
        final int[] fromUpper = distances(fabric, l.upperNode());
        for (final int s : sources) {
            final int shortest = toTarget[s];
            if (shortest > 0 && (ok(fromLower[s], toTarget[l.upperNode()], shortest)
                || ok(fromUpper[s], toTarget[l.lowerNode()], shortest))) {
                return true;
            }
        }
        return false;
    }

    private static boolean ok(final int toNear, final int farToTarget, final int shortest) {
        return toNear >= 0 && farToTarget >= 0 && toNear + 1 + farToTarget == shortest;
    }

    private static boolean throughNode(final Fabric fabric, final int node, final Set<Integer> sources, final int[] toTarget) {
        final int[] fromNode = distances(fabric, node);
        for (final int s : sources) {
            if (toTarget[s] > 0 && fromNode[s] >= 0 && toTarget[node] >= 0 && fromNode[s] + toTarget[node] == toTarget[s]) {
                return true;
            }
        }
        return false;
    }

    private static int switchOf(final Fabric fabric, final PortRef nic) {
        return fabric.linkAt(nic).map(l -> l.other(fabric.requireNode(nic.device()).index())).orElse(-1);
    }

    private static boolean isHost(final Fabric fabric, final int node) {
        return fabric.node(node).isHost();
    }

    /** Hops from {@code from} to every node over switches (hosts are ends, never transit); -1 when unreachable. */
    private static int[] distances(final Fabric fabric, final int from) {
        final int[] dist = new int[fabric.nodes().size()];
        Arrays.fill(dist, -1);
        dist[from] = 0;
        final ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(from);
        while (!queue.isEmpty()) {
            final int n = queue.poll();
            if (n != from && fabric.node(n).isHost()) {
                continue;
            }
            for (int i = 0; i < fabric.degree(n); i++) {
                final int m = fabric.link(fabric.linkOf(n, i)).other(n);
                if (dist[m] < 0) {
                    dist[m] = dist[n] + 1;
                    queue.add(m);
                }
            }
        }
        return dist;
    }
}
