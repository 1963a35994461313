package dev.fabrictwin.evaluation;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.evaluation.harness.TempDirs;
import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.AlertJson;
import dev.fabrictwin.analyzer.runtime.AnalyzerApp;
import dev.fabrictwin.analyzer.topology.AnalyzerSettings;
import dev.fabrictwin.simulator.kafka.KafkaSimulationPublisher;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.kafka.embedded.EmbeddedKafka;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.contract.Topics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * {@code eval --kafka}: the scenario's cluster published to an embedded broker as fast as it goes, the analyzer
 * run on it exactly as {@code analyze} runs (exactly-once, lanes, dead letter), and every record of
 * {@code fabric.alerts} collected until the analysis has reached the scenario's end.
 */
final class KafkaEvaluation {

    /** With no progress in the analysis for this long, it has analyzed everything it will. */
    private static final Duration QUIET = Duration.ofSeconds(20);
    /** Before the first tick is analyzed: exactly-once start-up, global store restore, building the twin. */
    private static final Duration FIRST_TICK = Duration.ofMinutes(3);
    private static final Duration DEADLINE = Duration.ofMinutes(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private KafkaEvaluation() {
    }

    static List<Alert> alerts(final Scenario scenario, final SyntheticCluster cluster) throws Exception {
        final Path stateDir = Files.createTempDirectory("fabric-twin-eval-state");
        try (EmbeddedKafka kafka = EmbeddedKafka.startSingleBroker()) {
            final Properties client = new Properties();
            client.put("bootstrap.servers", kafka.bootstrapServers());
            final Topics topics = Topics.DEFAULT;
            KafkaSimulationPublisher.publish(cluster, client, topics, 0.0, rounds -> { });
            final Properties streams = new Properties();
            streams.putAll(client);
            streams.put(StreamsConfig.APPLICATION_ID_CONFIG, "fabric-twin-eval");
            streams.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
            final AnalyzerSettings settings = new AnalyzerSettings(topics,
                AnalyzerConfig.defaults(scenario.sampleInterval().toMillis()));
            final long lastTick = scenario.epoch().toEpochMilli() + scenario.duration().toMillis()
                - 2 * scenario.sampleInterval().toMillis();
            final List<Alert> alerts = new ArrayList<>();
            try (AnalyzerApp analyzer = AnalyzerApp.start(streams, settings, new SimpleMeterRegistry(), 0);
                 KafkaConsumer<String, byte[]> consumer = consumer(client, topics)) {
                long analyzedUpTo = Long.MIN_VALUE;
                long progressAt = System.nanoTime() + FIRST_TICK.toNanos() - QUIET.toNanos();
                final long deadline = System.nanoTime() + DEADLINE.toNanos();
                while (analyzedUpTo < lastTick && System.nanoTime() < deadline
                    && System.nanoTime() - progressAt < QUIET.toNanos()) {
                    for (final ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(250))) {
                        if (r.value() == null) {
                            continue;
                        }
                        if (r.topic().equals(topics.alerts())) {
                            alerts.add(AlertJson.read(r.value()));
                        } else {
                            final long ts = JSON.readTree(r.value()).path("ts").asLong();
                            if (ts > analyzedUpTo) {
                                analyzedUpTo = ts;
                                progressAt = System.nanoTime();
                            }
                        }
                    }
                }
                // what the last ticks published is committed with them: one more poll takes it
                for (final ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofSeconds(1))) {
                    if (r.value() != null && r.topic().equals(topics.alerts())) {
                        alerts.add(AlertJson.read(r.value()));
                    }
                }
            }
            return alerts;
        } finally {
            TempDirs.delete(stateDir);
        }
    }

    private static KafkaConsumer<String, byte[]> consumer(final Properties client, final Topics topics) {
        final Properties c = new Properties();
        c.putAll(client);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "fabric-twin-eval-" + UUID.randomUUID());
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        final KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(topics.alerts(), topics.jobHealth()));
        return consumer;
    }
}
