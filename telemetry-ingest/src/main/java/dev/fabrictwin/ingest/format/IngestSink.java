package dev.fabrictwin.ingest.format;

import dev.fabrictwin.twin.telemetry.Sample;

/** Where an adapter delivers what it read: samples, and rejected input units with their reason. */
public interface IngestSink {

    /** One input unit (line, object, document) was read; counted as "records in". */
    void record();

    void sample(Sample sample);

    void reject(Rejection rejection);
}
