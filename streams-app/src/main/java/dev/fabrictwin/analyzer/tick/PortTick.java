package dev.fabrictwin.analyzer.tick;

import java.util.HashMap;
import java.util.Map;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.sim.PortCounters;

/**
 * One port over one analysis tick: what it reported (the sum of its intervals ending in the tick) beside what
 * the twin expected over exactly those intervals. Gauges are the latest observed and the time-weighted
 * expected mean. Built by {@link TickAssembler}; read by detectors.
 */
public final class PortTick {

    private final PortRef port;
    private final Map<String, Double> observed = new HashMap<>();
    private final Map<String, Double> expected = new HashMap<>();
    private final Map<String, Double> gauges = new HashMap<>();
    private final Map<String, Double> expectedGauges = new HashMap<>();
    private double seconds;
    private long t0 = Long.MAX_VALUE;
    private long t1 = Long.MIN_VALUE;
    private boolean reset;
    private boolean gap;

    PortTick(final PortRef port) {
        this.port = port;
    }

    void add(final PortInterval interval, final PortCounters twin) {
        final double dt = interval.seconds();
        interval.increases().forEach((k, v) -> observed.merge(k, (double) v, Double::sum));
        twin.counters().forEach((k, v) -> expected.merge(k, v, Double::sum));
        twin.gauges().forEach((k, v) -> expectedGauges.merge(k, v * dt, Double::sum));
        if (interval.t1() >= t1) {
            gauges.putAll(interval.gauges());
        }
        seconds += dt;
        t0 = Math.min(t0, interval.t0());
        t1 = Math.max(t1, interval.t1());
        reset |= interval.reset();
        gap |= interval.gap();
    }

    public PortRef port() {
        return port;
    }

    /** Observed increase of a counter (0 when not reported). */
    public double observed(final String counter) {
        return observed.getOrDefault(counter, 0.0);
    }

    /** Whether the port reports this counter at all (a missing counter is not a zero). */
    public boolean reports(final String counter) {
        return observed.containsKey(counter);
    }

    public double expected(final String counter) {
        return expected.getOrDefault(counter, 0.0);
    }

    public double observedRate(final String counter) {
        return seconds > 0 ? observed(counter) / seconds : 0;
    }

    public double expectedRate(final String counter) {
        return seconds > 0 ? expected(counter) / seconds : 0;
    }

    /** Latest observed gauge, or NaN when not reported. */
    public double gauge(final String name) {
        return gauges.getOrDefault(name, Double.NaN);
    }

    public double expectedGauge(final String name) {
        return seconds > 0 ? expectedGauges.getOrDefault(name, 0.0) / seconds : 0;
    }

    public double seconds() {
        return seconds;
    }

    public long t0() {
        return t0;
    }

    public long t1() {
        return t1;
    }

    /** Counter values are lower bounds only (a reset inside), or span lost samples: trust them less. */
    public boolean unreliable() {
        return reset || gap;
    }
}
