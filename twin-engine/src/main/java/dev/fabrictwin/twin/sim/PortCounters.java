package dev.fabrictwin.twin.sim;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import dev.fabrictwin.twin.fabric.PortRef;

/**
 * What the twin expects a port to show over [t0, t1]: counter increments (not cumulative values) and
 * time-averaged gauges (the watermark is the maximum), keyed by canonical names.
 */
public record PortCounters(PortRef port, double t0, double t1, Map<String, Double> counters, Map<String, Double> gauges) {
    public PortCounters {
        counters = Collections.unmodifiableMap(new TreeMap<>(counters));
        gauges = Collections.unmodifiableMap(new TreeMap<>(gauges));
    }

    public double counter(final String name) {
        return counters.getOrDefault(name, 0.0);
    }

    public double gauge(final String name) {
        return gauges.getOrDefault(name, 0.0);
    }

    /** Mean transmit utilization over the interval. */
    public double txUtilization() {
        final double speed = gauge("speed_bps");
        return speed <= 0 || t1 <= t0 ? 0 : counter("tx_bytes") * 8 / (speed * (t1 - t0));
    }
}
