package dev.fabrictwin.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class KafkaReadsTest {

    @RegisterExtension
    static final KafkaClusterExtension KAFKA = KafkaClusterExtension.singleBroker();

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** A one-partition topic holding {@code k0=v0 … k(n-1)=v(n-1)}. */
    private static String topicWith(final String prefix, final int n) throws Exception {
        final String topic = KAFKA.uniqueTopic(prefix);
        KAFKA.createTopic(topic, 1);
        try (var producer = new KafkaProducer<>(KAFKA.producerConfig(), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < n; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i)).get(30, TimeUnit.SECONDS);
            }
        }
        return topic;
    }

    private static List<String> values(final List<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).toList();
    }

    @Test
    void shouldReturnTheRecordsReadOnceTheConditionHolds() throws Exception {
        final String topic = topicWith("reads", 5);

        final List<ConsumerRecord<String, String>> read = KafkaReads.readUntil(KAFKA.consumerConfig(),
            new StringDeserializer(), new StringDeserializer(), List.of(topic), r -> r.size() >= 5, TIMEOUT);

        assertThat(values(read)).containsExactly("v0", "v1", "v2", "v3", "v4");
        assertThat(read).extracting(ConsumerRecord::key).containsExactly("k0", "k1", "k2", "k3", "k4");
    }

    @Test
    void shouldReadOnWhereTheLastReadStoppedOnTheSameConsumer() throws Exception {
        final String topic = topicWith("reads-on", 2);
        try (var consumer = new KafkaConsumer<>(KAFKA.consumerConfig(), new StringDeserializer(), new StringDeserializer());
             var producer = new KafkaProducer<>(KAFKA.producerConfig(), new StringSerializer(), new StringSerializer())) {
            consumer.subscribe(List.of(topic));

            final List<ConsumerRecord<String, String>> first = KafkaReads.readUntil(consumer, r -> r.size() >= 2, TIMEOUT);
            producer.send(new ProducerRecord<>(topic, "k2", "v2")).get(30, TimeUnit.SECONDS);
            producer.send(new ProducerRecord<>(topic, "k3", "v3")).get(30, TimeUnit.SECONDS);
            final List<ConsumerRecord<String, String>> rest = KafkaReads.readUntil(consumer, r -> r.size() >= 2, TIMEOUT);

            // nothing read twice, nothing skipped
            assertThat(values(first)).containsExactly("v0", "v1");
            assertThat(values(rest)).containsExactly("v2", "v3");
        }
    }

    @Test
    void shouldNotPollWhenTheConditionHoldsAtOnce() throws Exception {
        final String topic = topicWith("reads-none", 1);

        final List<ConsumerRecord<String, String>> read = KafkaReads.readUntil(KAFKA.consumerConfig(),
            new StringDeserializer(), new StringDeserializer(), List.of(topic), r -> true, TIMEOUT);

        assertThat(read).isEmpty();
    }

    @Test
    void shouldFailSayingWhatItReadWhenTheTimeoutPasses() throws Exception {
        final String topic = topicWith("reads-short", 2);

        assertThatThrownBy(() -> KafkaReads.readUntil(KAFKA.consumerConfig(), new StringDeserializer(),
            new StringDeserializer(), List.of(topic), r -> r.size() >= 3, Duration.ofSeconds(3)))
            .isInstanceOf(AssertionError.class)
            .hasMessage("readUntil: condition still false after 3000 ms; 2 records read from [" + topic + "]; the last: "
                + topic + "-0@0 k0=v0, " + topic + "-0@1 k1=v1");
    }
}
