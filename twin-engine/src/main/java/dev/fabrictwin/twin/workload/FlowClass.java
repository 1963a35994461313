package dev.fabrictwin.twin.workload;

import java.io.Serializable;
import java.util.List;

import dev.fabrictwin.twin.fabric.PortRef;

/**
 * Flows of one collective aggregated into one (docs/twin.md, "Flow classes"): every pair from a NIC of
 * {@code sources} to a NIC of {@code destinations} on another host, {@code members} pairs that each send
 * {@code bytesEach} per iteration. The sources hang off one switch, the destinations off one switch, so the pairs
 * share every layer of their paths and max-min gives each the same rate: one weighted flow stands for all of them.
 */
public record FlowClass(List<PortRef> sources, List<PortRef> destinations, int members, double bytesEach)
    implements Serializable {

    public FlowClass {
        sources = List.copyOf(sources);
        destinations = List.copyOf(destinations);
        if (sources.isEmpty() || destinations.isEmpty() || members < 1 || !(bytesEach > 0)) {
            throw new IllegalArgumentException("a flow class needs sources, destinations, members >= 1 and bytes > 0");
        }
    }

    /** Bytes the whole class moves per iteration. */
    public double bytes() {
        return members * bytesEach;
    }
}
