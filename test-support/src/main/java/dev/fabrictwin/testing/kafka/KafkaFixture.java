package dev.fabrictwin.testing.kafka;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

import dev.fabrictwin.kafka.common.KafkaTopics;

/**
 * A running Kafka cluster a test can use, whatever runs it (in-JVM or a container).
 * Tests depend on this interface, so the same test runs on either.
 */
public interface KafkaFixture {

    String bootstrapServers();

    int brokerCount();

    default short replicationFactor() {
        return (short) Math.min(3, brokerCount());
    }

    default Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
    }

    /** Creates a topic (or leaves an existing one) and waits for it. */
    default void createTopic(final String name, final int partitions) {
        createTopic(name, partitions, Map.of());
    }

    default void createTopic(final String name, final int partitions, final Map<String, String> configs) {
        try (Admin admin = admin()) {
            KafkaTopics.createAndAwait(admin, List.of(new NewTopic(name, partitions, replicationFactor()).configs(configs)));
        }
    }

    /** A topic name no other test in this JVM uses, so tests can share one cluster. */
    default String uniqueTopic(final String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Producer settings for byte-array keys and values; callers add serializers or override. */
    default Map<String, Object> producerConfig() {
        final Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        return config;
    }

    /** Consumer settings that read committed data from the beginning in a fresh group. */
    default Map<String, Object> consumerConfig() {
        final Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, uniqueTopic("test-group"));
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return config;
    }
}
