package dev.fabrictwin.ingest.format.ethtool;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
import dev.fabrictwin.ingest.format.support.CounterAccumulator;
import dev.fabrictwin.ingest.format.support.CounterAccumulator.Target;
import dev.fabrictwin.ingest.format.support.CounterValues;
import dev.fabrictwin.ingest.format.support.InstantValues;
import dev.fabrictwin.ingest.format.support.LineUnit;
import dev.fabrictwin.ingest.format.support.QueueDimension;
import dev.fabrictwin.ingest.format.support.RawUnit;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * {@code --format ethtool}: {@code ethtool -S <iface>} text dumps (mlx5_core, i40e, ice, bnxt_en, e1000e, ...).
 *
 * <ul>
 *   <li><b>Input unit</b>: one dump → one sample. A dump starts at the beginning of the input or at a header
 *       line once the current dump has statistics: {@code NIC statistics:} (what ethtool prints first) or a
 *       command line such as {@code # ethtool -S eth0} / {@code $ ethtool -S eth0} (as in captures made by
 *       scripts and node_exporter's fixtures). So one file may hold several interfaces' dumps.</li>
 *   <li><b>Lines</b>: {@code name: value}, split on the <em>last</em> {@code ": "} because names contain dots,
 *       spaces and {@code [3]: } ring prefixes. A bad line is rejected on its own (raw = that line, location
 *       {@code line N}); the rest of the dump still makes the sample. A name repeated in a dump keeps its first value;
 *       the repeat is counted and named ({@link RepeatedKeys}: vmxnet3 prints {@code giant hdr} twice per queue).</li>
 *   <li><b>Device</b>: {@link ParseContext#device()} ({@code --device}, the host); without it each dump is
 *       rejected MISSING_DEVICE.</li>
 *   <li><b>Port</b>: the interface a header names ({@code # ethtool -S eth0}, {@code NIC statistics for eth0:});
 *       if none does (ethtool itself prints none), {@link ParseContext#port()} ({@code --port}), else
 *       {@value #DEFAULT_PORT}, the generated name of a host's first NIC port (docs/contracts.md).</li>
 *   <li><b>Timestamp</b>: {@link ParseContext#defaultTimestamp()}; dumps carry none.</li>
 * </ul>
 * Names are mapped by {@code mappings/ethtool.tsv}: physical-port counters are preferred over software ones, the
 * drivers' per-priority PFC names become {@code rx_pfc_pause.<p>}, {@code tx_pfc_pause.<p>} and
 * {@code rx_pause_duration_us.<p>}, and every driver's per-queue layout ({@code rx3_bytes}, {@code rx-3.rx_bytes},
 * {@code rx_queue_3_bytes}, {@code queue_3_rx_bytes}, {@code [3]: rx_bytes}, {@code rxq3: rx_bytes}, vmxnet3's
 * {@code Rx Queue#: 3} blocks) becomes {@code rx_bytes.q3} ({@link QueueDimension}: bounded, and the port total
 * summed from the queues when the dump has none). Instant values (watermarks, peaks, current depths:
 * {@link InstantValues}) become gauges; everything else is a counter.
 */
public final class EthtoolStatsAdapter implements FormatAdapter {

    public static final String FORMAT = "ethtool";
    /** Port used when the dump does not name its interface. */
    public static final String DEFAULT_PORT = "nic0";
    /** The warning for a dump without byte counters: the port's samples go out, but its utilisation stays unknown. */
    public static final String NO_BYTES = "ethtool -S dump with no byte counters (no rx_bytes/tx_bytes, per queue or in "
        + "total; virtio_net on recent kernels and veth print none): its port's utilisation stays unknown; read its "
        + "bytes from node_exporter's node_network_* (--format prometheus)";

    private static final Pattern NIC_HEADER = Pattern.compile("NIC statistics(?: for ([^\\s:]+))?\\s*:", Pattern.CASE_INSENSITIVE);
    private static final Pattern COMMAND = Pattern.compile("[#$>]\\s*(?:sudo\\s+)?(?:\\S*/)?ethtool\\s+(.*)");
    /** vmxnet3 opens a block per queue: {@code Tx Queue#: 0}. */
    private static final Pattern QUEUE_BLOCK = Pattern.compile("(Tx|Rx) Queue#:\\s*(\\d+)", Pattern.CASE_INSENSITIVE);

    private final CounterMapping mapping = CounterMapping.forFormat(FORMAT);

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public void parse(final InputStream in, final ParseContext context, final IngestSink sink) throws IOException {
        final LineReader lines = new LineReader(in, context.maxRecordBytes());
        Dump dump = new Dump(context);
        boolean anyDump = false;
        LineReader.Line blankStart = null;
        LineReader.Line line;
        boolean first = true;
        while ((line = lines.next()) != null) {
            if (line.blank()) {
                dump.blank(line);
                blankStart = blankStart == null ? line : blankStart;
                continue;
            }
            final String text = line.text().strip();
            if (first && (text.startsWith("[") || text.startsWith("{"))) {
                refuseJson(line, lines, context, sink);
                return;
            }
            first = false;
            final String commandPort = commandPort(text);
            if (commandPort != null) {
                if (dump.hasStats || dump.hasCommand) {
                    anyDump |= dump.finish(sink);
                    dump = new Dump(context);
                }
                dump.hasCommand = true;
                dump.port = commandPort;
                dump.header(line);
                continue;
            }
            final Matcher header = NIC_HEADER.matcher(text);
            if (header.matches()) {
                if (dump.hasStats || dump.hasNicHeader) {
                    anyDump |= dump.finish(sink);
                    dump = new Dump(context);
                }
                dump.hasNicHeader = true;
                if (header.group(1) != null && !dump.hasCommand) {
                    dump.port = header.group(1);
                }
                dump.header(line);
                continue;
            }
            if (text.startsWith("#")) {
                dump.header(line); // a comment: part of the dump's raw bytes, no statistic
                continue;
            }
            final Matcher queueBlock = QUEUE_BLOCK.matcher(text);
            if (queueBlock.matches()) {
                dump.openQueueBlock(line, queueBlock.group(1), queueBlock.group(2));
                continue;
            }
            dump.stat(line, text);
        }
        anyDump |= dump.finish(sink);
        if (!anyDump && blankStart != null) {
            // an input of blank lines only is reported, not dropped (docs/ingest.md: nothing is dropped silently)
            sink.record();
            sink.reject(new Rejection(blankStart.bytes(), RejectReason.NO_COUNTERS, "input holds only blank lines",
                FORMAT, "line " + blankStart.number()));
        }
    }

    /**
     * {@code ethtool --json -S IF --all-groups}: ethtool's JSON statistics are the standard groups only (eth-phy,
     * eth-mac, eth-ctrl, rmon; 6.1 has no JSON form of the driver statistics at all), so the input is refused whole,
     * in one line naming what is read instead.
     */
    private static void refuseJson(final LineReader.Line firstLine, final LineReader lines, final ParseContext context,
                                   final IngestSink sink) throws IOException {
        final RawUnit raw = new RawUnit(
            context.maxRecordBytes());
        raw.addLine(firstLine.bytes());
        long last = firstLine.number();
        LineReader.Line line;
        while ((line = lines.next()) != null) {
            raw.addLine(line.bytes());
            last = line.number();
        }
        sink.record();
        sink.reject(new Rejection(raw.bytes(), RejectReason.MALFORMED, "expected ethtool -S text ('NIC statistics:' then "
            + "'name: value' lines), found JSON starting '" + CounterValues.clip(firstLine.text().strip()) + "': ethtool "
            + "--json -S prints only the standard groups (eth-mac, rmon, ...), not the driver statistics this format reads",
            FORMAT, firstLine.number() == last ? "line " + last : "lines " + firstLine.number() + "-" + last));
    }

    /** The interface named by an {@code ethtool -S <iface>} command line, or null. */
    static String commandPort(final String text) {
        final Matcher m = COMMAND.matcher(text);
        if (!m.matches()) {
            return null;
        }
        final String[] args = m.group(1).trim().split("\\s+");
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals("-S") || args[i].equals("--statistics")) {
                for (int j = i + 1; j < args.length; j++) {
                    final String port = args[j].replaceAll("[;|&:]+$", "");
                    if (!args[j].startsWith("-") && !port.isEmpty()) { // "ethtool -S ;" names no port
                        return port;
                    }
                }
            }
        }
        return null;
    }

    private final class Dump {
        private final ParseContext context;
        private final LineUnit unit;
        private final CounterAccumulator counters = new CounterAccumulator(FORMAT);
        private String port;
        private boolean hasStats;
        private boolean hasCommand;
        private boolean hasNicHeader;
        /** Inside a vmxnet3 queue block: its statistics are named {@code txq<N>: <name>}; null outside. */
        private String queuePrefix;
        private int queueIndent;
        /** Statistics left out on purpose and counted, by reason, reported with the sample. */
        private final List<String> droppedValues = new ArrayList<>();
        /** Statistics the dump names twice: the first value is kept, the repeats reported with the sample. */
        private final RepeatedKeys repeated = new RepeatedKeys();

        Dump(final ParseContext context) {
            this.context = context;
            this.port = context.port() != null ? context.port() : DEFAULT_PORT;
            this.unit = new LineUnit(FORMAT, "dump", "ethtool -S dumps name no host: give the device (--device)", context);
        }

        void blank(final LineReader.Line line) {
            if (unit.any()) {
                unit.addBlank(line);
            }
        }

        void header(final LineReader.Line line) {
            unit.addLine(line);
        }

        void openQueueBlock(final LineReader.Line line, final String direction, final String queue) {
            unit.addLine(line);
            hasStats = true;
            queuePrefix = direction.toLowerCase(Locale.ROOT) + "q" + queue + ": ";
            queueIndent = indent(line.text());
        }

        void stat(final LineReader.Line line, final String text) {
            unit.addLine(line);
            hasStats = true;
            if (queuePrefix != null && indent(line.text()) <= queueIndent) {
                queuePrefix = null; // a statistic as far left as the block header belongs to the NIC again
            }
            if (line.truncated()) {
                unit.rejectOversized(line);
                return;
            }
            try {
                final int sep = lastSeparator(text);
                if (sep < 0) {
                    throw new SampleFormatException(RejectReason.MALFORMED, "expected 'name: value', got '"
                        + CounterValues.clip(text) + "'");
                }
                final String name = (queuePrefix == null ? "" : queuePrefix) + text.substring(0, sep).strip();
                final String value = text.substring(sep + 1).strip();
                if (name.isEmpty() || !printable(name)) {
                    throw new SampleFormatException(RejectReason.MALFORMED, "statistic name is empty or not printable text");
                }
                final CounterMapping.Mapped mapped = mapping.map(name);
                if (mapped.name() == null) {
                    if (mapped.dropped() != null) {
                        droppedValues.add(mapped.dropped()); // per-queue statistics: counted with the sample
                    }
                    return; // dropped on purpose (an attribute, per-queue statistics)
                }
                if (counters.hasSource(name)) {
                    repeated.accept(name); // the first value stands; this line stays in the dump's raw bytes
                    return;
                }
                final long v = CounterValues.scale(CounterValues.parseUnsigned(value, name), mapped.scale());
                counters.add(Target.parse(mapped.name()).queueBounded(), name, v);
            } catch (SampleFormatException e) {
                unit.reject(line, e);
            }
        }

        /** Reports the dump; false if it had no content at all. */
        boolean finish(final IngestSink sink) {
            if (!unit.any()) {
                return false;
            }
            final String device = unit.finish(sink);
            if (device == null) {
                return true;
            }
            if (counters.isEmpty() && unit.hasRejections()) {
                return true; // every statistic was rejected on its own line
            }
            try {
                if (context.defaultTimestamp() <= 0) {
                    throw new SampleFormatException(RejectReason.MISSING_TIMESTAMP,
                        "ethtool dumps carry no timestamp and no default timestamp was given");
                }
                final InstantValues.Split values = InstantValues.split(QueueDimension.withTotals(counters.toMap()));
                final Sample s = new Sample(context.defaultTimestamp(), device, port, FORMAT, values.counters(),
                    QueueDimension.withGaugeTotals(values.gauges()));
                SampleValidator.validate(s, context);
                sink.sample(s);
                droppedValues.forEach(sink::dropped);
                repeated.report(sink);
                if (s.counters().keySet().stream().noneMatch(k -> k.startsWith("rx_bytes") || k.startsWith("tx_bytes"))) {
                    sink.warn(NO_BYTES);
                }
            } catch (SampleFormatException e) {
                unit.rejectWhole(sink, e.reason(), e.getMessage());
            }
            return true;
        }
    }

    private static int indent(final String text) {
        int i = 0;
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    /** Index of the ':' of the last ": " (or ":\t") in the line, or -1. */
    private static int lastSeparator(final String text) {
        for (int i = text.length() - 2; i >= 0; i--) {
            if (text.charAt(i) == ':' && (text.charAt(i + 1) == ' ' || text.charAt(i + 1) == '\t')) {
                return i;
            }
        }
        return -1;
    }

    private static boolean printable(final String s) {
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\uFFFD') {
                return false;
            }
        }
        return true;
    }
}
