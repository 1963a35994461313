package dev.fabrictwin.analyzer;

import java.io.Serializable;
import java.util.OptionalDouble;

import dev.fabrictwin.analyzer.rates.PortRates;

/**
 * The analyzer's knobs, each with a default that suits 1 s telemetry from a RoCE/IB training fabric.
 *
 * @param tickMs             analysis tick: the nominal sample interval
 * @param graceMs            how long past a tick's end to wait for skewed and jittered devices
 * @param openAfterTicks     k: consecutive ticks with a finding before an alert opens
 * @param updateEveryTicks   m: an open alert is re-published at most this often
 * @param resolveAfterTicks  r: clean ticks before an open alert resolves
 * @param latencySloUs       P99 latency objective per port (µs), an operator's setting: NaN (the default) is none.
 *                           When set, a P99 over it (and over the twin's) is a {@code LATENCY_SLO} whatever the port
 *                           learned; unset, only departures from a port's own learned level are
 * @param maxClockSkewMs     clock skew between devices the link-conservation check must tolerate
 * @param learnPaths         pin the replica's flows to the paths the counters show (docs/twin.md); off only to
 *                           measure what learning brings
 * @param calibration        every tuned number of the detectors, the job tracker, the path learner and the correlator
 */
public record AnalyzerConfig(long tickMs, long graceMs, int openAfterTicks, int updateEveryTicks,
                             int resolveAfterTicks, double latencySloUs, double maxClockSkewMs,
                             boolean learnPaths, DetectionCalibration calibration) implements Serializable {

    /** Ticks past its grace a device may lag and still have its intervals evaluated exactly. */
    public static final int LATE_TICKS = 5;

    public AnalyzerConfig {
        if (tickMs <= 0 || graceMs < 0 || openAfterTicks < 1 || updateEveryTicks < 1 || resolveAfterTicks < 1
            || latencySloUs <= 0 || maxClockSkewMs < 0 || calibration == null) {
            throw new IllegalArgumentException("invalid analyzer settings: " + toString());
        }
    }

    /** Defaults for a nominal sample interval. */
    public static AnalyzerConfig defaults(final long sampleIntervalMs) {
        return new AnalyzerConfig(sampleIntervalMs, Math.max(250, sampleIntervalMs * 3 / 2), 2, 10, 3, Double.NaN, 150,
            true, DetectionCalibration.defaults());
    }

    /** The P99 latency objective, when the operator set one. */
    public OptionalDouble latencySlo() {
        return Double.isNaN(latencySloUs) ? OptionalDouble.empty() : OptionalDouble.of(latencySloUs);
    }

    /** The same settings with this P99 objective (µs; NaN: none). */
    public AnalyzerConfig withLatencySloUs(final double us) {
        return new AnalyzerConfig(tickMs, graceMs, openAfterTicks, updateEveryTicks, resolveAfterTicks, us,
            maxClockSkewMs, learnPaths, calibration);
    }

    /**
     * How far before a closing tick's start the replica keeps its history: what an interval still arriving can
     * span. An on-time interval ends in an open tick and spans at most {@link PortRates#GAP_FACTOR} sample intervals
     * (longer is a gap, whose increases are averages); {@link #LATE_TICKS} more, plus the grace, cover a device
     * running a little late. A span reaching further back is extrapolated from what is kept (TwinReplica).
     */
    public long historyMs() {
        return (PortRates.GAP_FACTOR + LATE_TICKS) * tickMs + graceMs;
    }

    /** The same settings with these tuned numbers for the detectors. */
    public AnalyzerConfig withCalibration(final DetectionCalibration tuned) {
        return new AnalyzerConfig(tickMs, graceMs, openAfterTicks, updateEveryTicks, resolveAfterTicks, latencySloUs,
            maxClockSkewMs, learnPaths, tuned);
    }

    /** The same settings with the replica keeping its own hash's paths. */
    public AnalyzerConfig withoutLearnedPaths() {
        return new AnalyzerConfig(tickMs, graceMs, openAfterTicks, updateEveryTicks, resolveAfterTicks, latencySloUs,
            maxClockSkewMs, false, calibration);
    }
}
