package dev.fabrictwin.ingest.kafka;

import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

import dev.fabrictwin.contract.DeadLetter;
import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.ingest.IngestStats;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.kafka.common.CheckedSends;
import dev.fabrictwin.kafka.common.ProducerSettings;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * Produces samples to {@code telemetry.samples} (key = device) and rejected input to
 * {@code telemetry.deadletter} (raw bytes, headers {@code error}, {@code source}, {@code offset}).
 * A refused record fails the next send, or {@link #checkErrors()}, with one line naming its topic and the broker's
 * reason ({@link CheckedSends}), never swallowed.
 */
public final class KafkaIngestSink implements IngestSink, AutoCloseable {

    private final Producer<String, byte[]> owned;
    private final CheckedSends<String, byte[]> sends;
    private final Topics topics;
    private final String source;
    private final IngestStats stats;

    public KafkaIngestSink(final Producer<String, byte[]> producer, final Topics topics, final String source,
                           final IngestStats stats) {
        this(producer, topics, source, stats, false);
    }

    private KafkaIngestSink(final Producer<String, byte[]> producer, final Topics topics, final String source,
                            final IngestStats stats, final boolean owns) {
        this.owned = owns ? producer : null;
        this.sends = new CheckedSends<>(producer);
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
        sends.send(new ProducerRecord<>(topics.samples().name(), sample.key(), SampleJson.writeBytes(sample)));
        stats.sample();
    }

    @Override
    public void reject(final Rejection r) {
        final RecordHeaders headers = new RecordHeaders();
        new DeadLetter(r.error(), source + ":" + r.format(), r.location()).addTo(headers);
        final ProducerRecord<String, byte[]> dead = new ProducerRecord<>(topics.deadLetter().name(), null, null, null,
            DeadLetter.fit(r.raw(), headers), headers);
        sends.send(dead);
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

    /**
     * A sink on a producer of its own to {@code client}'s Kafka, the topics created first (as {@code ingest
     * --bootstrap} writes): {@link #close} sends what is pending and fails on any record the broker refused.
     */
    public static KafkaIngestSink open(final Properties client, final Topics topics, final String source,
                                       final IngestStats stats) {
        TopicSetup.ensure(client, topics);
        return new KafkaIngestSink(new KafkaProducer<>(ProducerSettings.telemetry(client)), topics, source, stats, true);
    }

    /** Throws the first refusal reported so far, if any (after the producer's flush: of any record sent). */
    public void checkErrors() {
        sends.check();
    }

    /** With a producer of its own ({@link #open}): flushes it, closes it, and throws the first refusal, if any. */
    @Override
    public void close() {
        if (owned == null) {
            return;
        }
        try (owned) {
            owned.flush();
            checkErrors();
        }
    }
}
