package dev.fabrictwin.ingest.format.support;

/**
 * A value as a typed format carries it (a gNMI leaf, a line-protocol field), classified by its syntax but not yet
 * interpreted: whether it is a counter, a gauge or state depends on the name it maps to (see
 * {@link SampleValues}). Integers keep their decimal text so that unsigned 64-bit values and overflow are judged
 * by one parser.
 */
public record InputValue(Kind kind, String text, double number) {

    public enum Kind {
        /** An integer without a minus sign; {@code text} holds its digits (may exceed 64 bits, judged when used). */
        UNSIGNED,
        /** A negative integer; {@code text} holds it with its sign. */
        NEGATIVE,
        /** A finite number with a fraction or exponent (line protocol: any number without an i/u suffix). */
        FLOAT,
        /** NaN or an infinity. */
        NON_FINITE,
        /** Text: state such as "UP", names, dates, or a number written as a string. */
        STRING,
        /** true/false; {@code number} is 1 or 0. */
        BOOL,
        /** Unquoted text that is no value of its format (line protocol {@code lots}, {@code 12x}). */
        INVALID
    }

    /** A number as {@code text} spells it: FLOAT when finite, else NON_FINITE. */
    public static InputValue number(final String text, final double d) {
        return new InputValue(Double.isFinite(d) ? Kind.FLOAT : Kind.NON_FINITE, text, d);
    }

    public static InputValue string(final String text) {
        return new InputValue(Kind.STRING, text, Double.NaN);
    }

    public static InputValue invalid(final String text) {
        return new InputValue(Kind.INVALID, text, Double.NaN);
    }

    public static InputValue bool(final String text, final boolean b) {
        return new InputValue(Kind.BOOL, text, b ? 1 : 0);
    }

    /** An integer as decimal text: UNSIGNED without a leading {@code +}, or NEGATIVE. */
    public static InputValue integer(final String text) {
        if (text.startsWith("-")) {
            return new InputValue(Kind.NEGATIVE, text, Double.NaN);
        }
        return new InputValue(Kind.UNSIGNED, text.startsWith("+") ? text.substring(1) : text, Double.NaN);
    }
}
