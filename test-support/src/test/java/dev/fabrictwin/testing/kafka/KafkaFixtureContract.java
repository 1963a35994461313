package dev.fabrictwin.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** What every {@link KafkaFixture} must do; one subclass per way of running Kafka. */
abstract class KafkaFixtureContract {

    abstract KafkaFixture kafka();

    @Test
    void shouldCreateTopicsWithTheRequestedPartitionsAndReplication() throws Exception {
        final String topic = kafka().uniqueTopic("contract-topic");
        kafka().createTopic(topic, 4, Map.of("cleanup.policy", "compact"));

        try (Admin admin = kafka().admin()) {
            final TopicDescription description =
                admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic);
            assertThat(description.partitions()).hasSize(4);
            assertThat(description.partitions())
                .allSatisfy(p -> assertThat(p.replicas()).hasSize(kafka().replicationFactor()));
        }
    }

    @Test
    void shouldDeliverEveryProducedRecordToAConsumer() {
        final String topic = kafka().uniqueTopic("contract-roundtrip");
        kafka().createTopic(topic, 3);
        final List<String> sent = IntStream.range(0, 1_000).mapToObj(i -> "value-" + i).toList();
        try (var producer = new KafkaProducer<>(kafka().producerConfig(), new StringSerializer(), new StringSerializer())) {
            sent.forEach(v -> producer.send(new ProducerRecord<>(topic, v, v)));
        }

        assertThat(values(consumeAll(topic, sent.size()))).containsExactlyInAnyOrderElementsOf(sent);
    }

    @Test
    void shouldHideAbortedTransactionsFromReadCommittedConsumers() {
        final String topic = kafka().uniqueTopic("contract-tx");
        kafka().createTopic(topic, 1);
        final Map<String, Object> config = kafka().producerConfig();
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, kafka().uniqueTopic("tx"));
        try (var producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            IntStream.range(0, 10).forEach(i -> producer.send(new ProducerRecord<>(topic, "committed-" + i)));
            producer.commitTransaction();
            producer.beginTransaction();
            IntStream.range(0, 5).forEach(i -> producer.send(new ProducerRecord<>(topic, "aborted-" + i)));
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "last"));
            producer.commitTransaction();
        }

        final List<String> read = values(consumeAll(topic, 11));
        assertThat(read).hasSize(11).doesNotContain("aborted-0").endsWith("last").startsWith("committed-0");
    }

    /** Reads until {@code expected} records arrived, failing after 60 s. */
    List<ConsumerRecord<String, String>> consumeAll(final String topic, final int expected) {
        return KafkaReads.readUntil(kafka().consumerConfig(), new StringDeserializer(), new StringDeserializer(),
            List.of(topic), read -> read.size() >= expected, Duration.ofSeconds(60));
    }

    private static List<String> values(final List<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).toList();
    }
}
