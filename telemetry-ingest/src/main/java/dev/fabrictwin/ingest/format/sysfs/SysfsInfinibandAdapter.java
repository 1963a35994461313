package dev.fabrictwin.ingest.format.sysfs;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.LineReader;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.ingest.format.support.CounterValues;
import dev.fabrictwin.ingest.format.support.RawUnit;

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
 *       their own. An archive without any port counter is rejected whole as NO_COUNTERS.</li>
 *   <li><b>Device</b>: {@link ParseContext#device()} (the host); without one every port is rejected
 *       MISSING_DEVICE. <b>Port</b>: {@code <dev>/<n>}, e.g. {@code mlx5_0/1}. <b>Timestamp</b>:
 *       {@link ParseContext#defaultTimestamp()}.</li>
 *   <li><b>Units</b>: {@code port_xmit_data}/{@code port_rcv_data} count 4-byte words; the mapping file scales
 *       them by 4 into bytes (modulo 2^64). Legacy 32-bit PMA counters (HCAs without PortCountersExtended)
 *       <em>saturate</em> at 2^32−1 instead of wrapping: the value is kept as read, and a saturated counter
 *       simply stops rising (the analyzer sees a zero rate, not a wrap).</li>
 * </ul>
 * The mapping of files to samples is {@link SysfsPorts}, shared with {@link SysfsTreeReader} (a live tree read in
 * place, {@code ingest --sysfs DIR}): both give the same samples for the same tree.
 */
public final class SysfsInfinibandAdapter implements FormatAdapter {

    public static final String FORMAT = "sysfs";

    /** Counter and attribute files hold one line; a bigger entry is read through but not kept. */
    private static final int MAX_LINES = 1 << 20;

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public void parse(final InputStream in, final ParseContext context, final IngestSink sink) throws IOException {
        final int limit = context.maxRecordBytes();
        final LineReader lines = new LineReader(in, limit);
        final SysfsPorts ports = new SysfsPorts(limit);
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
                ports.strays().add(line.truncated() ? line.oversized(FORMAT) : new Rejection(line.bytes(), RejectReason.MALFORMED,
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
                ports.reject(path, new Rejection(raw.bytes(), RejectReason.MALFORMED,
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
                ports.reject(path, new Rejection(raw.bytes(), RejectReason.MALFORMED,
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
                ports.reject(path, new Rejection(raw.bytes(), RejectReason.MALFORMED,
                    "archive ends inside the " + count + " lines of " + path, FORMAT, "line " + where));
                break;
            }
            if (truncated) {
                ports.reject(path, new Rejection(raw.bytes(), RejectReason.OVERSIZED,
                    "entry " + path + " has a line longer than " + limit + " bytes", FORMAT, "line " + where));
            } else {
                ports.file(path, content(content), raw.bytes(), where, "line " + where);
            }
            line = lines.next();
        }
        if (ports.isEmpty()) {
            if (!archive.isEmpty() && !allBlank(archive)) {
                sink.record();
                ports.strays().forEach(sink::reject);
                if (ports.strays().isEmpty()) {
                    sink.reject(new Rejection(archive.bytes(), RejectReason.NO_COUNTERS,
                        "archive holds no InfiniBand port counters (.../<dev>/ports/<n>/counters/<name>)", FORMAT, "archive"));
                }
            }
            return;
        }
        ports.finish(context, sink);
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

    private static boolean allBlank(final RawUnit raw) {
        for (final byte b : raw.bytes()) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return false;
            }
        }
        return true;
    }
}
