package dev.fabrictwin.ingest.format.support;

import java.util.ArrayList;
import java.util.List;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.LineReader;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;

/**
 * One multi-line unit of a text format while it is read (an ethtool dump, a Prometheus scrape): its raw bytes,
 * the lines it spans and the rejections of single lines. Those rejections wait for the unit's end, because an
 * oversized unit or one without a device is rejected whole instead.
 */
public final class LineUnit {

    private final String format;
    private final String kind;
    private final String noDevice;
    private final ParseContext context;
    private final RawUnit raw;
    private final List<Rejection> pending = new ArrayList<>();
    private long firstLine = -1;
    private long lastLine;

    /**
     * @param kind     what messages call the unit ({@code "dump"}, {@code "scrape"})
     * @param noDevice the MISSING_DEVICE message: the format names no host, so the context must
     */
    public LineUnit(final String format, final String kind, final String noDevice, final ParseContext context) {
        this.format = format;
        this.kind = kind;
        this.noDevice = noDevice;
        this.context = context;
        this.raw = new RawUnit(context.maxRecordBytes());
    }

    /** A line of the unit's content: kept in its raw bytes and in the span of lines it reports. */
    public void addLine(final LineReader.Line line) {
        raw.addLine(line.bytes());
        if (firstLine < 0) {
            firstLine = line.number();
        }
        lastLine = line.number();
    }

    /** A blank line: kept in the raw bytes only. */
    public void addBlank(final LineReader.Line line) {
        raw.addLine(line.bytes());
    }

    /** Whether any content line was added. */
    public boolean any() {
        return firstLine >= 0;
    }

    public RawUnit raw() {
        return raw;
    }

    /** Rejects one line of the unit, reported when the unit ends. */
    public void reject(final LineReader.Line line, final SampleFormatException e) {
        pending.add(new Rejection(line.bytes(), e.reason(), e.getMessage(), format, "line " + line.number()));
    }

    /** Rejects one line that was cut at the record limit. */
    public void rejectOversized(final LineReader.Line line) {
        pending.add(line.oversized(format));
    }

    public boolean hasRejections() {
        return !pending.isEmpty();
    }

    /** {@code line 3} or {@code lines 3-40}. */
    public String where() {
        return firstLine == lastLine ? "line " + firstLine : "lines " + firstLine + "-" + lastLine;
    }

    /** Rejects the whole unit with its raw bytes and span. */
    public void rejectWhole(final IngestSink sink, final RejectReason reason, final String message) {
        sink.reject(new Rejection(raw.bytes(), reason, message, format, where()));
    }

    /**
     * Reports the end of the unit up to its samples: counts it as one record, rejects it whole when it is larger
     * than the record limit or no device is given, else reports its single-line rejections. Returns the device
     * the samples are for, or null when there is nothing more to report (no content, or rejected whole).
     */
    public String finish(final IngestSink sink) {
        if (!open(sink)) {
            return null;
        }
        final String device = context.device();
        if (device == null || device.isBlank()) {
            rejectWhole(sink, RejectReason.MISSING_DEVICE, noDevice);
            return null;
        }
        pending.forEach(sink::reject);
        return device;
    }

    /**
     * As {@link #finish}, for a unit whose data names its own devices (infiniband_exporter's GUIDs and node
     * descriptions): no device is needed from the context. Returns whether samples may follow (false: no content,
     * or rejected whole as oversized).
     */
    public boolean finishNamed(final IngestSink sink) {
        if (!open(sink)) {
            return false;
        }
        pending.forEach(sink::reject);
        return true;
    }

    /** The message a unit without device is rejected with ({@code --device} missing). */
    public String noDeviceMessage() {
        return noDevice;
    }

    /** Counts the unit as a record; false when it has no content or was rejected whole as oversized. */
    private boolean open(final IngestSink sink) {
        if (!any()) {
            return false;
        }
        sink.record();
        if (raw.oversized()) {
            rejectWhole(sink, RejectReason.OVERSIZED, kind + " of " + raw.size() + " bytes is larger than "
                + context.maxRecordBytes() + " bytes");
            return false;
        }
        return true;
    }
}
