package dev.fabrictwin.twin.scenario;

/**
 * How real the generator's telemetry looks (scenario block {@code telemetry:}); defaults resemble a busy
 * production fabric. The analyzer is never given these.
 *
 * @param counterBits   32 or 64: counters wrap at this width
 * @param clockSkewMs   each device's clock is off by up to ± this (fixed per device)
 * @param jitterMs      each sample is taken up to ± this late or early
 * @param lossRate      fraction of samples never delivered
 * @param lateRate      fraction of samples delivered a few intervals late (out of order)
 * @param reboots       devices that reboot once during the run (counters reset to 0)
 * @param gaugeNoise    relative measurement noise on gauges (latency, queue depth)
 * @param phaseDrift    relative jitter of each compute phase, so job phases drift
 * @param realityDraw   0: the fixed reality above (the library's own); N &gt;= 1: draw N of the randomized reality
 *                      (the simulator's {@code Reality}: hidden parameters drawn from realistic ranges, which then
 *                      replace clock skew, jitter, loss, late and gauge noise above; docs/robustness.md)
 */
public record TelemetryProfile(int counterBits, double clockSkewMs, double jitterMs, double lossRate, double lateRate,
                               int reboots, double gaugeNoise, double phaseDrift, int realityDraw) {
    public TelemetryProfile {
        if (realityDraw < 0) {
            throw new IllegalArgumentException("reality draw must be >= 0, was " + realityDraw);
        }
        if (counterBits != 32 && counterBits != 64) {
            throw new IllegalArgumentException("counterBits must be 32 or 64, was " + counterBits);
        }
        if (clockSkewMs < 0 || jitterMs < 0 || reboots < 0 || gaugeNoise < 0 || phaseDrift < 0 || phaseDrift >= 0.5) {
            throw new IllegalArgumentException("telemetry settings must be >= 0 (phaseDrift < 0.5)");
        }
        if (!(lossRate >= 0 && lossRate < 1) || !(lateRate >= 0 && lateRate < 1)) {
            throw new IllegalArgumentException("lossRate and lateRate must be in [0, 1)");
        }
    }

    /** The fixed reality (no randomized draw). */
    public TelemetryProfile(final int counterBits, final double clockSkewMs, final double jitterMs, final double lossRate,
                            final double lateRate, final int reboots, final double gaugeNoise, final double phaseDrift) {
        this(counterBits, clockSkewMs, jitterMs, lossRate, lateRate, reboots, gaugeNoise, phaseDrift, 0);
    }

    public static TelemetryProfile defaults() {
        return new TelemetryProfile(64, 50, 20, 0.005, 0.005, 0, 0.02, 0.01);
    }

    /** Perfect telemetry: aligned, lossless, noiseless (for tests that need exact values). */
    public static TelemetryProfile ideal() {
        return new TelemetryProfile(64, 0, 0, 0, 0, 0, 0, 0);
    }

    public TelemetryProfile withCounterBits(final int bits) {
        return new TelemetryProfile(bits, clockSkewMs, jitterMs, lossRate, lateRate, reboots, gaugeNoise, phaseDrift,
            realityDraw);
    }

    /** The same profile with draw {@code draw} of the randomized reality (0: back to the fixed one). */
    public TelemetryProfile withRealityDraw(final int draw) {
        return new TelemetryProfile(counterBits, clockSkewMs, jitterMs, lossRate, lateRate, reboots, gaugeNoise, phaseDrift,
            draw);
    }

    public boolean randomized() {
        return realityDraw > 0;
    }
}
