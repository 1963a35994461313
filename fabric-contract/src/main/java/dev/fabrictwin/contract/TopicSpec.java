package dev.fabrictwin.contract;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import org.apache.kafka.clients.admin.NewTopic;
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

    @Override
    public String toString() {
        return name;
    }
}
