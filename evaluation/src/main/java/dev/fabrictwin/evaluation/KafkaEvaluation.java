package dev.fabrictwin.evaluation;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.topology.AnalyzerSettings;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.evaluation.harness.AnalyzerHarness;
import dev.fabrictwin.kafka.embedded.EmbeddedKafka;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.simulator.kafka.KafkaSimulationPublisher;
import dev.fabrictwin.twin.scenario.Scenario;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * {@code eval --kafka}: the scenario's cluster published to an embedded broker as fast as it goes, the analyzer
 * run on it exactly as {@code analyze} runs (the {@link AnalyzerHarness}), and every record of
 * {@code fabric.alerts} collected until the analysis has reached the scenario's end.
 */
final class KafkaEvaluation {

    /** With no progress in the analysis for this long, it has analyzed everything it will. */
    private static final Duration QUIET = Duration.ofSeconds(20);
    /** Before the first tick is analyzed: exactly-once start-up, global store restore, building the twin. */
    private static final Duration FIRST_TICK = Duration.ofMinutes(3);
    private static final Duration DEADLINE = Duration.ofMinutes(30);

    private KafkaEvaluation() {
    }

    static List<Alert> alerts(final Scenario scenario, final SyntheticCluster cluster, final int shards) throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.startSingleBroker()) {
            final Properties client = new Properties();
            client.put("bootstrap.servers", kafka.bootstrapServers());
            final Topics topics = Topics.DEFAULT;
            KafkaSimulationPublisher.publish(cluster, client, topics, 0.0, rounds -> { });
            final AnalyzerSettings settings = new AnalyzerSettings(topics,
                AnalyzerConfig.defaults(scenario.sampleInterval().toMillis())).withShards(shards);
            final long lastTick = scenario.epoch().toEpochMilli() + scenario.duration().toMillis()
                - 2 * scenario.sampleInterval().toMillis();
            try (AnalyzerHarness analyzer = AnalyzerHarness.start(client, settings, "fabric-twin-eval",
                new SimpleMeterRegistry(), 0)) {
                return analyzer.readUntil(out -> out.latestEventMs() >= lastTick, FIRST_TICK, QUIET, DEADLINE).alerts();
            }
        }
    }
}
