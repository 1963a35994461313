package dev.fabrictwin.ingest.format;

import dev.fabrictwin.twin.telemetry.Sample;

/** Where an adapter delivers what it read: samples, and rejected input units with their reason. */
public interface IngestSink {

    /** One input unit (line, object, document) was read; counted as "records in". */
    void record();

    void sample(Sample sample);

    void reject(Rejection rejection);

    /**
     * One value of an otherwise good sample was left out on purpose, for {@code reason} (a code such as
     * {@code speed-unknown}): counted in the summary, never dropped silently.
     */
    void dropped(String reason);

    /**
     * Something the operator should know about input that was still read (a dump with no byte counters): one line,
     * the same text for the same cause so the summary can say it once with its count.
     */
    void warn(String message);
}
