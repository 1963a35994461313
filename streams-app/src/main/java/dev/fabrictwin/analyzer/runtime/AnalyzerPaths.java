package dev.fabrictwin.analyzer.runtime;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import dev.fabrictwin.analyzer.topology.LearnedPaths;
import dev.fabrictwin.contract.document.DocumentsUnavailableException;
import dev.fabrictwin.contract.document.PublishedDocuments;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.workload.PinSpec;

/**
 * The paths a running analyzer learned, for the what-if: the latest learned section of each of its checkpoints (one
 * per analysis task: several when sharded), read off the checkpoint store's changelog like {@link PublishedDocuments}
 * reads a document topic (committed records, to the end the topic had when the read began, within
 * {@link PublishedDocuments#READ_TIMEOUT}). Nothing to read is no error: the what-if then hashes as a scenario does.
 * Memory: the changelog's latest value per key of every partition (one checkpoint each, in chunks).
 */
public final class AnalyzerPaths {

    /**
     * The checkpoints' pins; {@code checkpoints} 0 when there was none to read, and {@code none} says why.
     * {@code atMs}: the event time of the latest learned section read.
     */
    public record Found(String topic, List<PinSpec> pins, int dropped, int checkpoints, long atMs, String none) {
        public Found {
            pins = List.copyOf(pins);
        }

        static Found none(final String topic, final String why) {
            return new Found(topic, List.of(), 0, 0, 0, why);
        }

        public Instant at() {
            return Instant.ofEpochMilli(atMs);
        }
    }

    private AnalyzerPaths() {
    }

    /** The pins the analyzer {@code applicationId} learned, named as on {@code fabric}. */
    public static Found read(final Properties client, final String applicationId, final Fabric fabric) {
        final String topic = LearnedPaths.changelogTopic(applicationId);
        final Map<Integer, Map<String, ConsumerRecord<String, byte[]>>> latest;
        try {
            final Optional<Map<Integer, Map<String, ConsumerRecord<String, byte[]>>>> read = latest(client, topic);
            if (read.isEmpty()) {
                return Found.none(topic, "no analyzer checkpoint on " + topic);
            }
            latest = read.get();
        } catch (KafkaException | DocumentsUnavailableException e) {
            return Found.none(topic, "cannot read " + topic + ": " + e.getMessage());
        }
        final List<PinSpec> pins = new ArrayList<>();
        int dropped = 0;
        int checkpoints = 0;
        long atMs = Long.MIN_VALUE;
        for (final Map<String, ConsumerRecord<String, byte[]>> partition : latest.values()) {
            final Map<String, byte[]> store = new HashMap<>();
            partition.forEach((k, r) -> store.put(k, r.value()));
            final Optional<LearnedPaths.Read> learned = LearnedPaths.read(store, fabric);
            if (learned.isPresent()) {
                pins.addAll(learned.get().pins());
                dropped += learned.get().dropped();
                checkpoints++;
                atMs = Math.max(atMs, partition.get(LearnedPaths.sectionKey()).timestamp());
            }
        }
        return checkpoints == 0 ? Found.none(topic, "no analyzer checkpoint on " + topic)
            : new Found(topic, pins, dropped, checkpoints, atMs, null);
    }

    /** Each partition's latest record per key (a tombstone removes its key); empty when the topic does not exist. */
    private static Optional<Map<Integer, Map<String, ConsumerRecord<String, byte[]>>>> latest(final Properties client,
                                                                                           final String topic) {
        final Properties p = new Properties();
        p.putAll(client);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        final Map<Integer, Map<String, ConsumerRecord<String, byte[]>>> out = new HashMap<>();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(p, new StringDeserializer(),
            new ByteArrayDeserializer())) {
            final boolean exists = PublishedDocuments.readToEnd(c, topic, r -> {
                final Map<String, ConsumerRecord<String, byte[]>> keys = out.computeIfAbsent(r.partition(),
                    k -> new HashMap<>());
                if (r.value() == null) {
                    keys.remove(r.key());
                } else {
                    keys.put(r.key(), r);
                }
            });
            if (!exists) {
                return Optional.empty();
            }
        }
        return Optional.of(out);
    }
}
