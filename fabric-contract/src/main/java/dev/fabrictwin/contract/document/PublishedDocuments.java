package dev.fabrictwin.contract.document;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;

import dev.fabrictwin.contract.TopicSpec;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.twin.scenario.FabricDocuments;

/**
 * The fabric as it runs, read from Kafka: the latest value of every key of the compacted document topics
 * ({@code fabric.topology}, {@code fabric.jobs}), committed records only, read from the start to the end the topic had
 * when the read began. Memory: one document per key (one per fabric, one per running job).
 */
public final class PublishedDocuments {

    /** How long reading a document topic to its end may take before the command gives up. */
    public static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    private PublishedDocuments() {
    }

    /**
     * The topology document of {@code fabricId} (null: the only one published) and every running job's document,
     * checked as the analyzer reads them; what is missing or unusable is a {@link DocumentsUnavailableException} saying so.
     */
    public static FabricDocuments read(final Properties client, final Topics topics, final String fabricId) {
        final String topologyTopic = topics.topology().name();
        final Map<String, JsonNode> topologies = new TreeMap<>(latest(client, topics.topology()));
        if (topologies.isEmpty()) {
            throw new DocumentsUnavailableException("no topology document on " + topologyTopic + " (publish one with 'topology import "
                + "--bootstrap' or 'simulate --bootstrap')", null);
        }
        final String id;
        if (fabricId != null) {
            if (!topologies.containsKey(fabricId)) {
                throw new DocumentsUnavailableException("no topology document for fabric '" + fabricId + "' on " + topologyTopic
                    + " (it has: " + String.join(", ", topologies.keySet()) + ")", null);
            }
            id = fabricId;
        } else if (topologies.size() > 1) {
            // the caller's choice to make: a usage error
            throw new IllegalArgumentException(topologyTopic + " holds " + topologies.size() + " fabrics (" + String.join(", ",
                topologies.keySet()) + "): name one with --fabric ID");
        } else {
            id = topologies.keySet().iterator().next();
        }
        final String jobsTopic = topics.jobs().name();
        final List<JsonNode> jobs = new ArrayList<>(new TreeMap<>(latest(client, topics.jobs())).values());
        try {
            return FabricDocuments.of(topologyTopic + " (fabric " + id + ")", id, topologies.get(id), jobsTopic, jobs);
        } catch (IllegalArgumentException e) {
            throw new DocumentsUnavailableException(e.getMessage(), e);
        }
    }

    /** Each key's latest document on {@code spec} (a tombstone removes its key); one its serde refuses fails the read. */
    public static Map<String, JsonNode> latest(final Properties client, final TopicSpec<String, ? extends JsonDocument> spec) {
        final String topic = spec.name();
        final Properties p = new Properties();
        p.putAll(client);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        final Map<String, JsonNode> documents = new HashMap<>();
        try (KafkaConsumer<String, ? extends JsonDocument> c = spec.consumer(p)) {
            if (!readToEnd(c, topic, r -> {
                if (r.value() == null) {
                    documents.remove(r.key());
                } else {
                    documents.put(r.key(), r.value().json());
                }
            })) {
                throw new DocumentsUnavailableException("no topic " + topic + " on the brokers (is --bootstrap the cluster the analyzer "
                    + "uses, and --topic-prefix its prefix?)", null);
            }
        }
        return documents;
    }

    /**
     * Every record of {@code topic}, from its start to the end it had when the read began, to {@code each}, within
     * {@link #READ_TIMEOUT} (else a {@link DocumentsUnavailableException}); false when the brokers have no such topic.
     */
    public static <V> boolean readToEnd(final KafkaConsumer<String, V> c, final String topic,
                                 final Consumer<ConsumerRecord<String, V>> each) {
        final List<PartitionInfo> infos = c.partitionsFor(topic, READ_TIMEOUT);
        if (infos == null || infos.isEmpty()) {
            return false;
        }
        final List<TopicPartition> parts = infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
        c.assign(parts);
        c.seekToBeginning(parts);
        final Map<TopicPartition, Long> end = c.endOffsets(parts, READ_TIMEOUT);
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READ_TIMEOUT.toMillis());
        while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
            if (System.nanoTime() > deadline) {
                throw new DocumentsUnavailableException("could not read " + topic + " to its end within " + READ_TIMEOUT.toSeconds()
                    + " s", null);
            }
            poll(c, topic).forEach(each);
        }
        return true;
    }

    private static <V> ConsumerRecords<String, V> poll(final KafkaConsumer<String, V> c, final String topic) {
        try {
            return c.poll(Duration.ofMillis(200));
        } catch (RecordDeserializationException e) {
            final String key = e.keyBuffer() == null ? "?" : StandardCharsets.UTF_8.decode(e.keyBuffer()).toString();
            final String why = e.getCause() == null ? e.getMessage() : e.getCause().getMessage();
            throw new DocumentsUnavailableException(topic + ": the document of '" + key + "' is " + why, e);
        }
    }
}
