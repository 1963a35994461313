package dev.fabrictwin.ingest.format.sysfs;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.fabrictwin.ingest.format.CounterMapping;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.LineReader;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.ingest.format.SampleValidator;
import dev.fabrictwin.ingest.format.support.CounterAccumulator;
import dev.fabrictwin.ingest.format.support.CounterAccumulator.Target;
import dev.fabrictwin.ingest.format.support.CounterValues;
import dev.fabrictwin.ingest.format.support.RawUnit;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;
import dev.fabrictwin.twin.telemetry.RejectReason;
import dev.fabrictwin.twin.telemetry.Sample;
import dev.fabrictwin.twin.telemetry.SampleFormatException;

/**
 * {@code --format sysfs}: InfiniBand / RoCE port counters from {@code /sys/class/infiniband}, as a ttar archive
 * (the plain-text archive format of prometheus/procfs fixtures: {@code Directory: <path>} or
 * {@code Path: <path>} + {@code Lines: <n>} + n content lines (the last one suffixed {@code EOF} when the file
 * had no trailing newline) + {@code Mode: <octal>}, entries separated by {@code # ttar - - -} lines;
 * {@code SymlinkTo: <target>} replaces {@code Lines:} for links).
 *
 * <ul>
 *   <li><b>Files read</b>: {@code .../<dev>/ports/<n>/counters/<name>} and {@code .../hw_counters/<name>} (one
 *       unsigned integer each), and the port attributes {@code state} ({@code 4: ACTIVE} → oper_up 1) and
 *       {@code rate} ({@code 100 Gb/sec (4X EDR)} → speed_bps). Other files (board_id, fw_ver, link_layer, ...)
 *       and directories are skipped.</li>
 *   <li><b>Input unit</b>: one port's entries ({@code mlx5_0/1}) → one sample; {@link IngestSink#record()} once
 *       per port. A bad counter file rejects that entry alone (raw = the entry's {@code Path:..} text, location
 *       {@code line N}); the port's other counters still make the sample. Structural errors (a {@code Path:}
 *       without {@code Lines:}, an archive that ends inside an entry, stray lines) are rejected MALFORMED on
 *       their own. An archive without any port counter is rejected whole as NO_COUNTERS. A file the archive holds
 *       twice keeps its first value; the repeat is counted and named ({@link RepeatedKeys}).</li>
 *   <li><b>Device</b>: {@link ParseContext#device()} (the host); without one every port is rejected
 *       MISSING_DEVICE. <b>Port</b>: {@code <dev>/<n>}, e.g. {@code mlx5_0/1}. <b>Timestamp</b>:
 *       {@link ParseContext#defaultTimestamp()}.</li>
 *   <li><b>Units</b>: {@code port_xmit_data}/{@code port_rcv_data} count 4-byte words; the mapping file scales
 *       them by 4 into bytes (modulo 2^64). Legacy 32-bit PMA counters (HCAs without PortCountersExtended)
 *       <em>saturate</em> at 2^32−1 instead of wrapping: the value is kept as read, and a saturated counter
 *       simply stops rising (the analyzer sees a zero rate, not a wrap).</li>
 * </ul>
 */
public final class SysfsInfinibandAdapter implements FormatAdapter {

    public static final String FORMAT = "sysfs";

    private static final Pattern COUNTER_PATH = Pattern.compile("(?:.*/)?([^/]+)/ports/(\\d+)/(?:counters|hw_counters)/([^/]+)");
    private static final Pattern ATTRIBUTE_PATH = Pattern.compile("(?:.*/)?([^/]+)/ports/(\\d+)/(state|rate)");
    private static final Pattern STATE = Pattern.compile("(\\d+)\\s*:.*");
    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([KMGT]?)b/sec.*", Pattern.CASE_INSENSITIVE);
    /** Counter and attribute files hold one line; a bigger entry is read through but not kept. */
    private static final int MAX_LINES = 1 << 20;

    private final CounterMapping mapping = CounterMapping.forFormat(FORMAT);

    @Override
    public String format() {
        return FORMAT;
    }

    private static final class PortUnit {
        final String port;
        final RawUnit raw;
        final CounterAccumulator counters = new CounterAccumulator(FORMAT);
        final Map<String, Double> gauges = new LinkedHashMap<>();
        final List<Rejection> pending = new ArrayList<>();
        /** Files of the port the archive holds twice: the first stands, the repeats are reported with the sample. */
        final java.util.Set<String> seen = new java.util.HashSet<>();
        final RepeatedKeys repeated = new RepeatedKeys();
        long firstLine = -1;
        long lastLine;

        PortUnit(final String port, final int limit) {
            this.port = port;
            this.raw = new RawUnit(limit);
        }
    }

    /** One archive entry: its path, content lines, raw text and first line number. */
    private record Entry(String path, List<String> content, RawUnit raw, long line) {
    }

    @Override
    public void parse(final InputStream in, final ParseContext context, final IngestSink sink) throws IOException {
        final int limit = context.maxRecordBytes();
        final LineReader lines = new LineReader(in, limit);
        final Map<String, PortUnit> ports = new LinkedHashMap<>();
        final List<Rejection> strays = new ArrayList<>();
        final RawUnit archive = new RawUnit(limit);

        LineReader.Line line = lines.next();
        while (line != null) {
            archive.addLine(line.bytes());
            if (line.blank()) {
                line = lines.next();
                continue;
            }
            final String text = line.text();
            if (text.startsWith("#") || text.startsWith("Mode:") || text.startsWith("Directory:")) {
                line = lines.next();
                continue;
            }
            if (!text.startsWith("Path:") || line.truncated()) {
                strays.add(line.truncated() ? line.oversized(FORMAT) : new Rejection(line.bytes(), RejectReason.MALFORMED,
                    "not a ttar entry line: '" + CounterValues.clip(text) + "'", FORMAT, "line " + line.number()));
                line = lines.next();
                continue;
            }
            final String path = text.substring("Path:".length()).strip();
            final RawUnit raw = new RawUnit(limit);
            raw.addLine(line.bytes());
            final long where = line.number();
            final LineReader.Line header = lines.next();
            if (header == null) {
                reject(ports, strays, path, limit, new Rejection(raw.bytes(), RejectReason.MALFORMED,
                    "archive ends after 'Path: " + path + "'", FORMAT, "line " + where));
                break;
            }
            final String headerText = header.text();
            if (headerText.startsWith("SymlinkTo:")) {
                archive.addLine(header.bytes());
                line = lines.next();
                continue;
            }
            final int count = lineCount(headerText);
            if (count < 0) {
                final boolean nextEntry = headerText.startsWith("Path:") || headerText.startsWith("Directory:")
                    || headerText.startsWith("#");
                if (!nextEntry) {
                    archive.addLine(header.bytes());
                    raw.addLine(header.bytes());
                }
                reject(ports, strays, path, limit, new Rejection(raw.bytes(), RejectReason.MALFORMED,
                    "expected 'Lines: <n>' after 'Path: " + path + "'", FORMAT, "line " + where));
                line = nextEntry ? header : lines.next(); // a new entry is read again
                continue;
            }
            archive.addLine(header.bytes());
            raw.addLine(header.bytes());
            final List<String> content = new ArrayList<>(Math.min(count, 4));
            boolean complete = true;
            boolean truncated = false;
            for (int k = 0; k < count; k++) {
                final LineReader.Line c = lines.next();
                if (c == null) {
                    complete = false;
                    break;
                }
                archive.addLine(c.bytes());
                raw.addLine(c.bytes());
                truncated |= c.truncated();
                if (content.size() < 4) {
                    content.add(c.text());
                }
            }
            if (!complete) {
                reject(ports, strays, path, limit, new Rejection(raw.bytes(), RejectReason.MALFORMED,
                    "archive ends inside the " + count + " lines of " + path, FORMAT, "line " + where));
                break;
            }
            if (truncated) {
                reject(ports, strays, path, limit, new Rejection(raw.bytes(), RejectReason.OVERSIZED,
                    "entry " + path + " has a line longer than " + limit + " bytes", FORMAT, "line " + where));
            } else {
                entry(new Entry(path, content, raw, where), ports, limit);
            }
            line = lines.next();
        }
        finish(ports, strays, archive, context, sink);
    }

    private static int lineCount(final String header) {
        if (!header.startsWith("Lines:")) {
            return -1;
        }
        final String n = header.substring("Lines:".length()).strip();
        if (n.isEmpty() || n.length() > 7 || !n.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        final int count = Integer.parseInt(n);
        return count > MAX_LINES ? -1 : count;
    }

    /** Attributes a rejection to the port its path belongs to (so it is reported with that unit), else to the archive. */
    private static void reject(final Map<String, PortUnit> ports, final List<Rejection> strays, final String path,
                               final int limit, final Rejection rejection) {
        final String port = portOf(path);
        if (port == null) {
            strays.add(rejection);
        } else {
            ports.computeIfAbsent(port, p -> new PortUnit(p, limit)).pending.add(rejection);
        }
    }

    private static String portOf(final String path) {
        Matcher m = COUNTER_PATH.matcher(path);
        if (m.matches()) {
            return m.group(1) + "/" + m.group(2);
        }
        m = ATTRIBUTE_PATH.matcher(path);
        return m.matches() ? m.group(1) + "/" + m.group(2) : null;
    }

    private void entry(final Entry e, final Map<String, PortUnit> ports, final int limit) {
        final Matcher counter = COUNTER_PATH.matcher(e.path());
        final Matcher attribute = ATTRIBUTE_PATH.matcher(e.path());
        final boolean isCounter = counter.matches();
        if (!isCounter && !attribute.matches()) {
            return; // device files (board_id, fw_ver, node_guid), link_layer, phys_state, ...: not counters
        }
        final Matcher m = isCounter ? counter : attribute;
        final String portKey = m.group(1) + "/" + m.group(2);
        final String name = m.group(3);
        final PortUnit unit = ports.computeIfAbsent(portKey, p -> new PortUnit(p, limit));
        unit.raw.append(e.raw().bytes());
        if (unit.firstLine < 0) {
            unit.firstLine = e.line();
        }
        unit.lastLine = e.line();
        final CounterMapping.Mapped mapped = mapping.map(name);
        if (mapped.name() == null) {
            return;
        }
        if (!unit.seen.add(name)) {
            unit.repeated.accept(name); // the archive holds the file twice: the first value stands
            return;
        }
        final String value = content(e.content());
        try {
            final Target target = Target.parse(mapped.name());
            if (isCounter) {
                unit.counters.add(target, name, CounterValues.scale(CounterValues.parseUnsigned(value, name), mapped.scale()));
            } else {
                unit.gauges.putIfAbsent(target.name(), (name.equals("state") ? state(value) : rate(value)) * mapped.scale());
            }
        } catch (SampleFormatException ex) {
            unit.pending.add(new Rejection(e.raw().bytes(), ex.reason(), ex.getMessage(), FORMAT, "line " + e.line()));
        }
    }

    /** The file's text: ttar's {@code EOF} marker (no trailing newline) removed, blank trailing lines ignored. */
    private static String content(final List<String> lines) {
        final StringBuilder b = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (i == lines.size() - 1 && l.endsWith("EOF")) {
                l = l.substring(0, l.length() - 3);
            }
            if (i > 0) {
                b.append('\n');
            }
            b.append(l);
        }
        return b.toString().strip();
    }

    /** IB port state {@code "4: ACTIVE"}: up when ACTIVE (4) or ACTIVE_DEFER (5). */
    private static double state(final String value) throws SampleFormatException {
        final Matcher m = STATE.matcher(value);
        if (!m.matches() || m.group(1).length() > 3) {
            throw new SampleFormatException(RejectReason.NON_NUMERIC, "port state is not '<id>: <NAME>': '"
                + CounterValues.clip(value) + "'");
        }
        final int id = Integer.parseInt(m.group(1));
        return id == 4 || id == 5 ? 1 : 0;
    }

    /** IB port rate {@code "100 Gb/sec (4X EDR)"} in bit/s. */
    private static double rate(final String value) throws SampleFormatException {
        final Matcher m = RATE.matcher(value);
        if (!m.matches() || m.group(1).length() > 12) {
            throw new SampleFormatException(RejectReason.NON_NUMERIC, "port rate is not '<n> Gb/sec': '"
                + CounterValues.clip(value) + "'");
        }
        final double unit = switch (m.group(2).toUpperCase(Locale.ROOT)) {
            case "K" -> 1e3;
            case "M" -> 1e6;
            case "G" -> 1e9;
            case "T" -> 1e12;
            default -> 1;
        };
        return Double.parseDouble(m.group(1)) * unit;
    }

    private static void finish(final Map<String, PortUnit> ports, final List<Rejection> strays, final RawUnit archive,
                               final ParseContext context, final IngestSink sink) {
        if (ports.isEmpty()) {
            if (!archive.isEmpty() && !allBlank(archive)) {
                sink.record();
                strays.forEach(sink::reject);
                if (strays.isEmpty()) {
                    sink.reject(new Rejection(archive.bytes(), RejectReason.NO_COUNTERS,
                        "archive holds no InfiniBand port counters (.../<dev>/ports/<n>/counters/<name>)", FORMAT, "archive"));
                }
            }
            return;
        }
        strays.forEach(sink::reject);
        final String device = context.device();
        for (final PortUnit unit : ports.values()) {
            sink.record();
            final String where = unit.firstLine < 0 ? "port " + unit.port
                : "lines " + unit.firstLine + "-" + unit.lastLine + " (port " + unit.port + ")";
            if (unit.raw.oversized()) {
                sink.reject(new Rejection(unit.raw.bytes(), RejectReason.OVERSIZED, "entries of port " + unit.port
                    + " take " + unit.raw.size() + " bytes, more than " + context.maxRecordBytes(), FORMAT, where));
                continue;
            }
            if (device == null || device.isBlank()) {
                sink.reject(new Rejection(unit.raw.bytes(), RejectReason.MISSING_DEVICE,
                    "sysfs archives name no host: give the device (--device)", FORMAT, where));
                continue;
            }
            unit.pending.forEach(sink::reject);
            if (unit.counters.isEmpty() && unit.gauges.isEmpty() && !unit.pending.isEmpty()) {
                continue;
            }
            try {
                if (context.defaultTimestamp() <= 0) {
                    throw new SampleFormatException(RejectReason.MISSING_TIMESTAMP,
                        "sysfs archives carry no timestamp and no default timestamp was given");
                }
                final Sample s = new Sample(context.defaultTimestamp(), device, unit.port, FORMAT, unit.counters.toMap(),
                    unit.gauges);
                SampleValidator.validate(s, context);
                sink.sample(s);
                unit.repeated.report(sink);
            } catch (SampleFormatException e) {
                sink.reject(new Rejection(unit.raw.bytes(), e.reason(), e.getMessage(), FORMAT, where));
            }
        }
    }

    private static boolean allBlank(final RawUnit raw) {
        for (final byte b : raw.bytes()) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return false;
            }
        }
        return true;
    }
}
