package dev.fabrictwin.analyzer.tick;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;

/**
 * Hand-built inputs for the tick, phase and job tests: port intervals, twin expectations by
 * {@link CounterIndex} slot, and comm pulse trains whose every start and length is known.
 */
public final class IntervalsFixture {

    /** Time zero of every fixture (epoch ms): telemetry clocks are epoch-based. */
    public static final long EPOCH_MS = 1_700_000_000_000L;

    private IntervalsFixture() {
    }

    /** A clean interval of a port that reports only {@code tx_bytes}. */
    public static PortInterval tx(final String device, final String port, final long t0, final long t1,
                                  final long txBytes) {
        return new PortInterval(device, port, t0, t1, Map.of(CounterNames.TX_BYTES, txBytes), Map.of(), false, 0,
            false);
    }

    /** As {@link #tx}, marked as holding a counter reset and/or spanning lost samples. */
    public static PortInterval tx(final String device, final String port, final long t0, final long t1,
                                  final long txBytes, final boolean reset, final boolean gap) {
        return new PortInterval(device, port, t0, t1, Map.of(CounterNames.TX_BYTES, txBytes), Map.of(), reset, 0,
            gap);
    }

    /** Twin values by {@link CounterIndex} slot: {@code name, value, name, value, ...}; every other slot 0. */
    public static double[] slots(final Object... nameValuePairs) {
        final double[] out = new double[CounterIndex.size()];
        for (int i = 0; i < nameValuePairs.length; i += 2) {
            out[CounterIndex.of((String) nameValuePairs[i])] = ((Number) nameValuePairs[i + 1]).doubleValue();
        }
        return out;
    }

    /**
     * Bulk-synchronous iterations as a NIC shows them: after {@code computeMs} of silence from the previous comm
     * phase's end, a comm phase of {@code commMs(iteration)} sending {@code bytesPerIteration} (a longer comm
     * phase sends the same bytes, slower). The first comm phase starts at {@code firstStartMs}; phases are laid
     * out up to {@code untilMs}.
     */
    public static final class PulseTrain {

        /** Each comm phase: start, length (ms), rate (bytes/ms). */
        private final List<double[]> pulses = new ArrayList<>();

        public PulseTrain(final double firstStartMs, final double computeMs, final double bytesPerIteration,
                          final IntToDoubleFunction commMs, final double untilMs) {
            double start = firstStartMs;
            for (int iteration = 0; start < untilMs; iteration++) {
                final double length = commMs.applyAsDouble(iteration);
                pulses.add(new double[] {start, length, bytesPerIteration / length});
                start += length + computeMs;
            }
        }

        /** Regular iterations: every comm phase lasts {@code commMs}. */
        public static PulseTrain regular(final double firstStartMs, final double computeMs, final double commMs,
                                         final double bytesPerIteration, final double untilMs) {
            return new PulseTrain(firstStartMs, computeMs, bytesPerIteration, i -> commMs, untilMs);
        }

        /** Bytes sent over [t0, t1] (ms). */
        public double bytes(final double t0, final double t1) {
            double bytes = 0;
            for (final double[] p : pulses) {
                bytes += Math.max(0, Math.min(t1, p[0] + p[1]) - Math.max(t0, p[0])) * p[2];
            }
            return bytes;
        }

        /** The comm start nearest to {@code tMs}. */
        public double nearestStart(final double tMs) {
            double nearest = pulses.get(0)[0];
            for (final double[] p : pulses) {
                if (Math.abs(p[0] - tMs) < Math.abs(nearest - tMs)) {
                    nearest = p[0];
                }
            }
            return nearest;
        }

        /** The start of the first comm phase after {@code tMs}. */
        public double firstStartAfter(final double tMs) {
            return pulses.stream().mapToDouble(p -> p[0]).filter(s -> s > tMs).min().orElse(Double.NaN);
        }
    }
}
