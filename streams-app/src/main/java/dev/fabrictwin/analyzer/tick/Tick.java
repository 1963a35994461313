package dev.fabrictwin.analyzer.tick;

import java.util.Map;

import dev.fabrictwin.twin.fabric.PortRef;

/**
 * A closed analysis tick: the sampling round at {@code endMs} (nominally covering [startMs, endMs)) and every
 * port that reported in it.
 */
public record Tick(long index, long startMs, long endMs, Map<PortRef, PortTick> ports) {

    public PortTick port(final PortRef ref) {
        return ports.get(ref);
    }
}
