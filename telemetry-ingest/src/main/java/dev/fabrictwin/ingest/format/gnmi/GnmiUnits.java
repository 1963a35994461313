package dev.fabrictwin.ingest.format.gnmi;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
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

    private GnmiUnits() {
    }

    public static void parse(final InputStream in, final ParseContext context, final IngestSink sink, final String format,
                      final Converter converter) throws IOException {
        final Trees t = context.maxRecordBytes() == ParseContext.DEFAULT_MAX_RECORD_BYTES ? DEFAULT_TREES.get()
            : Trees.of(mapper(context.maxRecordBytes()));
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
                final JsonNode message = trees.readTree(unit.bytes());
                if (message == null || !message.isObject()) {
                    throw new SampleFormatException(RejectReason.MALFORMED, "a message must be a JSON object");
                }
                final List<Sample> samples = converter.convert(message, context, repeated);
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
     * A mapper for the default record limit, built once: building one per call cost ingest --from-topic (one parse
     * per Kafka message) most of its time (bench ingest-topic: 8.9k messages/s before).
     */
    private static final ObjectMapper DEFAULT_MAPPER = newMapper(ParseContext.DEFAULT_MAX_RECORD_BYTES);

    static ObjectMapper mapper(final int maxRecordBytes) {
        return maxRecordBytes == ParseContext.DEFAULT_MAX_RECORD_BYTES ? DEFAULT_MAPPER : newMapper(maxRecordBytes);
    }

    /** A tree reader and the listener it tells of repeated keys; cleared before each message. */
    private record Trees(RepeatedKeys repeated, ObjectReader reader) {
        static Trees of(final ObjectMapper mapper) {
            final RepeatedKeys repeated = new RepeatedKeys();
            return new Trees(repeated, KeepFirstJson.reader(mapper, repeated));
        }
    }

    /**
     * The default mapper's reader, one per thread: ingest --from-topic parses one message a call, and making the
     * reader each time was 2 % of its stream thread. A parse runs to its end on its thread, so one is never shared.
     */
    private static final ThreadLocal<Trees> DEFAULT_TREES = ThreadLocal.withInitial(() -> Trees.of(DEFAULT_MAPPER));

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
