package dev.fabrictwin.ingest.format.gnmi;

import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fabrictwin.ingest.format.CounterMapping;
import dev.fabrictwin.ingest.format.support.SampleValues;
import dev.fabrictwin.ingest.format.support.InputValue;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;

/**
 * Classifies gNMI leaf values as they arrived ({@link InputValue}); {@link SampleValues} decides what they
 * become under the names they map to.
 */
final class LeafValues {

    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern NOT_FINITE = Pattern.compile("(?i)[+-]?(nan|inf|infinity)");

    private LeafValues() {
    }

    /** The values of one sample; gNMI messages name a leaf by its path, so no noun is added. */
    static SampleValues sample(final CounterMapping mapping, final RepeatedKeys repeated) {
        return new SampleValues(mapping, "", LeafValues::ofText, repeated);
    }

    static InputValue number(final double d) {
        return InputValue.number(Double.toString(d), d);
    }

    static InputValue bool(final boolean b) {
        return InputValue.bool(Boolean.toString(b), b);
    }

    /**
     * Classifies text the way RFC 7951 JSON carries numbers: 64-bit integers and decimals are strings, so a
     * string that reads as a number is one; anything else is a state string.
     */
    static InputValue ofText(final String raw) {
        final String t = raw.strip();
        if (isInteger(t)) {
            return InputValue.integer(t);
        }
        if (NOT_FINITE.matcher(t).matches()) {
            return InputValue.number(t, Double.NaN);
        }
        if (DECIMAL.matcher(t).matches()) {
            return number(Double.parseDouble(t));
        }
        return InputValue.string(raw);
    }

    /**
     * {@code [+-]?[0-9]+}: most leaves are counters as strings, and a regex per leaf cost ingest --from-topic a
     * sixteenth of its time.
     */
    static boolean isInteger(final String t) {
        final int start = !t.isEmpty() && (t.charAt(0) == '+' || t.charAt(0) == '-') ? 1 : 0;
        if (start == t.length()) {
            return false;
        }
        for (int i = start; i < t.length(); i++) {
            if (t.charAt(i) < '0' || t.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** A scalar JSON node (number, string or boolean); null for JSON null, objects and arrays. */
    static InputValue ofJson(final JsonNode n) {
        if (n == null) {
            return null;
        }
        if (n.isIntegralNumber()) {
            return InputValue.integer(n.asText());
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
