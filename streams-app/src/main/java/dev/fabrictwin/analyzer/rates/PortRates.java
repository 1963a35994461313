package dev.fabrictwin.analyzer.rates;

import java.util.Optional;

import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.telemetry.FrozenMap;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * Turns a port's consecutive cumulative samples into {@link PortInterval}s, safely:
 * <ul>
 * <li>a sample no newer than the last one is late (or a duplicate) and changes nothing: its interval was
 *     already accounted for by the samples around it (grace = none; the next interval absorbs lost ones);</li>
 * <li>a gap longer than {@link #GAP_FACTOR} nominal intervals still yields one interval, marked {@code gap},
 *     whose increases are averages over the gap;</li>
 * <li>each counter's step is classified by {@link WrapOrReset} against what the port can physically move in
 *     the elapsed time (speed gauge, else 1.6 Tb/s); a counter is taken as 64-bit once it exceeds 2^32 − 1;</li>
 * <li>a reset of any counter, or {@code oper_up} recovering from 0, marks the whole interval {@code reset}:
 *     a rebooted device restarts every counter, and a reset must never read as a rate spike;</li>
 * <li>a port that exports rates instead of byte counters ({@code tx_bps}, {@code rx_bps} gauges) gets its byte
 *     increase as the rate at the interval's end × the interval, and the interval is marked {@code estimated}: a
 *     device's rate is its mean over the time before its stamp (an exporter's counter difference over its poll, a
 *     router's load interval), so the newer sample's speaks for the interval. A counter, when there is one, wins.</li>
 * </ul>
 * Pure state machine: the Streams processor keeps the last sample per port in a state store.
 */
public final class PortRates {

    /** An interval longer than this many nominal sample intervals is marked as spanning a gap. */
    public static final int GAP_FACTOR = 3;
    /** Assumed line rate when a port reports no speed: a 1.6 Tb/s port bounds any plausible increase. */
    private static final double DEFAULT_SPEED_BPS = 1.6e12;
    /** Slack on the physical bound for clock jitter between the two samples. */
    private static final double SLACK = 1.25;
    /** Smallest frame, bytes: bounds packet-like counters. */
    private static final int MIN_FRAME = 64;

    private PortRates() {
    }

    /** Outcome of one sample: an interval, or nothing (first sample of a port, or late). */
    public record Step(Optional<PortInterval> interval, boolean late) {
    }

    public static Step next(final Sample previous, final Sample current, final long nominalIntervalMs) {
        if (previous == null) {
            return new Step(Optional.empty(), false);
        }
        if (current.ts() <= previous.ts()) {
            return new Step(Optional.empty(), true);
        }
        final double dt = (current.ts() - previous.ts()) / 1000.0;
        final double speed = current.gauges().getOrDefault(CounterNames.SPEED_BPS,
            previous.gauges().getOrDefault(CounterNames.SPEED_BPS, DEFAULT_SPEED_BPS));
        final double bytesBound = Math.max(1, speed) / 8 * dt * SLACK + 1;
        // built immutable, as the interval keeps it (no copy)
        final FrozenMap.Builder<Long> increases = new FrozenMap.Builder<>(current.counters().size() + 2);
        boolean reset = previous.gauges().getOrDefault(CounterNames.OPER_UP, 1.0) == 0
            && current.gauges().getOrDefault(CounterNames.OPER_UP, 1.0) != 0;
        final Counters counters = new Counters(increases, bytesBound, dt);
        if (current.counters() instanceof FrozenMap<Long> now && previous.counters() instanceof FrozenMap<Long> before) {
            // by position: a device sends its counters in one order, so each is found where it was, by identity
            for (int i = 0; i < now.size(); i++) {
                final int at = before.indexOf(now.keyAt(i), i);
                final Long was = at < 0 ? null : before.valueAt(at);
                if (was != null) {
                    counters.step(now.keyAt(i), was, now.valueAt(i));
                }
            }
        } else {
            for (final var e : current.counters().entrySet()) {
                final Long before = previous.counters().get(e.getKey());
                if (before != null) {
                    counters.step(e.getKey(), before, e.getValue());
                }
            }
        }
        reset |= counters.reset;
        final int wraps = counters.wraps;
        final boolean estimated = fromRate(increases, CounterNames.TX_BYTES, current.gauges().get(CounterNames.TX_BPS), dt)
            | fromRate(increases, CounterNames.RX_BYTES, current.gauges().get(CounterNames.RX_BPS), dt);
        final boolean gap = current.ts() - previous.ts() > GAP_FACTOR * nominalIntervalMs;
        return new Step(Optional.of(new PortInterval(current.device(), current.port(), previous.ts(), current.ts(),
            increases.build(), current.gauges(), reset, wraps, gap, estimated)), false);
    }

    /** Each counter present in both samples (one that just appeared has no interval yet): its increase, resets, wraps. */
    private static final class Counters {
        private final FrozenMap.Builder<Long> increases;
        private final double bytesBound;
        private final double dt;
        private boolean reset;
        private int wraps;

        Counters(final FrozenMap.Builder<Long> increases, final double bytesBound, final double dt) {
            this.increases = increases;
            this.bytesBound = bytesBound;
            this.dt = dt;
        }

        void step(final String name, final long before, final long value) {
            final double bound = name.endsWith("_bytes") ? bytesBound : bytesBound / MIN_FRAME + 1;
            final boolean is64 = before > 0xFFFF_FFFFL || before < 0 || value > 0xFFFF_FFFFL || value < 0;
            final CounterStep step = name.startsWith(CounterNames.RX_PAUSE_DURATION_US)
                ? WrapOrReset.step(before, value, dt * 1e6 * SLACK + 1, -1, is64)
                : WrapOrReset.step(before, value, bound, -1, is64);
            if (step.kind() == CounterStep.Kind.RESET) {
                reset = true;
            }
            wraps += step.wraps();
            increases.putAbsent(name, step.delta()); // a sample's counters: each key once
        }
    }

    /** A byte increase no counter gave, from a rate gauge in bit/s over {@code seconds}; whether it was put. */
    private static boolean fromRate(final FrozenMap.Builder<Long> increases, final String bytes, final Double bps,
                                    final double seconds) {
        if (increases.has(bytes) || bps == null || !(bps >= 0) || Double.isInfinite(bps)) {
            return false;
        }
        increases.put(bytes, Math.round(bps / 8 * seconds));
        return true;
    }
}
