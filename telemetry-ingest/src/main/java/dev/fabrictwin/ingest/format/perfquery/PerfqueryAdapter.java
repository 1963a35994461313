package dev.fabrictwin.ingest.format.perfquery;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.ingest.format.CounterMapping;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.LineReader;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.ingest.format.SampleValidator;
import dev.fabrictwin.ingest.format.support.RawUnit;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * {@code --format perfquery}: InfiniBand {@code perfquery} output ({@code -x} extended counters, {@code -E}
 * PortRcvErrorDetails, {@code -D} PortXmitDiscardDetails, the default block). Each block starts with a header
 * such as {@code # Port extended counters: Lid <L> port <P> ...} or {@code # PortRcvErrorDetails counters: Lid <L>
 * port <P>} and holds dot-padded {@code Name:....value} lines;
 * a block is one input unit and one sample. Device: {@code --device}, else {@code lid-<L>} (the LID names the
 * device within its subnet); port: {@code <P>}. Values are decimal counters ({@code 0x} selectors are dropped
 * by the mapping); data counters are 4-byte words (scale 4 in {@code mappings/perfquery.tsv}). A counter named twice
 * in a block keeps its first value; the repeat is counted and named ({@link RepeatedKeys}).
 */
public final class PerfqueryAdapter implements FormatAdapter {

    public static final String FORMAT = "perfquery";

    /**
     * Any perfquery block header: {@code # Port counters:} (default), {@code # Port extended counters:} ({@code -x}),
     * {@code # PortRcvErrorDetails counters:} ({@code -E}), {@code # PortXmitDiscardDetails counters:} ({@code -D}),
     * ... — each names its LID and port.
     */
    private static final Pattern HEADER = Pattern.compile("#\\s*Port[A-Za-z ]*?\\s*counters:\\s*Lid\\s+(\\d+)\\s+port\\s+(\\d+).*");
    private static final Pattern COUNTER = Pattern.compile("([A-Za-z0-9_]+):\\.*\\s*(\\S+)\\s*");

    private final CounterMapping mapping = CounterMapping.forFormat(FORMAT);

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public void parse(final InputStream in, final ParseContext context, final IngestSink sink) throws IOException {
        final LineReader lines = new LineReader(in, context.maxRecordBytes());
        Block block = null;
        LineReader.Line line;
        while ((line = lines.next()) != null) {
            if (line.blank()) {
                continue;
            }
            final Matcher header = HEADER.matcher(line.text());
            if (header.matches() || block == null) {
                finish(block, context, sink);
                block = new Block(line.number(), header.matches() ? header.group(1) : null,
                    header.matches() ? header.group(2) : null, context.maxRecordBytes());
            }
            block.add(line);
        }
        finish(block, context, sink);
    }

    private void finish(final Block block, final ParseContext context, final IngestSink sink) {
        if (block == null) {
            return;
        }
        sink.record();
        final byte[] raw = block.raw.bytes();
        try {
            sink.sample(block.sample(context, mapping));
            // a counter named twice: the first value stood; counters the mapping drops are no keys of the sample
            RepeatedKeys.report(sink, block.repeats.stream().filter(name -> mapping.map(name).name() != null).toList());
        } catch (SampleFormatException e) {
            sink.reject(new Rejection(raw, e.reason(), e.getMessage(), FORMAT, "line " + block.firstLine));
        }
    }

    /** One port's lines, kept raw (up to the record limit) for the dead letter. */
    private static final class Block {
        final long firstLine;
        final String lid;
        final String port;
        final RawUnit raw;
        final Map<String, String> values = new LinkedHashMap<>();
        /** Counters the block names again (the first value stands). */
        final List<String> repeats = new ArrayList<>(0);
        String malformed;
        boolean oversized;

        Block(final long firstLine, final String lid, final String port, final int limit) {
            this.firstLine = firstLine;
            this.lid = lid;
            this.port = port;
            this.raw = new RawUnit(limit);
        }

        void add(final LineReader.Line line) {
            raw.addLine(line.bytes());
            oversized |= line.truncated() || raw.oversized();
            if (oversized) {
                return; // rejected whole: parsing more of it would only grow memory with the input
            }
            final String text = line.text();
            if (text.startsWith("#")) {
                return;
            }
            final Matcher m = COUNTER.matcher(text);
            if (m.matches()) {
                if (values.putIfAbsent(m.group(1), m.group(2)) != null) {
                    repeats.add(m.group(1));
                }
            } else if (malformed == null) {
                malformed = "'" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "' is not a Name:....value line";
            }
        }

        Sample sample(final ParseContext context, final CounterMapping mapping) throws SampleFormatException {
            if (raw.oversized()) {
                throw new SampleFormatException(RejectReason.OVERSIZED, "block of " + raw.size() + " bytes is larger than "
                    + context.maxRecordBytes() + " bytes");
            }
            if (oversized) {
                throw new SampleFormatException(RejectReason.OVERSIZED, "a line exceeds " + context.maxRecordBytes() + " bytes");
            }
            if (port == null) {
                throw new SampleFormatException(RejectReason.MISSING_PORT,
                    "no '# Port... counters: Lid L port P' header before the counters");
            }
            if (malformed != null) {
                throw new SampleFormatException(RejectReason.MALFORMED, malformed);
            }
            final String device = context.device() != null ? context.device() : "lid-" + lid;
            final Map<String, Long> counters = new LinkedHashMap<>();
            for (final var e : values.entrySet()) {
                final CounterMapping.Mapped mapped = mapping.map(e.getKey());
                if (mapped.name() == null) {
                    continue;
                }
                final long value = SampleJson.parseUnsigned(e.getValue(), e.getKey());
                counters.putIfAbsent(mapped.name(), value * mapped.scale());
            }
            final Sample s = new Sample(context.defaultTimestamp(), device, port, FORMAT, counters, Map.of());
            SampleValidator.validate(s, context);
            return s;
        }
    }
}
