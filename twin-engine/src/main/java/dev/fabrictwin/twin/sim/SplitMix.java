package dev.fabrictwin.twin.sim;

import java.io.Serializable;

/**
 * The exact sequence of {@code new SplittableRandom(seed)} (SplitMix64: {@code nextLong}, {@code nextInt},
 * {@code nextInt(bound)}, {@code nextDouble}), as a class whose state can be checkpointed: the analyzer's replica
 * must continue a job's jitter draws after a restart, and the JDK's generator is not serializable.
 */
final class SplitMix implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

    private long seed;

    SplitMix(final long seed) {
        this.seed = seed;
    }

    long nextLong() {
        return mix64(seed += GOLDEN_GAMMA);
    }

    int nextInt() {
        return mix32(seed += GOLDEN_GAMMA);
    }

    /** Uniform in [0, bound), unbiased, as the JDK's bounded draw. */
    int nextInt(final int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive: " + bound);
        }
        int r = nextInt();
        final int m = bound - 1;
        if ((bound & m) == 0) {
            return r & m;
        }
        for (int u = r >>> 1; u + m - (r = u % bound) < 0; u = nextInt() >>> 1) {
            // rejected: u fell in the last, partial copy of [0, bound)
        }
        return r;
    }

    double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    private static long mix64(final long x) {
        long z = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private static int mix32(final long x) {
        final long z = (x ^ (x >>> 33)) * 0x62a9d9ed799705f5L;
        return (int) (((z ^ (z >>> 28)) * 0xcb24d0a5c88c35b3L) >>> 32);
    }
}
