package dev.fabrictwin.ingest;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.twin.telemetry.Sample;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * {@code ingest --output -}: canonical JSON lines to a stream; rejected units to a {@code .rejected} file as
 * {@code {"error":..,"source":..,"offset":..,"raw":<base64>}} lines, so nothing is lost.
 */
public final class StreamSinks implements IngestSink {

    private final OutputStream out;
    private final OutputStream rejected;
    private final String source;
    private final IngestStats stats;

    public StreamSinks(final OutputStream out, final OutputStream rejected, final String source, final IngestStats stats) {
        this.out = out;
        this.rejected = rejected;
        this.source = source;
        this.stats = stats;
    }

    @Override
    public void record() {
        stats.record();
    }

    @Override
    public void sample(final Sample sample) {
        try {
            out.write(SampleJson.writeBytes(sample));
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        stats.sample();
    }

    @Override
    public void reject(final Rejection r) {
        final var node = JsonNodeFactory.instance.objectNode();
        node.put("error", r.error());
        node.put("source", source + ":" + r.format());
        node.put("offset", r.location());
        node.put("raw", Base64.getEncoder().encodeToString(r.raw()));
        try {
            rejected.write(node.toString().getBytes(StandardCharsets.UTF_8));
            rejected.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        stats.reject(r.reason());
    }

    @Override
    public void dropped(final String reason) {
        stats.dropped(reason);
    }

    @Override
    public void warn(final String message) {
        stats.warn(message);
    }
}
