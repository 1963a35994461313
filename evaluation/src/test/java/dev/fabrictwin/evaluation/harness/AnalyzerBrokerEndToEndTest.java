package dev.fabrictwin.evaluation.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.topology.AnalyzerSettings;
import dev.fabrictwin.contract.DeadLetter;
import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.simulator.kafka.KafkaSimulationPublisher;
import dev.fabrictwin.testing.kafka.KafkaClusterExtension;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * simulate → Kafka → analyze → fabric.alerts on the real in-JVM KRaft broker, exactly-once, through the
 * {@link AnalyzerHarness} that demo, eval and bench use: the docs/contracts.md
 * example (a PFC storm and a degraded uplink) opens exactly one root-cause alert of each type naming the
 * injected entity, victims name the storm, both resolve after their faults end; and 30 simulated minutes of a
 * healthy cluster open no root-cause alert.
 */
class AnalyzerBrokerEndToEndTest {

    @RegisterExtension
    static final KafkaClusterExtension KAFKA = KafkaClusterExtension.singleBroker();

    @Test
    void stormAndDegradedLinkOpenOneRootCauseEachAndResolveAfterTheirFaults() throws Exception {
        final Scenario scenario = ScenarioParser.parse(Path.of("..", "scenarios", "pfc-storm-small.yaml"));
        final Topics topics = new Topics(KAFKA.uniqueTopic("e2e") + ".");
        final long epoch = scenario.epoch().toEpochMilli();
        // hostile records: before the capture, a malformed one just under the 1 MiB request limit (its dead letter
        // must still fit); after it, a sample stamped two hours ahead (a wrong clock must not move event time)
        final byte[] huge = new byte[(1 << 20) - 1_000];
        Arrays.fill(huge, (byte) '[');
        final String ahead = "{\"ts\":" + (epoch + 7_200_000) + ",\"device\":\"leaf-1\",\"port\":\"eth0\","
            + "\"counters\":{\"tx_bytes\":1},\"gauges\":{}}";
        final List<Alert> alerts = analyze(scenario, topics, "e2e-faults",
            all -> all.stream().filter(a -> a.rootCause() && a.state() == Alert.State.RESOLVED).count() >= 2,
            Long.MAX_VALUE, List.of(new ProducerRecord<>(topics.samples().name(), "leaf-0", huge)),
            List.of(new ProducerRecord<>(topics.samples().name(), "leaf-1", ahead.getBytes(StandardCharsets.UTF_8))), dead -> assertThat(dead).extracting(d -> d.error().split(":")[0])
                .containsExactlyInAnyOrder("malformed", "timestamp-out-of-range"));

        final List<Alert> rootOpens = alerts.stream().filter(a -> a.rootCause() && a.state() == Alert.State.OPEN).toList();
        assertThat(rootOpens).extracting(Alert::type).containsExactlyInAnyOrder(FaultType.PFC_STORM, FaultType.LINK_DEGRADED);
        final Alert storm = rootOpens.stream().filter(a -> a.type() == FaultType.PFC_STORM).findFirst().orElseThrow();
        assertThat(storm.entity().key()).isEqualTo("port:host-5/nic0");
        assertThat(storm.firstSeen()).isBetween(epoch + 119_000, epoch + 125_000);
        final Alert degraded = rootOpens.stream().filter(a -> a.type() == FaultType.LINK_DEGRADED).findFirst().orElseThrow();
        assertThat(degraded.entity().key()).isEqualTo("link:leaf-2~spine-1");
        assertThat(degraded.firstSeen()).isBetween(epoch + 59_000, epoch + 65_000);

        assertThat(alerts).filteredOn(a -> !a.rootCause()).isNotEmpty()
            .allSatisfy(v -> assertThat(v.causedBy()).isIn(storm.id(), degraded.id()));
        assertThat(alerts).filteredOn(a -> a.id().equals(storm.id()) && a.state() == Alert.State.RESOLVED).singleElement()
            .satisfies(r -> assertThat(r.lastSeen()).isBetween(epoch + 200_000, epoch + 210_000));
        assertThat(alerts).filteredOn(a -> a.id().equals(degraded.id()) && a.state() == Alert.State.RESOLVED).singleElement()
            .satisfies(r -> assertThat(r.lastSeen()).isBetween(epoch + 240_000, epoch + 250_000));
    }

    @Test
    void halfAnHourOfAHealthyClusterOpensNoRootCause() throws Exception {
        final var tree = ScenarioParser.tree(Path.of("..", "scenarios", "healthy-baseline.yaml"));
        tree.put("duration", "30m");
        final Scenario scenario = ScenarioParser.parse(tree, Path.of("..", "scenarios"));
        final Topics topics = new Topics(KAFKA.uniqueTopic("healthy") + ".");
        final long end = scenario.epoch().toEpochMilli() + scenario.duration().toMillis();
        final List<Alert> alerts = analyze(scenario, topics, "e2e-healthy", all -> false, end - 5_000, List.of(), List.of(),
            dead -> assertThat(dead).as("nothing was dead-lettered").isEmpty());
        assertThat(alerts).filteredOn(Alert::rootCause).isEmpty();
    }

    /**
     * Publishes {@code before}, the scenario, then {@code after}; runs the analyzer until {@code done} or job health
     * reaches {@code untilEventMs} (and as many dead letters as records before and after), and hands the dead letters
     * to {@code deadLetters} to check.
     */
    private List<Alert> analyze(final Scenario scenario, final Topics topics, final String app,
                                final Predicate<List<Alert>> done, final long untilEventMs,
                                final List<ProducerRecord<String, byte[]>> before,
                                final List<ProducerRecord<String, byte[]>> after,
                                final Consumer<List<DeadLetter>> deadLetters) throws Exception {
        final Properties client = new Properties();
        client.put("bootstrap.servers", KAFKA.bootstrapServers());
        TopicSetup.ensure(client, topics);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(client, new StringSerializer(),
            new ByteArraySerializer())) {
            for (final ProducerRecord<String, byte[]> r : before) {
                producer.send(r).get();
            }
            KafkaSimulationPublisher.publish(new SyntheticCluster(scenario, scenario.telemetry()), client, topics, false, n -> { });
            for (final ProducerRecord<String, byte[]> r : after) {
                producer.send(r).get();
            }
        }
        final AnalyzerSettings settings = new AnalyzerSettings(topics,
            AnalyzerConfig.defaults(scenario.sampleInterval().toMillis()));
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (AnalyzerHarness analyzer = AnalyzerHarness.start(client, settings, KAFKA.uniqueTopic(app), registry, 10)) {
            final AnalyzerHarness.Output out = analyzer.readUntil(
                o -> (done.test(o.alerts()) || o.latestEventMs() >= untilEventMs) && o.deadLetters().size() >= before.size() + after.size(),
                Duration.ofSeconds(120), Duration.ofSeconds(60), Duration.ofSeconds(240));
            assertThat(done.test(out.alerts()) || out.latestEventMs() >= untilEventMs)
                .as("the analyzer got through the capture within 240 s (alerts so far: %s)", out.alerts()).isTrue();
            deadLetters.accept(out.deadLetters());
            // the whole capture was published before the analyzer started: a backlog whose partitions drain at
            // different speeds. The lanes' timestamp-ordered merge must keep the analysis in event-time order.
            final double processed = registry.find("fabric.samples.processed").counter().count();
            assertThat(registry.find("fabric.intervals.late").functionCounter().count())
                .as("intervals that reached the analysis after their tick closed, of %.0f", processed)
                .isLessThanOrEqualTo(processed * 0.001);
            return out.alerts();
        }
    }
}
