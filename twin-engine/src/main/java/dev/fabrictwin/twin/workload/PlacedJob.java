package dev.fabrictwin.twin.workload;

import java.io.Serializable;
import java.util.List;

import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;

/**
 * A job on its hosts: rank r uses NIC {@code r mod K} of host {@code r div K} (K NICs per host). The
 * per-iteration transfers are those of its collective; {@code lockStep} groups flows that advance together.
 */
public record PlacedJob(JobSpec spec, List<Node> hosts, List<PortRef> ranks, List<Transfer> transfers) implements Serializable {
    public PlacedJob {
        hosts = List.copyOf(hosts);
        ranks = List.copyOf(ranks);
        transfers = List.copyOf(transfers);
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
        return sum;
    }
}
