package dev.fabrictwin.contract;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serde;

/**
 * One topic of the wire contract (docs/contracts.md, Topics): its name, the serdes of its keys and values, its layout
 * and who writes it. Readers and writers take the serdes from here, so a topic's shape is spelled once.
 *
 * @param writtenBy the component that produces it, for docs and error messages
 */
public record TopicSpec<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde, int partitions, Cleanup cleanup,
                              String writtenBy) {

    /** {@code cleanup.policy}: a log of events, or the latest value per key (tombstones delete). */
    public enum Cleanup {
        DELETE, COMPACT;

        public String config() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public TopicSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keySerde, "keySerde");
        Objects.requireNonNull(valueSerde, "valueSerde");
        Objects.requireNonNull(cleanup, "cleanup");
        if (partitions < 1) {
            throw new IllegalArgumentException("topic " + name + " needs at least one partition, was " + partitions);
        }
    }

    /** The topic as the admin client creates it, with {@code replicationFactor} replicas. */
    public NewTopic newTopic(final short replicationFactor) {
        final NewTopic t = new NewTopic(name, partitions, replicationFactor);
        return cleanup == Cleanup.COMPACT ? t.configs(Map.of("cleanup.policy", cleanup.config())) : t;
    }

    /** A producer of this topic's records, with its serdes ({@code config} names no serializers). */
    public KafkaProducer<K, V> producer(final Properties config) {
        return new KafkaProducer<>(config, keySerde.serializer(), valueSerde.serializer());
    }

    /** A consumer of this topic's records, with its serdes: a value its serde refuses fails the poll. */
    public KafkaConsumer<K, V> consumer(final Properties config) {
        return new KafkaConsumer<>(config, keySerde.deserializer(), valueSerde.deserializer());
    }

    /**
     * The record of {@code key} and {@code value} (null: a tombstone) encoded by this topic's value serde, for one
     * producer of already encoded values writing several topics (the simulator's, whose samples go out pre-encoded).
     */
    public ProducerRecord<K, byte[]> encoded(final K key, final V value) {
        return new ProducerRecord<>(name, key, valueSerde.serializer().serialize(name, value));
    }

    @Override
    public String toString() {
        return name;
    }
}
