package dev.fabrictwin.ingest.format.prometheus;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.ingest.format.CounterMapping;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.LineReader;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.ingest.format.SampleValidator;
import dev.fabrictwin.ingest.format.support.Canonical;
import dev.fabrictwin.ingest.format.support.CounterAccumulator;
import dev.fabrictwin.ingest.format.support.CounterAccumulator.Target;
import dev.fabrictwin.ingest.format.support.CounterValues;
import dev.fabrictwin.ingest.format.support.InstantValues;
import dev.fabrictwin.ingest.format.support.LineUnit;
import dev.fabrictwin.ingest.format.support.QueueDimension;
import dev.fabrictwin.ingest.format.support.RawUnit;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;
import dev.fabrictwin.twin.fabric.InfinibandNames;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * {@code --format prometheus}: Prometheus text exposition as node_exporter serves it ({@code node_network_*},
 * {@code node_ethtool_*}, {@code node_infiniband_*}), as infiniband_exporter does ({@code infiniband_switch_port_*},
 * {@code infiniband_hca_port_*} with {@code guid} and {@code port} labels: a whole fabric's nodes in one scrape), and as
 * vinted/sonic-exporter does ({@code sonic_interface_*{device}}, packets by {@code method}, errors by {@code type}).
 *
 * <ul>
 *   <li><b>Input unit</b>: one scrape — the whole input, or each part ended by an OpenMetrics {@code # EOF}
 *       line; {@link IngestSink#record()} is called once per scrape. A scrape larger than
 *       {@link ParseContext#maxRecordBytes()} is rejected whole as OVERSIZED. A malformed or bad-valued line is
 *       rejected on its own (raw bytes = that line, location {@code line N}) and the rest of the scrape still
 *       becomes samples. A series repeated for one port and time keeps its first value; the repeat is counted and
 *       named ({@link RepeatedKeys}).</li>
 *   <li><b>Device</b>: exposition names no host, so it is {@link ParseContext#device()} ({@code --device}); without
 *       one every scrape is rejected MISSING_DEVICE.</li>
 *   <li><b>Port</b>: the {@code device} label ({@code eth0}), or {@code device/port} when a {@code port} label is
 *       present (InfiniBand: {@code mlx4_0/1}). infiniband_exporter's series name their own device and need no
 *       {@code --device}: the node of the {@code guid} label, named by its {@code infiniband_switch_info} /
 *       {@code infiniband_hca_info} description as ibnetdiscover's topology names it ({@link InfinibandNames}), port
 *       {@code <hca>/<port>} or the number. Series without a {@code device} label ({@code node_cpu_*}) and
 *       series with further labels (info metrics, speed modes) are ignored, not rejected; so are the families
 *       the mapping file drops. A scrape that yields no per-port series at all is rejected NO_COUNTERS.</li>
 *   <li><b>Timestamp</b>: the sample line's explicit timestamp (ms) when it has one, else
 *       {@link ParseContext#defaultTimestamp()}. All series of one port and timestamp make one sample.</li>
 *   <li><b>Values</b>: counters are parsed exactly (BigDecimal: {@code 6.825908347e+09} stays exact, nothing is
 *       rounded through a double) and must be non-negative integers below 2^64. Counter-typed and untyped series
 *       are counters; gauges are kept only when the mapping file gives them a name (canonical gauges such as
 *       {@code speed_bps}).</li>
 * </ul>
 */
public final class PrometheusTextAdapter implements FormatAdapter {

    public static final String FORMAT = "prometheus";
    /** Why a negative {@code node_network_speed_bytes} is left out of its sample. */
    public static final String SPEED_UNKNOWN = "speed-unknown";

    /** Labels a Prometheus server adds on federation; they do not make a series a sub-entity of the port. */
    private static final Set<String> TOLERATED_LABELS = Set.of("device", "port", "instance", "job");
    private static final Set<String> IGNORED_TYPES = Set.of("histogram", "gaugehistogram", "summary", "info",
        "stateset", "created");
    /** vinted/sonic-exporter's port families, and the labels that split one of them into several counters. */
    private static final String SONIC_INTERFACE = "sonic_interface_";
    private static final Set<String> SONIC_DIMENSIONS = Set.of("method", "type");
    /** Why an HCA's rate is left out: infiniband_exporter gave it for an HCA none of whose ports has a value. */
    public static final String IB_RATE_WITHOUT_PORT = "ib-rate-without-port";
    /** infiniband_exporter's families of a node ({@code switch}/{@code hca}): its info, its ports', its rate. */
    private static final Pattern IB_SERIES = Pattern.compile("infiniband_(switch|hca)_(info|port_.+|rate_bytes_per_second)");
    private static final Pattern IB_GUID = Pattern.compile("0[xX][0-9a-fA-F]{1,16}");
    private static final Set<String> IB_LABELS = Set.of("guid", "port", "instance", "job");
    private static final String[] FAMILY_SUFFIXES = {"_total", "_count", "_sum", "_bucket", "_created"};

    private final CounterMapping mapping = CounterMapping.forFormat(FORMAT);

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public void parse(final InputStream in, final ParseContext context, final IngestSink sink) throws IOException {
        final LineReader lines = new LineReader(in, context.maxRecordBytes());
        Scrape scrape = new Scrape(context);
        boolean anyContent = false;
        LineReader.Line blankStart = null;
        LineReader.Line line;
        while ((line = lines.next()) != null) {
            final boolean eof = isEof(line);
            anyContent |= !line.blank();
            blankStart = blankStart == null && line.blank() ? line : blankStart;
            scrape.accept(line, eof);
            if (eof) {
                scrape.finish(sink);
                scrape = new Scrape(context);
            }
        }
        scrape.finish(sink);
        if (!anyContent && blankStart != null) {
            // an input of blank lines only is reported, not dropped (docs/ingest.md: nothing is dropped silently)
            sink.record();
            sink.reject(new Rejection(blankStart.bytes(), RejectReason.NO_COUNTERS, "input holds only blank lines",
                FORMAT, "line " + blankStart.number()));
        }
    }

    private static boolean isEof(final LineReader.Line line) {
        return !line.truncated() && line.bytes().length < 16 && line.text().strip().equals("# EOF");
    }

    /**
     * Samples of one port at one time. {@code node} is null for a series of the {@code --device} (node_exporter), else
     * the infiniband_exporter node's GUID name ({@code S-7cfe9003009ce5b0}) and {@code port} its port number.
     */
    private record GroupKey(String node, String port, long ts) {
    }

    private static final class Group {
        final CounterAccumulator counters = new CounterAccumulator(FORMAT);
        final Map<String, Double> gauges = new LinkedHashMap<>();
        final Map<String, String> gaugeSources = new LinkedHashMap<>();
        /** Values left out of the sample on purpose, by reason code (reported to the sink with the sample). */
        final List<String> dropped = new ArrayList<>();
        /** The series names read into this sample, and those given again (their first value stands: {@link RepeatedKeys}). */
        final Set<String> seen = new HashSet<>();
        final RepeatedKeys repeated = new RepeatedKeys();
        final RawUnit raw;

        Group(final int limit) {
            raw = new RawUnit(limit);
        }
    }

    /** One sample line, split into its parts. */
    record Series(String name, Map<String, String> labels, String value, String timestamp) {
    }

    private final class Scrape {
        private final ParseContext context;
        private final LineUnit unit;
        private final Map<String, String> types = new LinkedHashMap<>();
        private final Map<GroupKey, Group> groups = new LinkedHashMap<>();
        /** infiniband_exporter: each node's name from its info series, by GUID name. */
        private final Map<String, InfinibandNames.Name> described = new LinkedHashMap<>();
        /** infiniband_exporter: an HCA's rate (it has no port label), by {@code GroupKey(node, null, ts)}. */
        private final Map<GroupKey, Double> nodeSpeeds = new LinkedHashMap<>();
        /** Series the mapping file drops and counts ({@code -per-queue}), by reason. */
        private final List<String> droppedValues = new ArrayList<>();
        /** infiniband_exporter: an HCA's rate series given twice (the first stands), reported with the scrape's samples. */
        private final RepeatedKeys nodeRepeats = new RepeatedKeys();

        Scrape(final ParseContext context) {
            this.context = context;
            this.unit = new LineUnit(FORMAT, "scrape", "Prometheus exposition names no host: give the device (--device)",
                context);
        }

        void accept(final LineReader.Line line, final boolean eof) {
            if (line.blank()) {
                unit.addBlank(line);
                return;
            }
            unit.addLine(line);
            if (eof || unit.raw().oversized()) {
                return; // an oversized scrape is rejected whole in finish()
            }
            if (line.truncated()) {
                unit.rejectOversized(line);
                return;
            }
            final String text = line.text().strip();
            if (text.startsWith("#")) {
                comment(text);
                return;
            }
            try {
                series(parseSeries(text), line);
            } catch (SampleFormatException e) {
                unit.reject(line, e);
            }
        }

        private void comment(final String text) {
            final String[] tokens = text.substring(1).strip().split("[ \t]+", 3);
            if (tokens.length == 3 && tokens[0].equals("TYPE")) {
                types.put(tokens[1], tokens[2].strip().toLowerCase(Locale.ROOT));
            }
        }

        private String typeOf(final String name) {
            final String t = types.get(name);
            if (t != null) {
                return t;
            }
            for (final String suffix : FAMILY_SUFFIXES) {
                if (name.endsWith(suffix)) {
                    final String base = types.get(name.substring(0, name.length() - suffix.length()));
                    if (base != null) {
                        return suffix.equals("_created") ? "created" : base;
                    }
                }
            }
            return "untyped";
        }

        private void series(final Series read, final LineReader.Line line) throws SampleFormatException {
            final Series s = sonicDimension(read);
            final String guid = s.labels().get("guid");
            if (guid != null && s.name().startsWith("infiniband_")) {
                infiniband(s, line, guid);
                return;
            }
            final String device = s.labels().get("device");
            if (device == null || device.isBlank()) {
                return; // not a per-port metric (node_cpu_*, node_load1, ...): ignored
            }
            if (!TOLERATED_LABELS.containsAll(s.labels().keySet())) {
                return; // attribute series (info labels, speed modes): ignored
            }
            final String portLabel = s.labels().get("port");
            value(s, line, null, portLabel == null || portLabel.isBlank() ? device : device + "/" + portLabel);
        }

        /**
         * vinted/sonic-exporter splits a port's packets by {@code method} (ucast, broadcast, multicast) and its errors by
         * {@code type} (error, discard, drop, pause): each such series is a counter of the port, named as the exposition
         * spells it ({@code sonic_interface_receive_errs_total{type="discard"}}) for the mapping file to name. Other
         * labels (its packet sizes, optics units, info) stay attributes.
         */
        private Series sonicDimension(final Series s) {
            if (!s.name().startsWith(SONIC_INTERFACE)) {
                return s;
            }
            final List<String> dimensions = s.labels().keySet().stream().filter(SONIC_DIMENSIONS::contains).toList();
            if (dimensions.size() != 1) {
                return s;
            }
            final Map<String, String> rest = new LinkedHashMap<>(s.labels());
            final String value = rest.remove(dimensions.get(0));
            final String name = s.name() + "{" + dimensions.get(0) + "=\"" + value + "\"}";
            types.putIfAbsent(name, typeOf(s.name()));
            return new Series(name, rest, s.value(), s.timestamp());
        }

        /**
         * infiniband_exporter: {@code infiniband_switch_info{guid,switch}} / {@code infiniband_hca_info{guid,hca}} name
         * the nodes, {@code infiniband_switch_port_*} / {@code infiniband_hca_port_*{guid,port}} are their ports' values,
         * {@code infiniband_hca_rate_bytes_per_second{guid}} the rate of every port of an HCA. Other infiniband_*
         * families (uplink info, raw rates, ibswinfo's fans and power supplies) are attributes: ignored.
         */
        private void infiniband(final Series s, final LineReader.Line line, final String guid) throws SampleFormatException {
            final Matcher m = IB_SERIES.matcher(s.name());
            if (!m.matches()) {
                return;
            }
            if (!IB_GUID.matcher(guid).matches()) {
                throw new SampleFormatException(RejectReason.MALFORMED, "infiniband_exporter series " + s.name()
                    + " has guid \"" + CounterValues.clip(guid) + "\", expected a GUID like 0x7cfe9003009ce5b0");
            }
            final boolean ca = m.group(1).equals("hca");
            final String node = InfinibandNames.guidName(ca, false, guid);
            if (m.group(2).equals("info")) {
                described.put(node, InfinibandNames.of(ca, s.labels().get(ca ? "hca" : "switch"), node));
                return;
            }
            if (!IB_LABELS.containsAll(s.labels().keySet())) {
                return;
            }
            final String port = s.labels().get("port");
            if (port != null && !port.isBlank()) {
                value(s, line, node, port);
                return;
            }
            final CounterMapping.Mapped mapped = mapping.map(s.name());
            if (mapped.name() != null && mapped.name().equals(CounterNames.SPEED_BPS)) {
                final long ts = s.timestamp() == null ? context.defaultTimestamp() : timestamp(s.timestamp());
                final GroupKey key = new GroupKey(node, null, ts);
                if (nodeSpeeds.containsKey(key)) {
                    nodeRepeats.accept(s.name());
                    return;
                }
                nodeSpeeds.put(key, CounterValues.parseGauge(s.value(), s.name()) * mapped.scale());
            }
        }

        private void value(final Series s, final LineReader.Line line, final String node, final String port)
                throws SampleFormatException {
            final CounterMapping.Mapped mapped = mapping.map(s.name());
            if (mapped.name() == null) {
                if (mapped.dropped() != null) {
                    droppedValues.add(mapped.dropped()); // per-queue statistics: counted when the scrape is reported
                }
                return; // dropped on purpose by the mapping file
            }
            final String type = typeOf(s.name());
            if (IGNORED_TYPES.contains(type)) {
                return;
            }
            final Target target = Target.parse(mapped.name()).queueBounded();
            final boolean renamed = !target.name().equals(s.name());
            final String base = QueueDimension.base(target.name());
            // an untyped series named like an instant value (node_ethtool_*: a watermark, a peak, a current depth)
            // is a gauge too
            final boolean gauge = Canonical.isGauge(base)
                || (type.equals("gauge") && renamed && !Canonical.isCounter(base))
                || (type.equals("untyped") && !Canonical.isCounter(base) && InstantValues.isInstant(s.name()));
            if (!gauge && type.equals("gauge")) {
                return; // gauges without a mapping are port attributes (mtu, flags, ids): ignored
            }
            final long ts = s.timestamp() == null ? context.defaultTimestamp() : timestamp(s.timestamp());
            // one lookup of the port's group a line: the group is made only once a value of it was read
            final GroupKey key = new GroupKey(node, port, ts);
            final Group known = groups.get(key);
            if (known != null && known.seen.contains(s.name())) {
                known.repeated.accept(s.name()); // a series repeated in one scrape: the first value stands
                known.raw.addLine(line.bytes());
                return;
            }

            if (gauge) {
                final double v = CounterValues.parseGauge(s.value(), s.name()) * mapped.scale();
                final Group g = known != null ? known : group(key);
                if (target.name().equals(CounterNames.SPEED_BPS) && v < 0) {
                    // node_exporter exports /sys/class/net/*/speed = -1 (virtio, veth, bonds, a link that is down) as
                    // -125000: no speed is known; the port's counters and oper_up are still good
                    g.dropped.add(SPEED_UNKNOWN);
                    g.seen.add(s.name());
                    g.raw.addLine(line.bytes());
                    return;
                }
                final String previous = g.gaugeSources.get(target.name());
                g.seen.add(s.name());
                if (previous == null || s.name().compareTo(previous) < 0) {
                    g.gauges.put(target.name(), v);
                    g.gaugeSources.put(target.name(), s.name());
                }
                g.raw.addLine(line.bytes());
                return;
            }
            final long v = CounterValues.scale(CounterValues.parseFloatCounter(s.value(), s.name()), mapped.scale());
            final Group g = known != null ? known : group(key);
            g.counters.add(target, s.name(), v);
            g.seen.add(s.name());
            g.raw.addLine(line.bytes());
        }

        private Group group(final GroupKey key) {
            return groups.computeIfAbsent(key, k -> new Group(context.maxRecordBytes()));
        }

        void finish(final IngestSink sink) {
            // infiniband_exporter's series name their nodes: no --device needed for them
            final boolean named = !described.isEmpty() || groups.keySet().stream().anyMatch(k -> k.node() != null);
            final String device;
            if (named) {
                if (!unit.finishNamed(sink)) {
                    return;
                }
                device = context.device() == null || context.device().isBlank() ? null : context.device();
            } else {
                device = unit.finish(sink);
                if (device == null) {
                    return;
                }
            }
            if (groups.isEmpty()) {
                if (!unit.hasRejections()) {
                    unit.rejectWhole(sink, RejectReason.NO_COUNTERS, "scrape has no per-port series (node_network_*, "
                        + "node_ethtool_*, node_infiniband_* with a device label, or infiniband_exporter's "
                        + "infiniband_switch_port_*/infiniband_hca_port_* with guid and port labels)");
                }
                return;
            }
            final Map<String, InfinibandNames.Name> names = infinibandNames();
            final Set<GroupKey> speedsUsed = new HashSet<>();
            boolean sampled = false;
            for (final var e : groups.entrySet()) {
                final Group g = e.getValue();
                final GroupKey key = e.getKey();
                try {
                    if (key.ts() <= 0) {
                        throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE,
                            "timestamp must be positive epoch ms, was " + key.ts());
                    }
                    if (key.node() == null && device == null) {
                        throw new SampleFormatException(RejectReason.MISSING_DEVICE, unit.noDeviceMessage());
                    }
                    final GroupKey nodeKey = new GroupKey(key.node(), null, key.ts());
                    final Double speed = nodeSpeeds.get(nodeKey);
                    if (speed != null) {
                        g.gauges.putIfAbsent(CounterNames.SPEED_BPS, speed);
                        speedsUsed.add(nodeKey);
                    }
                    final InfinibandNames.Name name = key.node() == null ? null : names.get(key.node());
                    final Sample s = new Sample(key.ts(), name == null ? device : name.device(),
                        name == null ? key.port() : name.port(key.port()), FORMAT,
                        QueueDimension.withTotals(g.counters.toMap()), QueueDimension.withGaugeTotals(g.gauges));
                    SampleValidator.validate(s, context);
                    sink.sample(s);
                    sampled = true;
                    g.dropped.forEach(sink::dropped);
                    g.repeated.report(sink);
                } catch (SampleFormatException ex) {
                    sink.reject(new Rejection(g.raw.bytes(), ex.reason(), ex.getMessage(), FORMAT, unit.where()));
                }
            }
            nodeSpeeds.keySet().stream().filter(k -> !speedsUsed.contains(k)).forEach(k -> sink.dropped(IB_RATE_WITHOUT_PORT));
            if (sampled) {
                nodeRepeats.report(sink);
            }
            droppedValues.forEach(sink::dropped);
        }

        /** Every infiniband_exporter node's name: its description's, else (no info series, or shared) its GUID's. */
        private Map<String, InfinibandNames.Name> infinibandNames() {
            final Map<String, InfinibandNames.Name> all = new LinkedHashMap<>(described);
            groups.keySet().stream().map(GroupKey::node).filter(n -> n != null)
                .forEach(n -> all.putIfAbsent(n, new InfinibandNames.Name(n, "")));
            return InfinibandNames.unique(all);
        }
    }

    private static long timestamp(final String text) throws SampleFormatException {
        if (text.length() > 19 || !text.matches("-?\\d+")) {
            throw new SampleFormatException(RejectReason.MALFORMED, "timestamp must be integer epoch milliseconds: '"
                + CounterValues.clip(text) + "'");
        }
        final long ts = Long.parseLong(text);
        if (ts <= 0) {
            throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE, "timestamp must be positive epoch ms, was "
                + ts);
        }
        return ts;
    }

    /** Parses {@code name{label="value",...} value [timestamp]}; anything else is MALFORMED. */
    static Series parseSeries(final String s) throws SampleFormatException {
        final int n = s.length();
        int i = skipBlanks(s, 0);
        final int start = i;
        if (i >= n || !nameStart(s.charAt(i))) {
            throw malformed("expected a metric name");
        }
        while (i < n && nameChar(s.charAt(i))) {
            i++;
        }
        final String name = s.substring(start, i);
        final Map<String, String> labels = new LinkedHashMap<>();
        final int afterName = skipBlanks(s, i);
        if (afterName < n && s.charAt(afterName) == '{') {
            i = afterName + 1;
            while (true) {
                i = skipBlanks(s, i);
                if (i >= n) {
                    throw malformed("unterminated label set");
                }
                if (s.charAt(i) == '}') {
                    i++;
                    break;
                }
                final int ls = i;
                if (!labelStart(s.charAt(i))) {
                    throw malformed("expected a label name");
                }
                while (i < n && labelChar(s.charAt(i))) {
                    i++;
                }
                final String label = s.substring(ls, i);
                i = skipBlanks(s, i);
                if (i >= n || s.charAt(i) != '=') {
                    throw malformed("expected '=' after label " + label);
                }
                i = skipBlanks(s, i + 1);
                if (i >= n || s.charAt(i) != '"') {
                    throw malformed("expected a quoted value for label " + label);
                }
                i++;
                final StringBuilder value = new StringBuilder();
                boolean closed = false;
                while (i < n) {
                    final char c = s.charAt(i++);
                    if (c == '"') {
                        closed = true;
                        break;
                    }
                    if (c == '\\') {
                        if (i >= n) {
                            break;
                        }
                        final char e = s.charAt(i++);
                        switch (e) {
                            case '\\' -> value.append('\\');
                            case '"' -> value.append('"');
                            case 'n' -> value.append('\n');
                            default -> throw malformed("invalid escape \\" + e + " in label " + label);
                        }
                    } else {
                        value.append(c);
                    }
                }
                if (!closed) {
                    throw malformed("unterminated value of label " + label);
                }
                if (labels.put(label, value.toString()) != null) {
                    throw malformed("duplicate label " + label);
                }
                i = skipBlanks(s, i);
                if (i < n && s.charAt(i) == ',') {
                    i++;
                } else if (i < n && s.charAt(i) == '}') {
                    i++;
                    break;
                } else {
                    throw malformed("expected ',' or '}' after label " + label);
                }
            }
        }
        if (i < n && !blank(s.charAt(i))) {
            throw malformed("expected a blank before the value");
        }
        i = skipBlanks(s, i);
        final int vs = i;
        while (i < n && !blank(s.charAt(i))) {
            i++;
        }
        if (vs == i) {
            throw malformed("sample " + name + " has no value");
        }
        final String value = s.substring(vs, i);
        i = skipBlanks(s, i);
        String timestamp = null;
        if (i < n) {
            final int ts = i;
            while (i < n && !blank(s.charAt(i))) {
                i++;
            }
            timestamp = s.substring(ts, i);
            if (skipBlanks(s, i) < n) {
                throw malformed("unexpected text after the timestamp");
            }
        }
        return new Series(name, labels, value, timestamp);
    }

    private static SampleFormatException malformed(final String message) {
        return new SampleFormatException(RejectReason.MALFORMED, "not a Prometheus sample line: " + message);
    }

    private static int skipBlanks(final String s, final int from) {
        int i = from;
        while (i < s.length() && blank(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean blank(final char c) {
        return c == ' ' || c == '\t';
    }

    private static boolean nameStart(final char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
    }

    private static boolean nameChar(final char c) {
        return nameStart(c) || (c >= '0' && c <= '9');
    }

    private static boolean labelStart(final char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static boolean labelChar(final char c) {
        return labelStart(c) || (c >= '0' && c <= '9');
    }
}
