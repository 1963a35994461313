package dev.fabrictwin.ingest.format.gnmi;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.ingest.format.SampleValidator;
import dev.fabrictwin.ingest.format.support.KeepFirstJson;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * The loop both gNMI JSON adapters share: split the stream into JSON messages ({@link JsonUnitReader}), count
 * each, parse it, convert it, validate every sample, and deliver all of its samples or one rejection with the
 * unit's raw bytes. A key a message repeats keeps its first value and is counted with its samples
 * ({@link KeepFirstJson}, {@link RepeatedKeys}), as in every format. Also the small parsers both formats need
 * (nanosecond timestamps, device addresses). Public for the other JSON-message formats ({@code telegraf-json}) that split and reject the same way.
 */
public final class GnmiUnits {

    /**
     * Turns one parsed JSON object into samples, or explains why not; tells {@code repeated} of each key a sample
     * repeats beyond what the JSON itself repeats (the same leaf in two updates).
     */
    @FunctionalInterface
    public interface Converter {
        List<Sample> convert(JsonNode message, ParseContext context, RepeatedKeys repeated) throws SampleFormatException;
    }

    /**
     * A cheaper way to the same samples for the common shape of a format's messages, read straight off the bytes
     * with a streaming parser: null (or any exception) means "not that shape", and the message goes through the
     * tree and {@link Converter}, which also gives every rejection its reason. The tree cost ingest --from-topic
     * (one gnmic event message a Kafka message) more than half of its stream thread (docs/performance.md).
     */
    @FunctionalInterface
    interface FastConverter {
        List<Sample> tryConvert(JsonParser parser, ParseContext context, RepeatedKeys repeated)
            throws IOException, SampleFormatException;
    }

    private GnmiUnits() {
    }

    public static void parse(final InputStream in, final ParseContext context, final IngestSink sink, final String format,
                      final Converter converter) throws IOException {
        parse(in, context, sink, format, converter, null);
    }

    /** As {@link #parse(InputStream, ParseContext, IngestSink, String, Converter)}, trying {@code fast} first (may be null). */
    static void parse(final InputStream in, final ParseContext context, final IngestSink sink, final String format,
                      final Converter converter, final FastConverter fast) throws IOException {
        final Trees t = trees(context.maxRecordBytes());
        final RepeatedKeys repeated = t.repeated();
        final ObjectReader trees = t.reader();
        final JsonUnitReader reader = new JsonUnitReader(in, context.maxRecordBytes());
        JsonUnitReader.Unit unit;
        while ((unit = reader.next()) != null) {
            repeated.clear();
            sink.record();
            final String location = "line " + unit.line();
            if (unit.oversized()) {
                sink.reject(new Rejection(unit.bytes(), RejectReason.OVERSIZED, "message longer than "
                    + context.maxRecordBytes() + " bytes (kept the first " + unit.bytes().length + ")", format, location));
                continue;
            }
            if (unit.kind() != JsonUnitReader.Kind.OBJECT) {
                sink.reject(new Rejection(unit.bytes(), RejectReason.MALFORMED, unit.problem(), format, location));
                continue;
            }
            try {
                List<Sample> samples = fast == null ? null : tryFast(fast, unit.bytes(), context, repeated);
                if (samples == null) {
                    repeated.clear(); // what the fast path heard before it gave up is heard again from the tree
                    final JsonNode message = trees.readTree(unit.bytes());
                    if (message == null || !message.isObject()) {
                        throw new SampleFormatException(RejectReason.MALFORMED, "a message must be a JSON object");
                    }
                    samples = converter.convert(message, context, repeated);
                }
                for (final Sample s : samples) {
                    SampleValidator.validate(s, context);
                }
                samples.forEach(sink::sample);
                repeated.report(sink);
            } catch (SampleFormatException e) {
                sink.reject(new Rejection(unit.bytes(), e.reason(), e.getMessage(), format, location));
            } catch (JsonProcessingException e) {
                sink.reject(new Rejection(unit.bytes(), RejectReason.MALFORMED, "not valid JSON: "
                    + firstLine(e.getOriginalMessage()), format, location));
            } catch (IOException | RuntimeException e) {
                // reading from a byte array cannot fail for I/O reasons; anything here is unreadable input
                sink.reject(new Rejection(unit.bytes(), RejectReason.MALFORMED, "unreadable message: " + e, format, location));
            }
        }
    }

    /**
     * One message that is exactly one JSON object (a Kafka record's value), its samples by {@code fast}, without
     * splitting it into units first: that scan and copy was a fifth of ingest --from-topic's stream thread once the
     * tree was gone. True when done; false, having told {@code sink} nothing, for anything else (the message does
     * not start with its object, is longer than a record may be, holds more than the object, the fast path declined
     * or a sample is invalid), which the caller then reads as a stream.
     */
    static boolean parseWhole(final byte[] message, final ParseContext context, final IngestSink sink,
                              final FastConverter fast) {
        if (message.length == 0 || message[0] != '{' || message.length > context.maxRecordBytes()) {
            return false; // leading space or a byte order mark: the unit reader counts lines and skips them
        }
        final RepeatedKeys repeated = new RepeatedKeys();
        final List<Sample> samples = tryFast(fast, message, context, repeated);
        if (samples == null) {
            return false;
        }
        try {
            for (final Sample s : samples) {
                SampleValidator.validate(s, context);
            }
        } catch (SampleFormatException e) {
            return false; // the unit reader's path words the rejection
        }
        sink.record();
        samples.forEach(sink::sample);
        repeated.report(sink);
        return true;
    }

    /** The fast path's samples, or null when it declined or failed (the tree path then decides, reasons included). */
    private static List<Sample> tryFast(final FastConverter fast, final byte[] json, final ParseContext context,
                                        final RepeatedKeys repeated) {
        try (JsonParser p = STREAMING.createParser(json)) {
            return fast.tryConvert(p, context, repeated);
        } catch (IOException | RuntimeException e) { // SampleFormatException included
            return null;
        }
    }

    /**
     * A mapper for the default record limit, built once: building one per call cost ingest --from-topic (one parse
     * per Kafka message) most of its time (bench ingest-topic: 8.9k messages/s before).
     */
    private static final ObjectMapper DEFAULT_MAPPER = newMapper(ParseContext.DEFAULT_MAX_RECORD_BYTES);
    /** The fast path's parsers: its limits never matter, since anything it cannot read goes to the tree path. */
    private static final JsonFactory STREAMING = DEFAULT_MAPPER.getFactory();

    static ObjectMapper mapper(final int maxRecordBytes) {
        return maxRecordBytes == ParseContext.DEFAULT_MAX_RECORD_BYTES ? DEFAULT_MAPPER : newMapper(maxRecordBytes);
    }

    /** A tree reader for a record limit and the listener it tells of repeated keys; cleared before each message. */
    private record Trees(int maxRecordBytes, RepeatedKeys repeated, ObjectReader reader) {
        static Trees of(final int maxRecordBytes) {
            final RepeatedKeys repeated = new RepeatedKeys();
            return new Trees(maxRecordBytes, repeated, KeepFirstJson.reader(mapper(maxRecordBytes), repeated));
        }
    }

    /**
     * The tree reader of the limit last used on this thread (a run has one): ingest --from-topic parses one message a
     * call, and making the reader each time was 2 % of its stream thread (a mapper each time, with another limit than
     * the default, most of it). A parse runs to its end on its thread, so one is never shared.
     */
    private static final ThreadLocal<Trees> TREES = ThreadLocal.withInitial(
        () -> Trees.of(ParseContext.DEFAULT_MAX_RECORD_BYTES));

    private static Trees trees(final int maxRecordBytes) {
        Trees t = TREES.get();
        if (t.maxRecordBytes() != maxRecordBytes) {
            t = Trees.of(maxRecordBytes);
            TREES.set(t);
        }
        return t;
    }

    private static ObjectMapper newMapper(final int maxRecordBytes) {
        final JsonFactory factory = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).maxNumberLength(1000)
                // names as long as the message: a long one is NAME_TOO_LONG by the validator, not Jackson's complaint
                .maxStringLength(Math.max(1000, maxRecordBytes)).maxNameLength(Math.max(1000, maxRecordBytes)).build())
            .build();
        return new ObjectMapper(factory);
    }

    /**
     * gNMI timestamps are nanoseconds since the epoch, as a JSON number (gnmic) or a decimal string (protobuf
     * JSON's int64); returns epoch milliseconds, rounded down.
     */
    static long nanosToMillis(final JsonNode ts) throws SampleFormatException {
        if (ts == null || ts.isNull() || ts.isMissingNode()) {
            throw new SampleFormatException(RejectReason.MISSING_TIMESTAMP, "missing \"timestamp\" (epoch nanoseconds)");
        }
        final String text = ts.isIntegralNumber() || ts.isTextual() ? ts.asText().strip() : null;
        if (text == null || !LeafValues.isInteger(text) || text.charAt(0) == '+') {
            throw new SampleFormatException(RejectReason.MALFORMED, "\"timestamp\" must be integer epoch nanoseconds, was "
                + abbreviate(ts.toString()));
        }
        return nanosToMillis(text);
    }

    /** As {@link #nanosToMillis(JsonNode)} for the stripped text of an integer without a '+' sign. */
    static long nanosToMillis(final String text) throws SampleFormatException {
        final long nanos;
        try {
            nanos = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE, "\"timestamp\" is out of range: " + abbreviate(text));
        }
        final long millis = Math.floorDiv(nanos, 1_000_000L);
        if (millis <= 0) {
            throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE, "\"timestamp\" " + nanos
                + " ns is not after the epoch");
        }
        return millis;
    }

    /**
     * The device a gNMI source address names: {@code 172.23.23.2:57400} → {@code 172.23.23.2},
     * {@code [2001:db8::1]:57400} → {@code 2001:db8::1}; names and bare IPv6 addresses are kept. Null if blank.
     */
    static String device(final String source) {
        if (source == null || source.isBlank()) {
            return null;
        }
        final String s = source.strip();
        if (s.startsWith("[")) {
            final int close = s.indexOf(']');
            return close > 1 ? s.substring(1, close) : null;
        }
        final int colon = s.indexOf(':');
        if (colon >= 0 && colon == s.lastIndexOf(':')) {
            final String host = s.substring(0, colon);
            return host.isBlank() ? null : host;
        }
        return s;
    }

    /** The device from the data if it names one, else the one given on the command line (may be null). */
    static String device(final String fromData, final ParseContext context) {
        final String d = device(fromData);
        return d != null ? d : context.device();
    }

    static String text(final JsonNode node) {
        return node != null && node.isValueNode() && !node.isNull() ? node.asText() : null;
    }

    static String abbreviate(final String s) {
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }

    private static String firstLine(final String s) {
        if (s == null) {
            return "";
        }
        final int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
