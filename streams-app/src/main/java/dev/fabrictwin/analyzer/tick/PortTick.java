package dev.fabrictwin.analyzer.tick;

import java.io.Serializable;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;

/**
 * One port over one analysis tick: what it reported (the sum of its intervals ending in the tick) beside what
 * the twin expected over exactly those intervals. Gauges are the latest observed and the time-weighted
 * expected mean. Canonical names live in arrays ({@link CounterIndex}): every sample passes through here.
 * Built by {@link TickAssembler}; read by detectors.
 */
public final class PortTick implements Serializable {

    /** The smallest Ethernet frame: bounds how many packets a port can count in a time. */
    private static final int MIN_FRAME_BYTES = 64;

    private final PortRef port;
    private final int index;
    private final double[] observed = new double[CounterIndex.size()];
    private final boolean[] reported = new boolean[CounterIndex.size()];
    private final double[] expected = new double[CounterIndex.size()];
    private final double[] expectedGaugeArea = new double[CounterIndex.size()];
    private Map<String, Double> otherCounters;
    private Map<String, Double> gauges = Map.of();
    /** The latest interval's {@code oper_up} (NaN: not reported): most detectors ask it of every port, every tick. */
    private double operUp = Double.NaN;
    private double seconds;
    private long t0 = Long.MAX_VALUE;
    private long t1 = Long.MIN_VALUE;
    private boolean reset;
    private boolean gap;

    PortTick(final PortRef port, final int index) {
        this.port = port;
        this.index = index;
    }

    /**
     * The twin's expectation over a span of the port of this {@code Fabric.portIndex}, into {@code counters} and
     * {@code gauges} ({@link CounterIndex} slots).
     */
    @FunctionalInterface
    public interface Expectation {
        void into(int port, long t0, long t1, double[] counters, double[] gauges);
    }

    /** A port's {@code oper_up} at the end of one of its intervals ({@link #reports}). */
    @FunctionalInterface
    public interface OperStateReport {
        void at(long t1, int port, boolean up);
    }

    /**
     * The intervals added without the twin's expectation, three slots each: t0, t1 (epoch ms) and the port's
     * {@code oper_up} at t1 (1, 0, or -1 unreported). The replica is told the link states and asked for the
     * expectation when the tick closes ({@link #reports}, {@link #expect}): it then runs in tick order, whatever order
     * the intervals came in.
     */
    private long[] deferred = NO_SPANS;
    private int deferredCount;
    private static final long[] NO_SPANS = new long[0];
    private static final int SLOTS = 3;

    /** An interval with the twin's expectation for it already known (a hand-built tick). */
    void add(final PortInterval interval, final double[] twinCounters, final double[] twinGauges) {
        addObserved(interval);
        addExpected(twinCounters, twinGauges, interval.seconds());
    }

    /** An interval whose link state and expectation the tick gives the twin when it closes. */
    void add(final PortInterval interval) {
        addObserved(interval);
        if (deferredCount + SLOTS > deferred.length) {
            deferred = Arrays.copyOf(deferred, Math.max(2 * SLOTS, 2 * deferred.length));
        }
        final Double operUp = interval.gauges().get(CounterNames.OPER_UP);
        deferred[deferredCount++] = interval.t0();
        deferred[deferredCount++] = interval.t1();
        deferred[deferredCount++] = operUp == null ? -1 : operUp != 0 ? 1 : 0;
    }

    /** The {@code oper_up} reports of the intervals added without an expectation, in their order. */
    public void reports(final OperStateReport to) {
        for (int i = 0; i < deferredCount; i += SLOTS) {
            if (deferred[i + 2] >= 0) {
                to.at(deferred[i + 1], index, deferred[i + 2] == 1);
            }
        }
    }

    /** Adds the twin's expectation over the intervals added without one, in their order; scratch arrays given. */
    public void expect(final Expectation twin, final double[] counters, final double[] gauges) {
        for (int i = 0; i < deferredCount; i += SLOTS) {
            twin.into(index, deferred[i], deferred[i + 1], counters, gauges);
            addExpected(counters, gauges, (deferred[i + 1] - deferred[i]) / 1000.0);
        }
        deferred = NO_SPANS;
        deferredCount = 0;
    }

    private void addExpected(final double[] twinCounters, final double[] twinGauges, final double dt) {
        for (int i = 0; i < expected.length; i++) {
            expected[i] += twinCounters[i];
            expectedGaugeArea[i] += twinGauges[i] * dt;
        }
    }

    private void addObserved(final PortInterval interval) {
        final double dt = interval.seconds();
        for (final var e : interval.increases().entrySet()) {
            final int slot = CounterIndex.of(e.getKey());
            if (slot >= 0) {
                observed[slot] += e.getValue();
                reported[slot] = true;
            } else {
                if (otherCounters == null) {
                    otherCounters = new HashMap<>();
                }
                otherCounters.merge(e.getKey(), (double) e.getValue(), Double::sum);
            }
        }
        if (interval.t1() >= t1) {
            gauges = interval.gauges();
            operUp = gauges.getOrDefault(CounterNames.OPER_UP, Double.NaN);
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

    /** The port's {@code Fabric.portIndex}: its peer's is {@code index ^ 1}, its link's {@code index / 2}. */
    public int index() {
        return index;
    }

    /** Observed increase of a counter (0 when not reported). */
    public double observed(final String counter) {
        final int slot = CounterIndex.of(counter);
        if (slot >= 0) {
            return observed[slot];
        }
        return otherCounters == null ? 0 : otherCounters.getOrDefault(counter, 0.0);
    }

    /** Observed increase by {@link CounterIndex} slot. */
    public double observed(final int slot) {
        return observed[slot];
    }

    /** Whether the port reports this counter at all (a missing counter is not a zero). */
    public boolean reports(final String counter) {
        final int slot = CounterIndex.of(counter);
        return slot >= 0 ? reported[slot] : otherCounters != null && otherCounters.containsKey(counter);
    }

    /** Whether the port reports the counter of this {@link CounterIndex} slot. */
    public boolean reports(final int slot) {
        return reported[slot];
    }

    public double expected(final String counter) {
        final int slot = CounterIndex.of(counter);
        return slot >= 0 ? expected[slot] : 0;
    }

    /** Expected increase by {@link CounterIndex} slot. */
    public double expected(final int slot) {
        return expected[slot];
    }

    public double observedRate(final String counter) {
        return seconds > 0 ? observed(counter) / seconds : 0;
    }

    public double observedRate(final int slot) {
        return seconds > 0 ? observed[slot] / seconds : 0;
    }

    public double expectedRate(final String counter) {
        return seconds > 0 ? expected(counter) / seconds : 0;
    }

    /** Latest observed gauge, or NaN when not reported. */
    /** Whether the port reported itself down at the end of its latest interval. */
    public boolean down() {
        return operUp == 0;
    }

    public double gauge(final String name) {
        return gauges.getOrDefault(name, Double.NaN);
    }

    public double expectedGauge(final String name) {
        final int slot = CounterIndex.of(name);
        return slot >= 0 ? expectedGauge(slot) : 0;
    }

    /** The twin's time-weighted mean of the gauge of this {@link CounterIndex} slot. */
    public double expectedGauge(final int slot) {
        return seconds > 0 ? expectedGaugeArea[slot] / seconds : 0;
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

    /**
     * The packet counters' increases are exact: no reset inside, and lost samples (a gap) spanning less time than a
     * port needs to count 2^32 packets at line rate in minimum-size frames (5.5 s at 400 Gb/s), so even a 32-bit
     * counter's wrap is unambiguous. Such an interval carries every packet of the ticks it spans.
     */
    public boolean packetsExact(final double lineBps) {
        return !reset && (!gap || seconds * lineBps / 8 / MIN_FRAME_BYTES < 0x1p32);
    }
}
