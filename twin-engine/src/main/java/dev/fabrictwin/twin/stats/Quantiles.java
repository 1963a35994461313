package dev.fabrictwin.twin.stats;

import java.util.Arrays;

/** Quantile estimates over a handful of draws (hash seeds). */
public final class Quantiles {

    private static final int STEPS = 20_000;

    private Quantiles() {
    }

    /**
     * The Harrell–Davis estimate of the {@code q} quantile: a weighted mean of the order statistics with
     * Beta((n+1)q, (n+1)(1−q)) weights. Makespans under ECMP are quantized (k colliding flows take k times one flow's
     * time), so a plain sample quantile jumps a whole step between k and k+1 on one seed more or less; this estimate
     * moves smoothly and is consistent. The packet-level reference's medians are estimated the same way
     * (docs/fidelity.md). Equal to the value itself for one value.
     */
    public static double harrellDavis(final double[] values, final double q) {
        if (!(q > 0 && q < 1)) {
            throw new IllegalArgumentException("quantile outside (0, 1): " + q);
        }
        final double[] v = values.clone();
        Arrays.sort(v);
        final int n = v.length;
        if (n == 1) {
            return v[0];
        }
        final double a = (n + 1) * q;
        final double b = (n + 1) * (1 - q);
        // the Beta(a, b) distribution function by the midpoint rule, in logs first so that large n cannot underflow
        final double[] logDensity = new double[STEPS];
        double peak = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < STEPS; i++) {
            final double x = (i + 0.5) / STEPS;
            logDensity[i] = (a - 1) * Math.log(x) + (b - 1) * Math.log(1 - x);
            peak = Math.max(peak, logDensity[i]);
        }
        final double[] cdf = new double[STEPS + 1];
        for (int i = 0; i < STEPS; i++) {
            cdf[i + 1] = cdf[i] + Math.exp(logDensity[i] - peak);
        }
        double estimate = 0;
        for (int i = 1; i <= n; i++) {
            final double w = (cdf[(int) Math.round((double) i / n * STEPS)]
                - cdf[(int) Math.round((double) (i - 1) / n * STEPS)]) / cdf[STEPS];
            if (w > 0) { // a weight of 0 takes no part, not even an infinite value's (a job that never ended)
                estimate += w * v[i - 1];
            }
        }
        return estimate;
    }

    /** {@link #harrellDavis} at the median. */
    public static double median(final double[] values) {
        return harrellDavis(values, 0.5);
    }
}
