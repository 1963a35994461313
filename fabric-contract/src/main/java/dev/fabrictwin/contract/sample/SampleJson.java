package dev.fabrictwin.contract.sample;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;

import dev.fabrictwin.twin.telemetry.FrozenMap;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * Streaming JSON codec of the canonical sample: one object per line in files and on
 * {@code telemetry.samples}. Reading validates as it goes and reports the first problem as a
 * {@link SampleFormatException}; it never throws anything else on bad input.
 *
 * <p>Names longer than {@link SampleNames#MAX_LENGTH} are NAME_TOO_LONG, with the field and its length. A key
 * the sample repeats ({@code "rx_bytes"} twice in {@code counters}, {@code "ts"} twice) keeps its first value: the
 * repeat is skipped unread and its name handed to the reader's {@code repeatedKeys} (ingest counts and names it,
 * as every ingest format does: docs/ingest.md). JSON leaves repeated names to the reader (RFC 8259 4); the first
 * is the one the line-oriented formats, whose tools do print a name twice, have to keep.
 */
public final class SampleJson {

    private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    /**
     * Longest name or text the reader materializes: far above {@link SampleNames#MAX_LENGTH}, so that a long name
     * is refused as NAME_TOO_LONG with its real length rather than by Jackson's own limit; at the ingest record limit.
     */
    private static final int MAX_TEXT = 1 << 20;
    private static final Consumer<String> IGNORE = key -> { };
    private static final JsonFactory FACTORY = JsonFactory.builder()
        .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER) // gauges: ~3x faster than JDK
        .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
        .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(8).maxNumberLength(40)
            .maxStringLength(MAX_TEXT).maxNameLength(MAX_TEXT).build())
        .build();

    private SampleJson() {
    }

    public static Sample read(final byte[] json) throws SampleFormatException {
        return read(json, 0, json.length, IGNORE);
    }

    /** Reads one sample from {@code json[off, off+len)}; the common shape takes a fast path (see CanonicalFastPath). */
    public static Sample read(final byte[] json, final int off, final int len) throws SampleFormatException {
        return read(json, off, len, IGNORE);
    }

    /**
     * As {@link #read(byte[], int, int)}, telling {@code repeatedKeys} each key the sample repeats (its first value
     * is kept, the repeat skipped unread).
     */
    public static Sample read(final byte[] json, final int off, final int len, final Consumer<String> repeatedKeys)
            throws SampleFormatException {
        final Sample fast = CanonicalFastPath.tryParse(json, off, len);
        if (fast != null) {
            return fast;
        }
        return readWithJackson(json, off, len, repeatedKeys);
    }

    /** The full parser: any valid JSON layout, and the precise reason for anything invalid. */
    static Sample readWithJackson(final byte[] json, final int off, final int len) throws SampleFormatException {
        return readWithJackson(json, off, len, IGNORE);
    }

    private static Sample readWithJackson(final byte[] json, final int off, final int len, final Consumer<String> repeatedKeys)
            throws SampleFormatException {
        try (JsonParser p = FACTORY.createParser(json, off, len)) {
            return read(p, repeatedKeys);
        } catch (IOException e) {
            throw new SampleFormatException(RejectReason.MALFORMED, "not valid JSON: " + firstLine(e.getMessage()));
        }
    }

    public static Sample read(final String json) throws SampleFormatException {
        try (JsonParser p = FACTORY.createParser(json)) {
            return read(p, IGNORE);
        } catch (IOException e) {
            throw new SampleFormatException(RejectReason.MALFORMED, "not valid JSON: " + firstLine(e.getMessage()));
        }
    }

    private static Sample read(final JsonParser p, final Consumer<String> repeatedKeys) throws IOException, SampleFormatException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw new SampleFormatException(RejectReason.MALFORMED, "a sample must be a JSON object");
        }
        long ts = Long.MIN_VALUE;
        String device = null;
        String port = null;
        String source = "";
        Map<String, Long> counters = null;
        Map<String, Double> gauges = FrozenMap.copyOf(Map.of());
        int seen = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            final String field = p.currentName();
            final JsonToken t = p.nextToken();
            final int bit = switch (field) {
                case "ts" -> 1;
                case "device" -> 2;
                case "port" -> 4;
                case "source" -> 8;
                case "counters" -> 16;
                case "gauges" -> 32;
                default -> 0;
            };
            if (bit == 0 || (seen & bit) != 0) {
                if (bit != 0) {
                    repeatedKeys.accept(field); // the first one stands
                }
                p.skipChildren(); // forward compatible: unknown top-level fields are ignored
                continue;
            }
            seen |= bit;
            switch (field) {
                case "ts" -> ts = timestamp(p, t);
                case "device" -> device = text(p, t, "device");
                case "port" -> port = text(p, t, "port");
                case "source" -> source = text(p, t, "source");
                case "counters" -> counters = counters(p, t, repeatedKeys);
                default -> gauges = gauges(p, t, repeatedKeys);
            }
        }
        if (p.nextToken() != null) {
            throw new SampleFormatException(RejectReason.MALFORMED, "trailing data after the sample object");
        }
        if (ts == Long.MIN_VALUE) {
            throw new SampleFormatException(RejectReason.MISSING_TIMESTAMP, "missing \"ts\" (epoch milliseconds)");
        }
        if (device == null || device.isBlank()) {
            throw new SampleFormatException(RejectReason.MISSING_DEVICE, "missing \"device\"");
        }
        if (port == null || port.isBlank()) {
            throw new SampleFormatException(RejectReason.MISSING_PORT, "missing \"port\"");
        }
        if (counters == null) {
            counters = FrozenMap.copyOf(Map.of());
        }
        if (ts <= 0) {
            throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE, "\"ts\" must be positive epoch ms, was " + ts);
        }
        return new Sample(ts, device, port, source, counters, gauges);
    }

    private static long timestamp(final JsonParser p, final JsonToken t) throws IOException, SampleFormatException {
        if (t != JsonToken.VALUE_NUMBER_INT) {
            throw new SampleFormatException(t == JsonToken.VALUE_NUMBER_FLOAT ? RejectReason.NON_NUMERIC : RejectReason.MALFORMED,
                "\"ts\" must be an integer epoch-ms timestamp");
        }
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE, "\"ts\" is out of range");
        }
        return p.getLongValue();
    }

    private static String text(final JsonParser p, final JsonToken t, final String field) throws IOException, SampleFormatException {
        if (t != JsonToken.VALUE_STRING) {
            throw new SampleFormatException(field.equals("device") ? RejectReason.MISSING_DEVICE
                : field.equals("port") ? RejectReason.MISSING_PORT : RejectReason.MALFORMED, "\"" + field + "\" must be a string");
        }
        final String text;
        try {
            text = p.getText();
        } catch (StreamConstraintsException e) {
            throw SampleNames.tooLong(field, MAX_TEXT);
        }
        SampleNames.check(field, text);
        return text;
    }

    /** The next token of a counters or gauges object: a name within {@link SampleNames#MAX_LENGTH}, or its end. */
    private static JsonToken nextName(final JsonParser p, final String field) throws IOException, SampleFormatException {
        final JsonToken t;
        try {
            t = p.nextToken();
        } catch (StreamConstraintsException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("Name length")) {
                throw SampleNames.tooLong(field, MAX_TEXT);
            }
            throw e;
        }
        if (t == JsonToken.FIELD_NAME) {
            SampleNames.check(field, p.currentName());
        }
        return t;
    }

    private static Map<String, Long> counters(final JsonParser p, final JsonToken t, final Consumer<String> repeatedKeys)
            throws IOException, SampleFormatException {
        return object(p, t, "counters", 24, repeatedKeys, SampleJson::counterValue);
    }

    /** One value of a sample's object, read at its token, or the reason it is not one. */
    @FunctionalInterface
    private interface Value<V> {
        V read(JsonParser p, JsonToken v, String name) throws IOException, SampleFormatException;
    }

    /** The {@code counters} or {@code gauges} object; a repeated key keeps its first value and is reported. */
    private static <V> Map<String, V> object(final JsonParser p, final JsonToken t, final String field, final int capacity,
                                             final Consumer<String> repeatedKeys, final Value<V> value)
            throws IOException, SampleFormatException {
        if (t != JsonToken.START_OBJECT) {
            throw new SampleFormatException(RejectReason.MALFORMED, "\"" + field + "\" must be an object");
        }
        final String nameKind = field.equals("counters") ? "counter name" : "gauge name";
        final FrozenMap.Builder<V> out = new FrozenMap.Builder<>(capacity);
        while (nextName(p, nameKind) == JsonToken.FIELD_NAME) {
            final String name = p.currentName();
            final JsonToken v = p.nextToken();
            if (out.has(name)) {
                repeatedKeys.accept(name);
                p.skipChildren();
                continue;
            }
            out.put(name, value.read(p, v, name));
        }
        return out.build();
    }

    /** An unsigned 64-bit counter from a JSON integer or a decimal string (gNMI sends uint64 as strings). */
    static long counterValue(final JsonParser p, final JsonToken v, final String name) throws IOException, SampleFormatException {
        if (v == JsonToken.VALUE_NUMBER_INT) {
            if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                return unsigned(p.getBigIntegerValue(), name);
            }
            final long l = p.getLongValue();
            if (l < 0) {
                throw new SampleFormatException(RejectReason.NEGATIVE_COUNTER, "counter " + name + " is negative: " + l);
            }
            return l;
        }
        if (v == JsonToken.VALUE_STRING) {
            return parseUnsigned(p.getText(), name);
        }
        if (v == JsonToken.VALUE_NUMBER_FLOAT) {
            final double d = p.getDoubleValue();
            if (d < 0) {
                throw new SampleFormatException(RejectReason.NEGATIVE_COUNTER, "counter " + name + " is negative: " + d);
            }
            throw new SampleFormatException(RejectReason.NON_NUMERIC, "counter " + name + " is not an integer: " + p.getText());
        }
        throw new SampleFormatException(RejectReason.NON_NUMERIC, "counter " + name + " is not a number");
    }

    /** Parses a decimal unsigned 64-bit counter; rejects signs, fractions, text and overflow with the reason. */
    public static long parseUnsigned(final String text, final String name) throws SampleFormatException {
        final String s = text.trim();
        if (s.startsWith("-")) {
            throw new SampleFormatException(RejectReason.NEGATIVE_COUNTER, "counter " + name + " is negative: " + cut(s));
        }
        if (s.length() <= 18 && isAsciiDigits(s)) {
            return Long.parseLong(s); // below 10^18, so within a long: the common case without a BigInteger per value
        }
        // ASCII digits only: BigInteger would also take other scripts' digits (fullwidth '１２３' as 123)
        if (s.length() > 20 || !isAsciiDigits(s)) {
            throw new SampleFormatException(RejectReason.NON_NUMERIC, "counter " + name + " is not an unsigned integer: '"
                + cut(s) + "'");
        }
        return unsigned(new BigInteger(s), name);
    }

    /** A rejected value as its error shows it: its first 40 characters. */
    private static String cut(final String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }

    private static boolean isAsciiDigits(final String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static long unsigned(final BigInteger value, final String name) throws SampleFormatException {
        if (value.signum() < 0) {
            throw new SampleFormatException(RejectReason.NEGATIVE_COUNTER, "counter " + name + " is negative");
        }
        if (value.compareTo(UINT64_MAX) > 0) {
            throw new SampleFormatException(RejectReason.NON_NUMERIC, "counter " + name + " exceeds 64 bits");
        }
        return value.longValue();
    }

    private static Map<String, Double> gauges(final JsonParser p, final JsonToken t, final Consumer<String> repeatedKeys)
            throws IOException, SampleFormatException {
        return object(p, t, "gauges", 8, repeatedKeys, SampleJson::gaugeValue);
    }

    /** A finite gauge from a JSON number or a numeric string; -0.0 is 0 (the writer prints both as 0). */
    private static Double gaugeValue(final JsonParser p, final JsonToken v, final String name)
            throws IOException, SampleFormatException {
        final double d;
        if (v == JsonToken.VALUE_NUMBER_INT || v == JsonToken.VALUE_NUMBER_FLOAT) {
            d = p.getDoubleValue();
        } else if (v == JsonToken.VALUE_STRING) {
            try {
                d = Double.parseDouble(p.getText());
            } catch (NumberFormatException e) {
                throw new SampleFormatException(RejectReason.NON_NUMERIC, "gauge " + name + " is not a number");
            }
        } else {
            throw new SampleFormatException(RejectReason.NON_NUMERIC, "gauge " + name + " is not a number");
        }
        if (!Double.isFinite(d)) {
            throw new SampleFormatException(RejectReason.NOT_FINITE, "gauge " + name + " is not finite");
        }
        return d == 0 ? 0.0 : d;
    }

    /** Whether a record is a JSON array (of samples, say) rather than one sample object: not a canonical sample. */
    public static boolean isBatch(final byte[] json) {
        for (final byte b : json) {
            if (b == '[') {
                return true;
            }
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return false;
            }
        }
        return false;
    }

    /** One JSON line (no newline). */
    public static String write(final Sample s) {
        final StringWriter w = new StringWriter(256);
        try (JsonGenerator g = FACTORY.createGenerator(w)) {
            write(s, g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    public static byte[] writeBytes(final Sample s) {
        return write(s).getBytes(StandardCharsets.UTF_8);
    }

    private static void write(final Sample s, final JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeNumberField("ts", s.ts());
        g.writeStringField("device", s.device());
        g.writeStringField("port", s.port());
        g.writeStringField("source", s.source());
        g.writeObjectFieldStart("counters");
        for (final var e : s.counters().entrySet()) {
            g.writeFieldName(e.getKey());
            final long v = e.getValue();
            if (v >= 0) {
                g.writeNumber(v);
            } else {
                g.writeNumber(new BigInteger(Long.toUnsignedString(v)));
            }
        }
        g.writeEndObject();
        g.writeObjectFieldStart("gauges");
        for (final var e : s.gauges().entrySet()) {
            g.writeFieldName(e.getKey());
            final double d = e.getValue();
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                g.writeNumber((long) d);
            } else {
                g.writeNumber(d);
            }
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private static String firstLine(final String s) {
        if (s == null) {
            return "";
        }
        final int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
