package dev.fabrictwin.ingest.format.sysfs;

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
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.ingest.format.SampleValidator;
import dev.fabrictwin.ingest.format.support.CounterAccumulator;
import dev.fabrictwin.ingest.format.support.CounterAccumulator.Target;
import dev.fabrictwin.ingest.format.support.CounterValues;
import dev.fabrictwin.ingest.format.support.RawUnit;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * The one mapping of {@code /sys/class/infiniband} files to samples, fed file by file by both readers: the ttar
 * archive ({@link SysfsInfinibandAdapter}) and the live tree read in place ({@link SysfsTreeReader}). A file is
 * given by its path (anything ending in {@code <hca>/ports/<n>/{counters,hw_counters}/<name>} or
 * {@code <hca>/ports/<n>/{state,rate}}; other paths are skipped) and its text; one port's files make one sample
 * ({@code <hca>/<n>}), delivered by {@link #finish}.
 */
final class SysfsPorts {

    static final String FORMAT = SysfsInfinibandAdapter.FORMAT;

    private static final Pattern COUNTER_PATH = Pattern.compile("(?:.*/)?([^/]+)/ports/(\\d+)/(?:counters|hw_counters)/([^/]+)");
    private static final Pattern ATTRIBUTE_PATH = Pattern.compile("(?:.*/)?([^/]+)/ports/(\\d+)/(state|rate)");
    private static final Pattern STATE = Pattern.compile("(\\d+)\\s*:.*");
    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([KMGT]?)b/sec.*", Pattern.CASE_INSENSITIVE);

    /** The names of {@code counters/} and {@code hw_counters/} files, also those {@code rdma statistic} prints. */
    private static final CounterMapping MAPPING = CounterMapping.forFormat(FORMAT);

    private static final class PortUnit {
        final String port;
        final RawUnit raw;
        final CounterAccumulator counters = new CounterAccumulator(FORMAT);
        final Map<String, Double> gauges = new LinkedHashMap<>();
        final List<Rejection> pending = new ArrayList<>();
        /** Files of the port given twice: the first stands, the repeats are reported with the sample. */
        final Set<String> seen = new HashSet<>();
        final RepeatedKeys repeated = new RepeatedKeys();
        long firstLine = -1;
        long lastLine;

        PortUnit(final String port, final int limit) {
            this.port = port;
            this.raw = new RawUnit(limit);
        }
    }

    private final int limit;
    private final Map<String, PortUnit> ports = new LinkedHashMap<>();
    private final List<Rejection> strays = new ArrayList<>();

    SysfsPorts(final int limit) {
        this.limit = limit;
    }

    /**
     * The canonical name and scale of an RDMA port counter as the kernel names it: a {@code counters/} or
     * {@code hw_counters/} file here, a hardware counter in {@code rdma statistic show -j} ({@link RdmaStatisticAdapter}),
     * so both give a counter the same name ({@code np_cnp_sent} → {@code cnp_sent}).
     */
    static CounterMapping.Mapped counter(final String kernelName) {
        return MAPPING.map(kernelName);
    }

    /** Whether the file at {@code path} is one this mapping reads (a port's counter, {@code state} or {@code rate}). */
    static boolean reads(final String path) {
        return COUNTER_PATH.matcher(path).matches() || ATTRIBUTE_PATH.matcher(path).matches();
    }

    /** {@code <hca>/<n>} of a port file's path, or null. */
    static String portOf(final String path) {
        Matcher m = COUNTER_PATH.matcher(path);
        if (m.matches()) {
            return m.group(1) + "/" + m.group(2);
        }
        m = ATTRIBUTE_PATH.matcher(path);
        return m.matches() ? m.group(1) + "/" + m.group(2) : null;
    }

    boolean isEmpty() {
        return ports.isEmpty();
    }

    /** Rejections that belong to no port. */
    List<Rejection> strays() {
        return strays;
    }

    /** Attributes a rejection to the port its path belongs to (so it is reported with that unit), else to the input. */
    void reject(final String path, final Rejection rejection) {
        final String port = portOf(path);
        if (port == null) {
            strays.add(rejection);
        } else {
            ports.computeIfAbsent(port, p -> new PortUnit(p, limit)).pending.add(rejection);
        }
    }

    /**
     * One file: {@code value} its text (trimmed), {@code raw} what a rejection of it carries, {@code line} its first
     * line in the input (or -1 when it has none) and {@code location} where a rejection of it points.
     */
    void file(final String path, final String value, final byte[] raw, final long line, final String location) {
        final Matcher counter = COUNTER_PATH.matcher(path);
        final Matcher attribute = ATTRIBUTE_PATH.matcher(path);
        final boolean isCounter = counter.matches();
        if (!isCounter && !attribute.matches()) {
            return; // device files (board_id, fw_ver, node_guid), link_layer, phys_state, ...: not counters
        }
        final Matcher m = isCounter ? counter : attribute;
        final String portKey = m.group(1) + "/" + m.group(2);
        final String name = m.group(3);
        final PortUnit unit = ports.computeIfAbsent(portKey, p -> new PortUnit(p, limit));
        unit.raw.append(raw);
        unit.raw.append(new byte[] {'\n'});
        if (line >= 0) {
            if (unit.firstLine < 0) {
                unit.firstLine = line;
            }
            unit.lastLine = line;
        }
        final CounterMapping.Mapped mapped = counter(name);
        if (mapped.name() == null) {
            return;
        }
        if (!unit.seen.add(name)) {
            unit.repeated.accept(name); // given twice (an archive's repeat, or counters/ and hw_counters/ sharing a name): the first stands
            return;
        }
        try {
            final Target target = Target.parse(mapped.name());
            if (isCounter) {
                unit.counters.add(target, name, CounterValues.scale(CounterValues.parseUnsigned(value, name), mapped.scale()));
            } else {
                unit.gauges.putIfAbsent(target.name(), (name.equals("state") ? state(value) : rate(value)) * mapped.scale());
            }
        } catch (SampleFormatException ex) {
            unit.pending.add(new Rejection(raw, ex.reason(), ex.getMessage(), FORMAT, location));
        }
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

    /** One record per port: its sample (device and time from {@code context}) and its files' rejections. */
    void finish(final ParseContext context, final IngestSink sink) {
        strays.forEach(sink::reject);
        final String device = context.device();
        for (final PortUnit unit : ports.values()) {
            sink.record();
            final String where = unit.firstLine < 0 ? "port " + unit.port
                : "lines " + unit.firstLine + "-" + unit.lastLine + " (port " + unit.port + ")";
            final byte[] raw = unit.raw.bytes();
            if (unit.raw.oversized()) {
                sink.reject(new Rejection(raw, RejectReason.OVERSIZED, "files of port " + unit.port
                    + " take " + unit.raw.size() + " bytes, more than " + context.maxRecordBytes(), FORMAT, where));
                continue;
            }
            if (device == null || device.isBlank()) {
                sink.reject(new Rejection(raw, RejectReason.MISSING_DEVICE,
                    "sysfs files name no host: give the device (--device)", FORMAT, where));
                continue;
            }
            unit.pending.forEach(sink::reject);
            if (unit.counters.isEmpty() && unit.gauges.isEmpty() && !unit.pending.isEmpty()) {
                continue;
            }
            try {
                if (context.defaultTimestamp() <= 0) {
                    throw new SampleFormatException(RejectReason.MISSING_TIMESTAMP,
                        "sysfs files carry no timestamp and no default timestamp was given");
                }
                final Sample s = new Sample(context.defaultTimestamp(), device, unit.port, FORMAT, unit.counters.toMap(),
                    unit.gauges);
                SampleValidator.validate(s, context);
                sink.sample(s);
                unit.repeated.report(sink);
            } catch (SampleFormatException e) {
                sink.reject(new Rejection(raw, e.reason(), e.getMessage(), FORMAT, where));
            }
        }
    }
}
