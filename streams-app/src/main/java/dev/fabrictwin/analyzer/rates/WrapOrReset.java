package dev.fabrictwin.analyzer.rates;

/**
 * Tells a counter wrap from a reset (docs/twin.md): a decrease is a wrap only if passing the counter's width
 * gives an increase the port could physically have made in the elapsed time; anything else is a reset.
 * A width of 32 bits is assumed until a value above 2^32 − 1 proves the counter is 64-bit.
 *
 * <p>At 400 Gb/s a 32-bit byte counter wraps every 86 ms, several times per sample: then the number of
 * wraps is chosen so the increase lands nearest to what the twin expects ({@code expected}); with no
 * expectation, the smallest plausible number is taken.
 */
final class WrapOrReset {

    private static final double TWO_32 = 0x1p32;

    private WrapOrReset() {
    }

    /**
     * @param previous  the previous value (unsigned 64-bit in a long)
     * @param current   this value (unsigned)
     * @param maxDelta  the largest increase the port could make in the interval (e.g. line rate × Δt × 1.1);
     *                  must be positive
     * @param expected  the twin's expected increase, or a negative number if unknown
     * @param is64Bit   whether this counter is known to be 64 bits wide
     */
    public static CounterStep step(final long previous, final long current, final double maxDelta, final double expected,
                                   final boolean is64Bit) {
        if (is64Bit || previous > 0xFFFF_FFFFL || current > 0xFFFF_FFFFL) {
            final long delta = current - previous; // modulo 2^64: a single wrap needs no special case
            if (unsigned(delta) > maxDelta) {
                return new CounterStep(CounterStep.Kind.RESET, current, 0);
            }
            return Long.compareUnsigned(current, previous) < 0
                ? new CounterStep(CounterStep.Kind.WRAPPED, delta, 1) : CounterStep.normal(delta);
        }
        final long base = (current - previous) & 0xFFFF_FFFFL; // increase modulo 2^32
        final int crossed = current < previous ? 1 : 0;
        final int extra = expected >= 0 ? wrapsNearest(base, expected, maxDelta) : 0;
        final long delta = base + extra * (1L << 32);
        if (delta > maxDelta) {
            return new CounterStep(CounterStep.Kind.RESET, current, 0);
        }
        final int wraps = crossed + extra;
        return wraps == 0 ? CounterStep.normal(delta) : new CounterStep(CounterStep.Kind.WRAPPED, delta, wraps);
    }

    /** Extra 2^32 wraps that bring {@code base} closest to {@code expected} without exceeding {@code maxDelta}. */
    private static int wrapsNearest(final long base, final double expected, final double maxDelta) {
        final int k = (int) Math.max(0, Math.round((expected - base) / TWO_32));
        final int limit = (int) Math.max(0, Math.floor((maxDelta - base) / TWO_32));
        return Math.min(k, limit);
    }

    private static double unsigned(final long v) {
        return v >= 0 ? v : v + 0x1p64;
    }
}
