package dev.fabrictwin.ingest.format.influx;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.ingest.format.support.InputValue;

/**
 * Parser of one line of InfluxDB line protocol:
 * {@code measurement[,tag=value...] field=value[,field=value...] [timestamp]}.
 * Escapes: in the measurement {@code \,} and {@code \ }; in tag keys, tag values and field keys also
 * {@code \=}; in string field values {@code \"} and {@code \\}. A backslash before any other character is
 * kept literally, as InfluxDB does. A tag or field key repeated in the line keeps its first value; the repeat is
 * left out and named in {@link Point#repeated()} (docs/ingest.md: one rule for repeated keys in every format).
 */
final class LineProtocol {

    /**
     * A parsed line; {@code timestampNs} is null when the line has none; {@code repeated}: the tag and field keys the
     * line repeats (their first values are in {@code tags} and {@code fields}).
     */
    record Point(String measurement, Map<String, String> tags, Map<String, InputValue> fields, Long timestampNs,
                 List<String> repeated) {

        Point(final String measurement, final Map<String, String> tags, final Map<String, InputValue> fields,
              final Long timestampNs) {
            this(measurement, tags, fields, timestampNs, List.of());
        }
    }

    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");
    private static final Pattern FLOAT = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern NOT_FINITE = Pattern.compile("(?i)[+-]?(nan|inf|infinity)");

    private final String s;
    private int i;

    private LineProtocol(final String line) {
        this.s = line;
    }

    static Point parse(final String line) throws SampleFormatException {
        return new LineProtocol(line).point();
    }

    private Point point() throws SampleFormatException {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        final String measurement = token(false);
        if (measurement.isEmpty()) {
            throw malformed("missing measurement name");
        }
        final Map<String, String> tags = new LinkedHashMap<>();
        final List<String> repeated = new ArrayList<>(0);
        while (i < s.length() && s.charAt(i) == ',') {
            i++;
            final String key = token(true);
            if (i >= s.length() || s.charAt(i) != '=' || key.isEmpty()) {
                throw malformed("tag without key=value after '" + measurement + "'");
            }
            i++;
            final String value = token(false);
            if (value.isEmpty()) {
                throw malformed("tag " + key + " has an empty value");
            }
            if (tags.putIfAbsent(key, value) != null) {
                repeated.add(key);
            }
        }
        if (i >= s.length() || s.charAt(i) != ' ') {
            throw malformed("no fields (expected a space after the measurement and tags)");
        }
        skipSpaces();
        final Map<String, InputValue> fields = new LinkedHashMap<>();
        while (true) {
            final String key = token(true);
            if (key.isEmpty() || i >= s.length() || s.charAt(i) != '=') {
                throw malformed("field without key=value" + (key.isEmpty() ? "" : " at '" + abbreviate(key) + "'"));
            }
            i++;
            final InputValue value = value();
            if (fields.putIfAbsent(key, value) != null) {
                repeated.add(key);
            }
            if (i < s.length() && s.charAt(i) == ',') {
                i++;
                continue;
            }
            break;
        }
        skipSpaces();
        Long ts = null;
        if (i < s.length()) {
            final int start = i;
            while (i < s.length() && s.charAt(i) != ' ' && s.charAt(i) != '\t') {
                i++;
            }
            final String t = s.substring(start, i);
            skipSpaces();
            if (i < s.length() || !INTEGER.matcher(t).matches()) {
                throw malformed("bad timestamp or trailing text: '" + abbreviate(s.substring(start)) + "'");
            }
            try {
                ts = Long.parseLong(t.startsWith("+") ? t.substring(1) : t);
            } catch (NumberFormatException e) {
                throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE, "timestamp " + abbreviate(t) + " is out of range");
            }
        }
        return new Point(measurement, tags, fields, ts, repeated);
    }

    private void skipSpaces() {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '\r')) {
            i++;
        }
    }

    /**
     * A measurement, tag key, tag value or field key: ends at an unescaped ',' or ' ', and keys also at '='.
     * {@code \,}, {@code \ } and {@code \=} are unescaped; any other backslash is kept.
     */
    private String token(final boolean key) {
        final StringBuilder b = new StringBuilder();
        while (i < s.length()) {
            final char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                final char n = s.charAt(i + 1);
                if (n == ',' || n == ' ' || n == '=') {
                    b.append(n);
                    i += 2;
                    continue;
                }
            }
            if (c == ',' || c == ' ' || key && c == '=') {
                break;
            }
            b.append(c);
            i++;
        }
        return b.toString();
    }

    private InputValue value() throws SampleFormatException {
        if (i < s.length() && s.charAt(i) == '"') {
            i++;
            final StringBuilder b = new StringBuilder();
            while (true) {
                if (i >= s.length()) {
                    throw malformed("unterminated string field value");
                }
                final char c = s.charAt(i);
                if (c == '\\' && i + 1 < s.length() && (s.charAt(i + 1) == '"' || s.charAt(i + 1) == '\\')) {
                    b.append(s.charAt(i + 1));
                    i += 2;
                } else if (c == '"') {
                    i++;
                    break;
                } else {
                    b.append(c);
                    i++;
                }
            }
            if (i < s.length() && s.charAt(i) != ',' && s.charAt(i) != ' ') {
                throw malformed("text after a string field value");
            }
            return InputValue.string(b.toString());
        }
        final int start = i;
        while (i < s.length() && s.charAt(i) != ',' && s.charAt(i) != ' ') {
            i++;
        }
        return classify(s.substring(start, i));
    }

    /**
     * An unquoted field value: {@code 12i}/{@code 12u} integers, booleans in their accepted spellings, NaN and
     * infinities (not valid line protocol, but seen from broken writers), floats such as {@code 1.5}, {@code 1e3}
     * and {@code 12}; anything else ({@code lots}, {@code 12x}) is INVALID.
     */
    static InputValue classify(final String v) {
        if (v.isEmpty()) {
            return InputValue.invalid(v);
        }
        final char last = v.charAt(v.length() - 1);
        if (last == 'i' || last == 'u') {
            final String body = v.substring(0, v.length() - 1);
            if (INTEGER.matcher(body).matches()) {
                return InputValue.integer(body);
            }
        }
        switch (v) {
            case "t", "T", "true", "True", "TRUE" -> {
                return InputValue.bool(v, true);
            }
            case "f", "F", "false", "False", "FALSE" -> {
                return InputValue.bool(v, false);
            }
            default -> {
            }
        }
        if (NOT_FINITE.matcher(v).matches()) {
            return InputValue.number(v, Double.NaN);
        }
        if (FLOAT.matcher(v).matches()) {
            return InputValue.number(v, Double.parseDouble(v));
        }
        return InputValue.invalid(v);
    }

    /**
     * A string field under a canonical name read as the number it spells ({@code "12345"} written as a string):
     * an integer, with or without the {@code i}/{@code u} suffix, or a float, NaN or infinity. Anything else,
     * booleans included, stays the string.
     */
    static InputValue numberInString(final String text) {
        final String t = text.strip();
        final InputValue reread = INTEGER.matcher(t).matches() ? classify(t + "i") : classify(t);
        if (reread.kind() == InputValue.Kind.INVALID || reread.kind() == InputValue.Kind.BOOL) {
            return InputValue.string(text);
        }
        return reread;
    }

    private static SampleFormatException malformed(final String message) {
        return new SampleFormatException(RejectReason.MALFORMED, "not line protocol: " + message);
    }

    private static String abbreviate(final String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
