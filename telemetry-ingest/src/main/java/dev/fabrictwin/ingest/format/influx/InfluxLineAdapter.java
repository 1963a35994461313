package dev.fabrictwin.ingest.format.influx;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.ingest.format.CounterMapping;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.LineReader;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.ingest.format.SampleValidator;
import dev.fabrictwin.ingest.format.support.InputValue;
import dev.fabrictwin.ingest.format.support.ListKeys;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;
import dev.fabrictwin.ingest.format.support.SampleValues;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * {@code --format influx}: InfluxDB line protocol as Telegraf writes it, in particular its ethtool, infiniband,
 * net and gnmi input plugins.
 *
 * <p><b>Input unit</b>: one line (one {@code records in}); consecutive lines of one device, port and timestamp make
 * one sample (see {@link PortSampleMerger}). A bad line is rejected with its reason and raw bytes and reading goes on;
 * blank lines and {@code #} comments are skipped and not counted.
 *
 * <p><b>Queues and priorities</b>: a queue tag ({@code queue}, {@code queue_number}, {@code traffic_class}, ...)
 * puts the line's values under {@code <name>.q<N>}; a priority tag puts per-priority counters under
 * {@code rx_pfc_pause.<p>} and other values under {@code <name>.q<p>} ({@link SampleValues#put(String, InputValue,
 * String, String)}). Per-queue field names ({@code rx_queue_3_bytes}) map to {@code rx_bytes.q3} in the mapping file.
 *
 * <p><b>Device</b>: tag {@code source} (the gnmi plugin's device address; {@code :port} stripped), else
 * {@code host} (the machine Telegraf runs on, which is the device for ethtool/infiniband/net), else
 * {@code agent_host} (SNMP), else {@code --device}. The infiniband plugin's {@code device} tag names the HCA,
 * not the machine, so it is part of the port.
 *
 * <p><b>Port</b>: tag {@code interface} (ethtool, net), else {@code interface_name}, else {@code name} (gnmi
 * list key), else {@code device}+{@code port} joined by "/" (infiniband: {@code mlx5_0} + {@code 1} →
 * {@code mlx5_0/1}), else tag {@code port}, else a string field {@code name} (the gnmi plugin writes the
 * interface's name leaf as a field when the path has no key). Quotes around a name (Ciena's {@code "1"}) are
 * removed. A line with none is MISSING_PORT.
 *
 * <p><b>Repeated keys</b>: a tag or field repeated in a line keeps its first value; the repeat is counted and named
 * ({@link RepeatedKeys}).
 *
 * <p><b>Timestamp</b>: nanoseconds (Telegraf's default precision) → epoch ms, rounded down; a line without one
 * takes the context's default timestamp.
 *
 * <p>Field names go through {@code mappings/influx.tsv}; see {@link SampleValues} for how integer, float,
 * string and boolean fields become counters, gauges or ignored state. A string field under a canonical name is
 * read again with line protocol's number syntax ({@link LineProtocol#numberInString}), so {@code "12"} and
 * {@code "12i"} are both 12.
 */
public final class InfluxLineAdapter implements FormatAdapter {

    public static final String FORMAT = "influx";

    private static final List<String> DEVICE_TAGS = List.of("source", "host", "agent_host");
    private static final List<String> PORT_TAGS = List.of("interface", "interface_name", "name");
    /** Tags that name a line's queue or traffic class (Telegraf's gnmi plugin turns a Junos queue-number key into one). */
    private static final List<String> QUEUE_TAGS = List.of("queue", "queue_number", "queue-number", "queue_id", "queue_name",
        "qid", "traffic_class", "tc");
    private static final List<String> PRIORITY_TAGS = List.of("priority", "prio", "pfc_priority");

    private final CounterMapping mapping = CounterMapping.forFormat(FORMAT);

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public void parse(final InputStream in, final ParseContext context, final IngestSink sink) throws IOException {
        final LineReader lines = new LineReader(in, context.maxRecordBytes());
        final PortSampleMerger pending = new PortSampleMerger(sink::sample);
        LineReader.Line line;
        while ((line = lines.next()) != null) {
            if (line.blank() || isComment(line.bytes())) {
                continue;
            }
            sink.record();
            if (line.truncated()) {
                sink.reject(line.oversized(FORMAT));
                continue;
            }
            try {
                final LineProtocol.Point p = LineProtocol.parse(line.text());
                final Sample s = sample(p, context);
                SampleValidator.validate(s, context);
                pending.add(s, hasQueueOrPriority(p.tags()));
                RepeatedKeys.report(sink, p.repeated()); // the line's sample goes out (merged): its repeats are counted
            } catch (SampleFormatException e) {
                sink.reject(new Rejection(line.bytes(), e.reason(), e.getMessage(), FORMAT, "line " + line.number()));
            } catch (RuntimeException e) {
                sink.reject(new Rejection(line.bytes(), RejectReason.MALFORMED, "unreadable line: " + e, FORMAT,
                    "line " + line.number()));
            }
        }
        pending.flush();
    }

    /** Whether a point's tags put it on one queue or priority (its values then carry {@code .q<N>}). */
    static boolean hasQueueOrPriority(final Map<String, String> tags) {
        return queueTag(tags) != null || tag(tags, PRIORITY_TAGS) != null;
    }

    private static String queueTag(final Map<String, String> tags) {
        return tag(tags, QUEUE_TAGS);
    }

    private static String tag(final Map<String, String> tags, final List<String> names) {
        for (final String t : names) {
            final String v = tags.get(t);
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        return null;
    }

    private static boolean isComment(final byte[] bytes) {
        for (final byte b : bytes) {
            if (b != ' ' && b != '\t') {
                return b == '#';
            }
        }
        return false;
    }

    /** One point's sample; package-private so Telegraf's JSON form maps measurement, tags and fields the same way. */
    Sample sample(final LineProtocol.Point p, final ParseContext context) throws SampleFormatException {
        final String device = device(p.tags(), context);
        if (device == null) {
            throw new SampleFormatException(RejectReason.MISSING_DEVICE, "no source/host tag names the device of "
                + p.measurement() + ", and no --device was given");
        }
        final String port = port(p);
        if (port == null) {
            throw new SampleFormatException(RejectReason.MISSING_PORT, "no interface/name/device+port tag names the port of "
                + p.measurement() + " " + p.tags().keySet());
        }
        final long ts;
        if (p.timestampNs() == null) {
            ts = context.defaultTimestamp();
        } else {
            ts = Math.floorDiv(p.timestampNs(), 1_000_000L);
        }
        if (ts <= 0) {
            throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE, "timestamp " + p.timestampNs()
                + " ns is not after the epoch");
        }
        final SampleValues values = new SampleValues(mapping, "field ", LineProtocol::numberInString);
        final String queue = queueTag(p.tags());
        final String priority = tag(p.tags(), PRIORITY_TAGS);
        for (final Map.Entry<String, InputValue> f : p.fields().entrySet()) {
            values.put(f.getKey(), f.getValue(), queue, priority);
        }
        values.finish();
        return new Sample(ts, device, port, FORMAT, values.counters(), values.gauges());
    }

    private static String device(final Map<String, String> tags, final ParseContext context) {
        for (final String t : DEVICE_TAGS) {
            final String v = tags.get(t);
            if (v != null && !v.isBlank()) {
                final String d = t.equals("host") ? v.strip() : stripPort(v);
                if (d != null) {
                    return d;
                }
            }
        }
        return context.device() == null || context.device().isBlank() ? null : context.device();
    }

    private static String port(final LineProtocol.Point p) {
        final Map<String, String> tags = p.tags();
        for (final String t : PORT_TAGS) {
            final String v = tags.get(t);
            if (v != null && !ListKeys.unquote(v).isEmpty()) {
                return ListKeys.unquote(v);
            }
        }
        final String device = tags.get("device");
        final String port = tags.get("port");
        if (device != null && port != null) {
            return device + "/" + port;
        }
        if (port != null) {
            return port;
        }
        final InputValue name = p.fields().get("name");
        if (name != null && name.kind() == InputValue.Kind.STRING && !ListKeys.unquote(name.text()).isEmpty()) {
            return ListKeys.unquote(name.text());
        }
        return null;
    }

    /** {@code 10.0.0.1:57400} → {@code 10.0.0.1}, {@code [2001:db8::1]:57400} → {@code 2001:db8::1}; others kept. */
    private static String stripPort(final String address) {
        final String s = address.strip();
        if (s.startsWith("[")) {
            final int close = s.indexOf(']');
            return close > 1 ? s.substring(1, close) : null;
        }
        final int colon = s.indexOf(':');
        if (colon >= 0 && colon == s.lastIndexOf(':')) {
            return colon == 0 ? null : s.substring(0, colon);
        }
        return s;
    }
}
