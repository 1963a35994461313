package dev.fabrictwin.analyzer.tick;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A closed analysis tick: the sampling round at {@code endMs} (nominally covering [startMs, endMs)) and every
 * port that reported in it, in port-index order ({@code Fabric.portIndex}: the same whatever order intervals came
 * in) and by index.
 */
public record Tick(long index, long startMs, long endMs, List<PortTick> ports, PortTick[] byIndex) {

    /** The tick of the ports in {@code byIndex} (null where a port did not report). */
    public static Tick of(final long index, final long startMs, final long endMs, final PortTick[] byIndex) {
        final List<PortTick> ports = new ArrayList<>();
        for (final PortTick t : byIndex) {
            if (t != null) {
                ports.add(t);
            }
        }
        return new Tick(index, startMs, endMs, Collections.unmodifiableList(ports), byIndex);
    }

    /** The port of this index, or null if it did not report. */
    public PortTick port(final int portIndex) {
        return portIndex >= 0 && portIndex < byIndex.length ? byIndex[portIndex] : null;
    }
}
