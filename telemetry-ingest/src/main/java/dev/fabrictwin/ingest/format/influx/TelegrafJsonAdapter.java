package dev.fabrictwin.ingest.format.influx;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.gnmi.GnmiUnits;
import dev.fabrictwin.ingest.format.support.InputValue;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * {@code --format telegraf-json}: Telegraf's JSON serializer ({@code data_format = "json"}), one metric
 * {@code {"fields":{...},"name":"net","tags":{...},"timestamp":N}} or a batch {@code {"metrics":[...]}}.
 *
 * <p><b>Input unit</b>: one JSON message (a metric, or a batch of them, as one Kafka record carries it); split,
 * counted and rejected like gnmic's messages ({@link GnmiUnits}). A batch becomes all its samples or one rejection.
 *
 * <p><b>Mapping</b>: a metric is a line-protocol point in other clothes (measurement = {@code name}), so device,
 * port and field names go through {@link InfluxLineAdapter}'s rules and {@code mappings/influx.tsv} unchanged,
 * queue and priority tags included; metrics of one port and time in a batch make one sample ({@link PortSampleMerger}).
 *
 * <p><b>Timestamp</b>: Telegraf writes it in {@code json_timestamp_units} (default 1s), which the message does not
 * say; the unit is told by magnitude (below 10^11 seconds, 10^14 milliseconds, 10^17 microseconds, else
 * nanoseconds), which is unambiguous for any date from 1973 to 5138. A string is read as RFC 3339
 * ({@code json_timestamp_format}).
 */
public final class TelegrafJsonAdapter implements FormatAdapter {

    public static final String FORMAT = "telegraf-json";

    private final InfluxLineAdapter influx = new InfluxLineAdapter();

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public void parse(final InputStream in, final ParseContext context, final IngestSink sink) throws IOException {
        GnmiUnits.parse(in, context, sink, FORMAT, this::convert);
    }

    private List<Sample> convert(final JsonNode message, final ParseContext context, final RepeatedKeys repeated)
            throws SampleFormatException {
        final JsonNode batch = message.get("metrics");
        if (batch != null && !batch.isArray()) {
            throw new SampleFormatException(RejectReason.MALFORMED, "\"metrics\" must be an array of metrics");
        }
        final List<Sample> samples = new ArrayList<>();
        final PortSampleMerger merger = new PortSampleMerger(samples::add);
        for (final JsonNode m : batch == null ? List.of(message) : batch) {
            if (!m.isObject()) {
                throw new SampleFormatException(RejectReason.MALFORMED, "a batch element must be a metric object");
            }
            merger.add(metric(m, context), InfluxLineAdapter.hasQueueOrPriority(tagsOf(m)));
        }
        merger.flush();
        if (samples.isEmpty()) {
            throw new SampleFormatException(RejectReason.NO_COUNTERS, "an empty batch (\"metrics\": [])");
        }
        return samples;
    }

    private Sample metric(final JsonNode m, final ParseContext context) throws SampleFormatException {
        final JsonNode nameNode = m.get("name");
        final String name = nameNode != null && nameNode.isTextual() ? nameNode.textValue() : null;
        final JsonNode fields = m.get("fields");
        if (name == null || fields == null || !fields.isObject()) {
            throw new SampleFormatException(RejectReason.MALFORMED,
                "not a Telegraf JSON metric: needs \"name\" and a \"fields\" object (or a \"metrics\" batch)");
        }
        final Map<String, String> tags = tagsOf(m);
        final Map<String, InputValue> values = new LinkedHashMap<>();
        final Iterator<Map.Entry<String, JsonNode>> it = fields.fields();
        while (it.hasNext()) {
            final Map.Entry<String, JsonNode> f = it.next();
            values.put(f.getKey(), value(f.getValue()));
        }
        final Sample s = influx.sample(new LineProtocol.Point(name, tags, values, timestampNs(m.get("timestamp"))), context);
        return new Sample(s.ts(), s.device(), s.port(), FORMAT, s.counters(), s.gauges());
    }

    private static Map<String, String> tagsOf(final JsonNode m) throws SampleFormatException {
        final Map<String, String> tags = new LinkedHashMap<>();
        final JsonNode tagNode = m.get("tags");
        if (tagNode != null && !tagNode.isNull()) {
            if (!tagNode.isObject()) {
                throw new SampleFormatException(RejectReason.MALFORMED, "\"tags\" must be an object");
            }
            tagNode.fields().forEachRemaining(t -> tags.put(t.getKey(), t.getValue().asText()));
        }
        return tags;
    }

    private static InputValue value(final JsonNode v) {
        if (v.isIntegralNumber()) {
            return InputValue.integer(v.asText());
        }
        if (v.isNumber()) {
            return InputValue.number(v.asText(), v.doubleValue());
        }
        if (v.isBoolean()) {
            return InputValue.bool(v.asText(), v.booleanValue());
        }
        if (v.isTextual()) {
            return InputValue.string(v.textValue());
        }
        return InputValue.invalid(v.toString());
    }

    /** Epoch nanoseconds from a number in an unknown unit (told by magnitude) or an RFC 3339 string; null if absent. */
    static Long timestampNs(final JsonNode ts) throws SampleFormatException {
        if (ts == null || ts.isNull()) {
            return null;
        }
        if (ts.isTextual()) {
            try {
                final Instant t = OffsetDateTime.parse(ts.textValue().strip()).toInstant();
                return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
            } catch (DateTimeParseException | ArithmeticException e) {
                throw new SampleFormatException(RejectReason.MALFORMED, "\"timestamp\" is neither a number nor RFC 3339: '"
                    + ts.textValue() + "'");
            }
        }
        if (!ts.isNumber()) {
            throw new SampleFormatException(RejectReason.MALFORMED, "\"timestamp\" must be a number, was " + ts);
        }
        final BigDecimal t = ts.decimalValue();
        if (t.signum() <= 0) {
            throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE, "\"timestamp\" " + t + " is not after the epoch");
        }
        final int scaleToNanos = t.compareTo(BigDecimal.valueOf(100_000_000_000L)) < 0 ? 9
            : t.compareTo(BigDecimal.valueOf(100_000_000_000_000L)) < 0 ? 6
            : t.compareTo(BigDecimal.valueOf(100_000_000_000_000_000L)) < 0 ? 3 : 0;
        try {
            return t.movePointRight(scaleToNanos).toBigInteger().longValueExact();
        } catch (ArithmeticException e) {
            throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE, "\"timestamp\" " + t + " is out of range");
        }
    }
}
