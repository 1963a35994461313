package dev.fabrictwin.ingest.kafka;

import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

import dev.fabrictwin.contract.DeadLetter;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.ingest.IngestStats;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.twin.telemetry.Sample;
import dev.fabrictwin.twin.telemetry.SampleJson;

/**
 * Produces samples to {@code telemetry.samples} (key = device) and rejected input to
 * {@code telemetry.deadletter} (raw bytes, headers {@code error}, {@code source}, {@code offset}).
 * A send failure is remembered and rethrown by {@link #checkErrors()}, never swallowed.
 */
public final class KafkaIngestSink implements IngestSink {

    private final Producer<String, byte[]> producer;
    private final Topics topics;
    private final String source;
    private final IngestStats stats;
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    public KafkaIngestSink(final Producer<String, byte[]> producer, final Topics topics, final String source,
                           final IngestStats stats) {
        this.producer = producer;
        this.topics = topics;
        this.source = source;
        this.stats = stats;
    }

    @Override
    public void record() {
        stats.record();
    }

    @Override
    public void sample(final Sample sample) {
        checkErrors();
        producer.send(new ProducerRecord<>(topics.samples().name(), sample.key(), SampleJson.writeBytes(sample)), this::onSend);
        stats.sample();
    }

    @Override
    public void reject(final Rejection r) {
        checkErrors();
        final RecordHeaders headers = new RecordHeaders();
        new DeadLetter(r.error(), source + ":" + r.format(), r.location()).addTo(headers);
        final ProducerRecord<String, byte[]> dead = new ProducerRecord<>(topics.deadLetter().name(), null, null, null,
            DeadLetter.fit(r.raw(), headers), headers);
        producer.send(dead, this::onSend);
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

    private void onSend(final org.apache.kafka.clients.producer.RecordMetadata m, final Exception e) {
        if (e != null) {
            failure.compareAndSet(null, e);
        }
    }

    /** Throws the first asynchronous send failure, if any. */
    public void checkErrors() {
        final Exception e = failure.get();
        if (e != null) {
            throw new IllegalStateException("producing to Kafka failed: " + e.getMessage(), e);
        }
    }
}
