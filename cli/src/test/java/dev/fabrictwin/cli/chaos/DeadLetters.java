package dev.fabrictwin.cli.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import dev.fabrictwin.contract.DeadLetter;
import dev.fabrictwin.contract.Topics;

/**
 * The dead letters a run committed, as their reasons. The chaos input holds no bad record, so each one is a good
 * record the analysis set aside because of what happened around it (a send failing while a broker restarts, say):
 * a sample lost, its port's next interval spanning it.
 */
final class DeadLetters {

    private DeadLetters() {
    }

    static List<String> reasons(final Properties client, final Topics topics) {
        final Properties c = new Properties();
        c.putAll(client);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "dead-letters-" + UUID.randomUUID());
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        final List<String> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            final String topic = topics.deadLetter().name();
            final List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            final long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp)) && System.nanoTime() < deadline) {
                for (final ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    out.add(DeadLetter.from(r.headers()).map(d -> d.source() + " " + d.offset() + ": " + d.error())
                        .orElse("a record without dead-letter headers at " + r.partition() + "@" + r.offset()));
                }
            }
        }
        return out;
    }
}
