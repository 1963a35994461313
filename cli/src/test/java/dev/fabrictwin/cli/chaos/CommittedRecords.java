package dev.fabrictwin.cli.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Consumer;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import dev.fabrictwin.testing.kafka.KafkaReads;

/** Every committed record of some topics, from their start to the end they had when asked, as the chaos test reads back. */
final class CommittedRecords {

    private CommittedRecords() {
    }

    /** Hands {@code each} every committed record of {@code topics}' partitions, failing after {@code limit}. */
    static void read(final Properties client, final Collection<String> topics, final Duration limit,
                     final Consumer<ConsumerRecord<byte[], byte[]>> each) {
        final Properties c = new Properties();
        c.putAll(client);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "read-back-" + UUID.randomUUID());
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            final List<TopicPartition> partitions = new ArrayList<>();
            for (final String topic : topics) {
                consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            KafkaReads.readUntil(consumer, read -> partitions.stream().allMatch(tp -> consumer.position(tp) >= ends.get(tp)),
                limit).forEach(each);
        }
    }
}
