package dev.fabrictwin.streams.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.testing.kafka.KafkaClusterExtension;
import dev.fabrictwin.testing.kafka.KafkaReads;

/**
 * Proves the test harness end to end: a real in-JVM KRaft broker, 10,000 records, and a Kafka Streams
 * app with {@code exactly_once_v2} and a state store whose every output value is checked.
 */
class ExactlyOnceBrokerHarnessTest {

    @RegisterExtension
    static final KafkaClusterExtension KAFKA = KafkaClusterExtension.singleBroker();

    private static final int RECORDS = 10_000;
    private static final int KEYS = 100;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path stateDir;

    /** Each reading v becomes 3v + 1 (stateless), and every key's running sum is kept in a store (stateful). */
    static Topology topology(final String input, final String transformed, final String sums) {
        final StreamsBuilder builder = new StreamsBuilder();
        final var readings = builder.stream(input, Consumed.with(Serdes.String(), Serdes.Long()).withName("readings"));
        final var scaled = readings.mapValues(v -> 3 * v + 1, Named.as("scale"));
        scaled.to(transformed, Produced.with(Serdes.String(), Serdes.Long()).withName("transformed-sink"));
        scaled.groupByKey(Grouped.with("by-key", Serdes.String(), Serdes.Long()))
            .reduce(Long::sum, Named.as("running-sum"), Materialized.as("running-sum-store"))
            .toStream(Named.as("sums-stream"))
            .to(sums, Produced.with(Serdes.String(), Serdes.Long()).withName("sums-sink"));
        return builder.build();
    }

    @Test
    void shouldTransformEveryRecordExactlyOnceOnARealBroker() {
        final String input = KAFKA.uniqueTopic("harness-in");
        final String transformed = KAFKA.uniqueTopic("harness-out");
        final String sums = KAFKA.uniqueTopic("harness-sums");
        KAFKA.createTopic(input, 3);
        KAFKA.createTopic(transformed, 3);
        KAFKA.createTopic(sums, 3);

        try (var producer = new KafkaProducer<>(KAFKA.producerConfig(), new StringSerializer(), new LongSerializer())) {
            LongStream.range(0, RECORDS).forEach(i -> producer.send(new ProducerRecord<>(input, key(i), i)));
        }

        try (KafkaStreams streams = new KafkaStreams(topology(input, transformed, sums), streamsConfig())) {
            streams.start();

            final Map<Long, Long> outputs = consume(transformed, RECORDS).stream()
                .collect(Collectors.toMap(v -> (v - 1) / 3, v -> v, (a, b) -> {
                    throw new AssertionError("duplicate output " + a);
                }));
            assertThat(outputs).hasSize(RECORDS);
            LongStream.range(0, RECORDS).forEach(i -> assertThat(outputs.get(i)).isEqualTo(3 * i + 1));

            final Map<String, Long> finalSums = latestPerKey(sums);
            assertThat(finalSums).hasSize(KEYS);
            for (int k = 0; k < KEYS; k++) {
                final long kk = k;
                final long expected = LongStream.range(0, RECORDS).filter(i -> i % KEYS == kk).map(i -> 3 * i + 1).sum();
                assertThat(finalSums.get(key(k))).as("sum for %s", key(k)).isEqualTo(expected);
            }
            assertThat(streams.state()).isEqualTo(KafkaStreams.State.RUNNING);
        }
    }

    private Properties streamsConfig() {
        final Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, KAFKA.uniqueTopic("harness-app"));
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) KAFKA.replicationFactor());
        return props;
    }

    private static String key(final long i) {
        return "device-" + (i % KEYS);
    }

    /** Reads committed values until {@code expected} arrived, failing after 60 s. */
    private static List<Long> consume(final String topic, final int expected) {
        return KafkaReads.readUntil(KAFKA.consumerConfig(), new StringDeserializer(), new LongDeserializer(),
            List.of(topic), read -> read.size() >= expected, WAIT).stream().map(ConsumerRecord::value).toList();
    }

    /** The last committed value per key, once every key's sum has reached its final value (failing after 60 s). */
    private static Map<String, Long> latestPerKey(final String topic) {
        final long total = LongStream.range(0, RECORDS).map(i -> 3 * i + 1).sum();
        return latest(KafkaReads.readUntil(KAFKA.consumerConfig(), new StringDeserializer(), new LongDeserializer(),
            List.of(topic), read -> latest(read).values().stream().mapToLong(Long::longValue).sum() >= total, WAIT));
    }

    private static Map<String, Long> latest(final List<ConsumerRecord<String, Long>> records) {
        final Map<String, Long> latest = new HashMap<>();
        records.forEach(r -> latest.put(r.key(), r.value()));
        return latest;
    }
}
