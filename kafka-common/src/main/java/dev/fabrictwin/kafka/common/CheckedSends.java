package dev.fabrictwin.kafka.common;

import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Every send a command makes, checked: the first record the broker refuses (no ACL for its topic, over the record
 * limit, a topic gone) is kept and thrown as one line naming the topic and the broker's reason, so the command fails
 * instead of exiting 0 without it. Sends stay asynchronous; a refusal surfaces at the next send or at
 * {@link #flush()}.
 */
public final class CheckedSends<K, V> {

    private final Producer<K, V> producer;
    private final AtomicReference<KafkaAccessException> refused = new AtomicReference<>();

    public CheckedSends(final Producer<K, V> producer) {
        this.producer = producer;
    }

    /** Sends {@code record}; throws a refusal of an earlier record first. */
    public void send(final ProducerRecord<K, V> record) {
        check();
        producer.send(record, (metadata, e) -> {
            if (e != null) {
                refused.compareAndSet(null, refusal(record, e));
            }
        });
    }

    /** Waits until everything sent is acknowledged, then throws the first refusal, if any. */
    public void flush() {
        producer.flush();
        check();
    }

    /** Throws the first refusal reported so far, if any. */
    public void check() {
        final KafkaAccessException e = refused.get();
        if (e != null) {
            throw e;
        }
    }

    static KafkaAccessException refusal(final ProducerRecord<?, ?> record, final Exception e) {
        return new KafkaAccessException("Kafka refused a record on " + record.topic()
            + (record.key() == null ? "" : " (key " + record.key() + ")") + ": " + e.getClass().getSimpleName() + ": "
            + e.getMessage(), e);
    }
}
