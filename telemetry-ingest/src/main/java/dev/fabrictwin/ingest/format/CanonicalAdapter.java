package dev.fabrictwin.ingest.format;

import java.io.IOException;
import java.io.InputStream;

import dev.fabrictwin.twin.telemetry.Sample;
import dev.fabrictwin.twin.telemetry.SampleFormatException;
import dev.fabrictwin.twin.telemetry.SampleJson;

/** {@code --format canonical}: canonical sample JSON lines (what {@code simulate} writes), validated as they are read. */
public final class CanonicalAdapter implements FormatAdapter {

    @Override
    public String format() {
        return "canonical";
    }

    @Override
    public void parse(final InputStream in, final ParseContext context, final IngestSink sink) throws IOException {
        final LineReader lines = new LineReader(in, context.maxRecordBytes());
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
            try {
                Sample s = SampleJson.read(line.bytes());
                if (context.device() != null && s.device().isBlank()) {
                    s = new Sample(s.ts(), context.device(), s.port(), s.source(), s.counters(), s.gauges());
                }
                SampleValidator.validate(s, context);
                sink.sample(s);
            } catch (SampleFormatException e) {
                sink.reject(new Rejection(line.bytes(), e.reason(), e.getMessage(), format(), "line " + line.number()));
            }
        }
    }
}
