package dev.fabrictwin.twin.workload;

import java.io.Serializable;
import java.util.List;

import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;

/**
 * A job on its hosts: rank r uses NIC {@code r mod K} of host {@code r div K} (K NICs per host). The
 * per-iteration transfers are those of its collective, flow by flow, or (a large all-to-all) as {@code classes} of
 * flows that share their paths (docs/twin.md, "Flow classes"); {@code lockStep} groups flows that advance together.
 */
public record PlacedJob(JobSpec spec, List<Node> hosts, List<PortRef> ranks, List<Transfer> transfers,
                        List<FlowClass> classes) implements Serializable {
    public PlacedJob {
        hosts = List.copyOf(hosts);
        ranks = List.copyOf(ranks);
        transfers = List.copyOf(transfers);
        classes = List.copyOf(classes);
    }

    public PlacedJob(final JobSpec spec, final List<Node> hosts, final List<PortRef> ranks, final List<Transfer> transfers) {
        this(spec, hosts, ranks, transfers, List.of());
    }

    /** Fabric flows per iteration, a class counting all its members. */
    public long fabricFlows() {
        long n = transfers.size();
        for (final FlowClass c : classes) {
            n += c.members();
        }
        return n;
    }

    public String id() {
        return spec.id();
    }

    /** Total bytes the collective puts on the fabric per iteration. */
    public double fabricBytesPerIteration() {
        double sum = 0;
        for (final Transfer t : transfers) {
            sum += t.bytes();
        }
        for (final FlowClass c : classes) {
            sum += c.bytes();
        }
        return sum;
    }
}
