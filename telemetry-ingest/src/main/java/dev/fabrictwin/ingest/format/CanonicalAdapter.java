package dev.fabrictwin.ingest.format;

import java.io.IOException;
import java.io.InputStream;

import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * {@code --format canonical}: canonical sample JSON lines (what {@code simulate} writes), validated as they are read. A
 * key repeated in a line keeps its first value and is counted ({@link RepeatedKeys}), as in every format.
 */
public final class CanonicalAdapter implements FormatAdapter {

    @Override
    public String format() {
        return "canonical";
    }

    @Override
    public void parse(final InputStream in, final ParseContext context, final IngestSink sink) throws IOException {
        final LineReader lines = new LineReader(in, context.maxRecordBytes());
        final RepeatedKeys repeated = new RepeatedKeys();
        LineReader.Line line;
        while ((line = lines.next()) != null) {
            if (line.blank()) {
                continue;
            }
            sink.record();
            if (line.truncated()) {
                sink.reject(line.oversized(format()));
                continue;
            }
            repeated.clear();
            try {
                final byte[] bytes = line.bytes();
                Sample s = SampleJson.read(bytes, 0, bytes.length, repeated);
                if (context.device() != null && s.device().isBlank()) {
                    s = new Sample(s.ts(), context.device(), s.port(), s.source(), s.counters(), s.gauges());
                }
                SampleValidator.validate(s, context);
                sink.sample(s);
                repeated.report(sink);
            } catch (SampleFormatException e) {
                sink.reject(new Rejection(line.bytes(), e.reason(), e.getMessage(), format(), "line " + line.number()));
            }
        }
    }
}
