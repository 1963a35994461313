package dev.fabrictwin.analyzer.rates;

import java.util.Map;

import dev.fabrictwin.twin.telemetry.FrozenMap;

/**
 * What one port did between two of its samples: counter increases over [t0, t1] (epoch ms, the samples'
 * own clocks) and the gauges at t1. {@code reset} marks an interval whose increases are lower bounds only
 * (a counter restarted inside it); {@code wraps} counts counter wraps resolved; {@code gap} marks an interval
 * spanning lost samples; {@code estimated} one whose byte increases are the device's rate gauges ({@code tx_bps},
 * {@code rx_bps}) times the interval, not counts. Detectors compare these with the twin's expectation for exactly
 * [t0, t1].
 */
public record PortInterval(String device, String port, long t0, long t1, Map<String, Long> increases,
                           Map<String, Double> gauges, boolean reset, int wraps, boolean gap, boolean estimated) {

    /** An interval whose increases are all counted. */
    public PortInterval(final String device, final String port, final long t0, final long t1,
                        final Map<String, Long> increases, final Map<String, Double> gauges, final boolean reset,
                        final int wraps, final boolean gap) {
        this(device, port, t0, t1, increases, gauges, reset, wraps, gap, false);
    }

    public PortInterval {
        increases = immutable(increases);
        gauges = immutable(gauges);
        if (t1 <= t0) {
            throw new IllegalArgumentException("interval must end after it starts: [" + t0 + ", " + t1 + "]");
        }
    }

    /**
     * The map as it is when it is already immutable and null-free (a sample's gauges, the rates stage's increases):
     * copying both for every interval was a twentieth of a replay. Nothing reads their order.
     */
    private static <V> Map<String, V> immutable(final Map<String, V> map) {
        return map instanceof FrozenMap<V> frozen && !frozen.hasNull() ? frozen : Map.copyOf(map);
    }

    /** The same interval under the topology's names for its port (itself when they are already those). */
    public PortInterval renamed(final String topologyDevice, final String topologyPort) {
        return device.equals(topologyDevice) && port.equals(topologyPort) ? this
            : new PortInterval(topologyDevice, topologyPort, t0, t1, increases, gauges, reset, wraps, gap, estimated);
    }

    public double seconds() {
        return (t1 - t0) / 1000.0;
    }

    /** Per-second rate of a counter over the interval (0 if the port did not report it). */
    public double rate(final String counter) {
        final Long v = increases.get(counter);
        return v == null ? 0 : v / seconds();
    }
}
