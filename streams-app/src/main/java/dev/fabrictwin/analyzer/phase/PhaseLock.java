package dev.fabrictwin.analyzer.phase;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

import dev.fabrictwin.analyzer.DetectionCalibration;

/**
 * Locks a bulk-synchronous job's phase to what its NICs show (docs/twin.md "Phase lock"). The observations are
 * each NIC's tx bytes over its own sample intervals (clocks skewed, boundaries unaligned: each is used as it
 * is). The model is a pulse train: comm phases of length D every P = compute + D, compute being the declared
 * {@code (1 − commFraction) × period} (a slower network stretches comm, never compute). A grid search over
 * D (from {@link DetectionCalibration.Phase#minCommFactor} to {@link DetectionCalibration.Phase#maxCommFactor} times
 * the twin's own comm time, log-spaced) and the offset, with the pulse height solved
 * by least squares for each, then two rounds of local refinement at a third of the step, pick the train that
 * explains the bytes best. Sample intervals longer than the period
 * still constrain D through the average rate; the offset is then weakly determined and {@code quality} says so.
 *
 * <p>Cost per fit: ({@link DetectionCalibration.Phase#durations} × {@link DetectionCalibration.Phase#offsets} + 98) ×
 * observations; callers keep the observation count bounded (a few NICs per job over
 * {@link DetectionCalibration.Phase#windowPeriods} periods).
 */
public final class PhaseLock implements Serializable {

    private record Observation(long t0, long t1, double bytes) implements Serializable {
    }

    private final double computeMs;
    private final DetectionCalibration.Phase cal;
    private final Deque<Observation> window = new ArrayDeque<>();
    private long latestMs = Long.MIN_VALUE;

    public PhaseLock(final double computeMs, final DetectionCalibration.Phase calibration) {
        if (!(computeMs > 0)) {
            throw new IllegalArgumentException("compute phase must be positive, was " + computeMs);
        }
        this.computeMs = computeMs;
        this.cal = calibration;
    }

    /** Adds one NIC's tx bytes over [t0, t1] (epoch ms). */
    public void observe(final long t0, final long t1, final double txBytes) {
        window.addLast(new Observation(t0, t1, txBytes));
        latestMs = Math.max(latestMs, t1);
    }

    /** Whether the lock holds no observation. */
    public boolean isEmpty() {
        return window.isEmpty();
    }

    /**
     * The observations the next fit spans, for an upgraded analysis to fit on at once (the job-health tracker's
     * learned part {@code phase-locks}): the latest end, then each observation's span (epoch ms) and bytes, 24 bytes.
     */
    public void writeWindow(final DataOutput out) throws IOException {
        out.writeLong(latestMs);
        out.writeInt(window.size());
        for (final Observation o : window) {
            out.writeLong(o.t0);
            out.writeLong(o.t1);
            out.writeDouble(o.bytes);
        }
    }

    /** Takes back a window {@link #writeWindow} wrote, before this lock has observed anything. */
    public void readWindow(final DataInput in) throws IOException {
        window.clear();
        latestMs = in.readLong();
        final int n = in.readInt();
        for (int i = 0; i < n; i++) {
            window.addLast(new Observation(in.readLong(), in.readLong(), in.readDouble()));
        }
    }

    /**
     * The best pulse train for the recent observations, given the twin's comm time {@code twinCommMs}; empty
     * until the observations span two periods.
     */
    public Optional<PhaseFit> fit(final double twinCommMs) {
        final double horizon = cal.windowPeriods() * (computeMs + cal.maxCommFactor() * twinCommMs);
        while (!window.isEmpty() && window.peekFirst().t1 < latestMs - horizon) {
            window.removeFirst();
        }
        if (window.isEmpty() || latestMs - window.peekFirst().t0 < 2 * (computeMs + twinCommMs)) {
            return Optional.empty();
        }
        final int n = window.size();
        final double origin = window.peekFirst().t0;
        final double[] t0 = new double[n];
        final double[] t1 = new double[n];
        final double[] rate = new double[n];
        int i = 0;
        double sum = 0;
        double sumSq = 0;
        for (final Observation o : window) {
            t0[i] = o.t0 - origin;
            t1[i] = o.t1 - origin;
            rate[i] = o.bytes / (o.t1 - o.t0);
            sum += rate[i];
            sumSq += rate[i] * rate[i];
            i++;
        }
        final double variance = sumSq - sum * sum / n;
        if (!(variance > 0)) {
            return Optional.empty(); // flat: nothing moves, or it never stops
        }
        // coarse grid, then two rounds of local refinement around the best cell at a third of the step
        double bestSse = Double.POSITIVE_INFINITY;
        double bestLogD = 0;
        double bestPhase = 0;
        final double logSpan = Math.log(cal.maxCommFactor() / cal.minCommFactor());
        for (int di = 0; di < cal.durations(); di++) {
            for (int oi = 0; oi < cal.offsets(); oi++) {
                final double logD = logSpan * di / (cal.durations() - 1.0);
                final double phase = (double) oi / cal.offsets();
                final double sse = sse(t0, t1, rate, sumSq, twinCommMs, logD, phase);
                if (sse < bestSse) {
                    bestSse = sse;
                    bestLogD = logD;
                    bestPhase = phase;
                }
            }
        }
        double stepD = logSpan / (cal.durations() - 1.0);
        double stepPhase = 1.0 / cal.offsets();
        for (int round = 0; round < 2; round++) {
            stepD /= 3;
            stepPhase /= 3;
            final double centreD = bestLogD;
            final double centrePhase = bestPhase;
            for (int di = -3; di <= 3; di++) {
                for (int oi = -3; oi <= 3; oi++) {
                    final double logD = Math.max(0, Math.min(logSpan, centreD + di * stepD));
                    final double phase = centrePhase + oi * stepPhase - Math.floor(centrePhase + oi * stepPhase);
                    final double sse = sse(t0, t1, rate, sumSq, twinCommMs, logD, phase);
                    if (sse < bestSse) {
                        bestSse = sse;
                        bestLogD = logD;
                        bestPhase = phase;
                    }
                }
            }
        }
        if (bestSse == Double.POSITIVE_INFINITY) {
            return Optional.empty();
        }
        final double bestD = twinCommMs * cal.minCommFactor() * Math.exp(bestLogD);
        final double bestOffset = bestPhase * (computeMs + bestD);
        final double period = computeMs + bestD;
        final double last = origin + bestOffset + Math.floor((latestMs - origin - bestOffset) / period) * period;
        return Optional.of(new PhaseFit(last, bestD, period, 1 - bestSse / variance));
    }

    /** Residual of the best pulse height for comm duration twin·MIN·e^logD at offset phase·period (∞ if no overlap). */
    private double sse(final double[] t0, final double[] t1, final double[] rate, final double sumSq,
                       final double twinCommMs, final double logD, final double phase) {
        final double d = twinCommMs * cal.minCommFactor() * Math.exp(logD);
        final double period = computeMs + d;
        final double offset = phase * period;
        double rx = 0;
        double xx = 0;
        for (int k = 0; k < t0.length; k++) {
            final double x = overlap(t0[k], t1[k], offset, d, period) / (t1[k] - t0[k]);
            rx += rate[k] * x;
            xx += x * x;
        }
        return xx == 0 || rx <= 0 ? Double.POSITIVE_INFINITY : sumSq - rx * rx / xx;
    }

    /** Time inside [a, b] covered by the pulses [offset + n·period, offset + n·period + d]. */
    static double overlap(final double a, final double b, final double offset, final double d, final double period) {
        double covered = 0;
        for (double n = Math.floor((a - offset - d) / period); offset + n * period < b; n++) {
            final double s = offset + n * period;
            covered += Math.max(0, Math.min(b, s + d) - Math.max(a, s));
        }
        return covered;
    }
}
