package dev.fabrictwin.analyzer.rates;

/**
 * How a counter moved between two samples of a port.
 *
 * <ul>
 * <li>{@code NORMAL}: it rose by {@code delta};</li>
 * <li>{@code WRAPPED}: it passed its width (32 or 64 bits) {@code wraps} times and rose by {@code delta};</li>
 * <li>{@code RESET}: it restarted (device reboot, counter clear): the true increase is unknown and
 *     {@code delta} is what it counted since the reset, a lower bound; never report it as a rate spike.</li>
 * </ul>
 */
record CounterStep(Kind kind, long delta, int wraps) {

    public enum Kind { NORMAL, WRAPPED, RESET }

    public static CounterStep normal(final long delta) {
        return new CounterStep(Kind.NORMAL, delta, 0);
    }

    public boolean trustworthy() {
        return kind != Kind.RESET;
    }
}
