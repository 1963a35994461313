package dev.fabrictwin.ingest.format.gnmi;

import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A leaf value as it arrived, classified but not yet interpreted: whether it is a counter, a gauge or state
 * depends on the name it maps to (see {@link CanonicalValues}). Integers keep their decimal text so that
 * unsigned 64-bit values and overflow are judged by one parser.
 */
record LeafValue(Kind kind, String text, double number) {

    enum Kind {
        /** Decimal digits, no sign: an unsigned integer (may exceed 64 bits, judged when used). */
        UNSIGNED,
        /** A negative integer. */
        NEGATIVE,
        /** A finite number with a fraction or exponent. */
        FLOAT,
        /** NaN or an infinity. */
        NON_FINITE,
        /** Text that is not a number (state such as "UP", names, dates). */
        STRING,
        /** true/false; {@code number} is 1 or 0. */
        BOOL
    }

    private static final Pattern UNSIGNED = Pattern.compile("\\+?\\d+");
    private static final Pattern NEGATIVE = Pattern.compile("-\\d+");
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern NOT_FINITE = Pattern.compile("(?i)[+-]?(nan|inf|infinity)");

    static LeafValue string(final String text) {
        return new LeafValue(Kind.STRING, text, Double.NaN);
    }

    static LeafValue bool(final boolean b) {
        return new LeafValue(Kind.BOOL, Boolean.toString(b), b ? 1 : 0);
    }

    static LeafValue number(final double d) {
        return Double.isFinite(d) ? new LeafValue(Kind.FLOAT, Double.toString(d), d)
            : new LeafValue(Kind.NON_FINITE, Double.toString(d), d);
    }

    /**
     * Classifies text the way RFC 7951 JSON carries numbers: 64-bit integers and decimals are strings, so a
     * string that reads as a number is one; anything else is a state string.
     */
    static LeafValue ofText(final String raw) {
        final String t = raw.strip();
        if (UNSIGNED.matcher(t).matches()) {
            return new LeafValue(Kind.UNSIGNED, t.startsWith("+") ? t.substring(1) : t, Double.NaN);
        }
        if (NEGATIVE.matcher(t).matches()) {
            return new LeafValue(Kind.NEGATIVE, t, Double.NaN);
        }
        if (NOT_FINITE.matcher(t).matches()) {
            return new LeafValue(Kind.NON_FINITE, t, Double.NaN);
        }
        if (DECIMAL.matcher(t).matches()) {
            return number(Double.parseDouble(t));
        }
        return string(raw);
    }

    /** A scalar JSON node (number, string or boolean); null for JSON null, objects and arrays. */
    static LeafValue ofJson(final JsonNode n) {
        if (n == null) {
            return null;
        }
        if (n.isIntegralNumber()) {
            final String t = n.asText();
            return t.startsWith("-") ? new LeafValue(Kind.NEGATIVE, t, Double.NaN) : new LeafValue(Kind.UNSIGNED, t, Double.NaN);
        }
        if (n.isNumber()) {
            return number(n.doubleValue());
        }
        if (n.isTextual()) {
            return ofText(n.textValue());
        }
        if (n.isBoolean()) {
            return bool(n.booleanValue());
        }
        return null;
    }
}
