package dev.fabrictwin.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.runtime.AnalyzerApp;
import dev.fabrictwin.analyzer.topology.AnalyzerSettings;
import dev.fabrictwin.cli.FabricTwinCliTest;
import dev.fabrictwin.cli.TopologyImportCommandTest;
import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.AlertJson;
import dev.fabrictwin.ingest.IngestStats;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.stream.IngestTopicApp;
import dev.fabrictwin.ingest.stream.IngestTopicSettings;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.testing.kafka.KafkaClusterExtension;
import dev.fabrictwin.testing.kafka.KafkaReads;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.telemetry.Sample;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * README "On your cluster", end to end on the in-JVM broker: the topology imported from the small fabric's LLDP
 * tables ({@code topology import}), the jobs from SLURM's {@code squeue --json} ({@code jobs import}), the counters as
 * gnmic (switches) and Telegraf (hosts, named by FQDN) write them to their Kafka topics, normalized by
 * {@code ingest --from-topic}; the analyzer opens the one right root alert for a link that goes down in those
 * counters.
 */
class OnYourClusterTest {

    @RegisterExtension
    static final KafkaClusterExtension KAFKA = KafkaClusterExtension.singleBroker();

    private static final Duration DEADLINE = Duration.ofSeconds(180);
    private static final String FIXTURES = "src/test/resources/handmade/small-fabric/";

    @Test
    void countersFromCollectorTopicsOnAnImportedFabricOpenTheRightRootAlert(@TempDir final Path dir) throws Exception {
        final String prefix = KAFKA.uniqueTopic("cluster") + ".";
        final Topics topics = new Topics(prefix);
        final Properties client = new Properties();
        client.put("bootstrap.servers", KAFKA.bootstrapServers());
        TopicSetup.ensure(client, topics);

        // 1–2. the operator's documents: the topology from LLDP, the jobs from the scheduler
        final Path topology = dir.resolve("topology.json");
        publishDocuments(topology, prefix);

        // 3. the counters of the fabric those documents describe, a spine link down from 20 s to 45 s, as collectors write them
        // when squeue.json says llm-a started (its startMs and endMs bound when the analyzer expects its traffic)
        final Instant epoch = Instant.parse("2025-01-01T00:00:00Z");
        final Scenario scenario = ScenarioParser.parse(ScenarioParser.tree("""
            name: on-your-cluster
            seed: 21
            duration: 70s
            epoch: %s
            fabric: {file: %s}
            jobs:
              - {id: llm-a, hostList: [gpu01, gpu02, gpu03, gpu04], pattern: ring-allreduce, bytesPerIteration: 2GB,
                 iterationPeriod: 1s, commFraction: 0.4}
            faults:
              - {type: LINK_DOWN, target: {device: leaf01, peer: spine01}, start: 20s, end: 45s}
            """.formatted(epoch, topology)), dir);
        final String gnmicTopic = KAFKA.uniqueTopic("gnmic");
        final String telegrafTopic = KAFKA.uniqueTopic("telegraf");
        KAFKA.createTopic(gnmicTopic, 3);
        KAFKA.createTopic(telegrafTopic, 3);
        final int written = writeAsCollectors(scenario, gnmicTopic, telegrafTopic);
        assertThat(written).isGreaterThan(70 * 12);

        // 4–5. ingest --from-topic for each collector, and the analyzer
        final List<Alert> alerts = new ArrayList<>();
        final IngestStats gnmicStats = new IngestStats();
        final IngestStats telegrafStats = new IngestStats();
        try (IngestTopicApp gnmicIngest = IngestTopicApp.start(streams(client, dir, "gnmic"), ingest(gnmicTopic, "gnmic", topics),
                 gnmicStats);
             IngestTopicApp telegrafIngest = IngestTopicApp.start(streams(client, dir, "telegraf"),
                 ingest(telegrafTopic, "influx", topics), telegrafStats);
             AnalyzerApp analysis = AnalyzerApp.start(streams(client, dir, "analyzer"),
                 new AnalyzerSettings(topics, AnalyzerConfig.defaults(1_000)), new SimpleMeterRegistry(), 20);
             KafkaConsumer<String, String> reader = committedReader(topics)) {
            alerts.addAll(alerts(KafkaReads.readUntil(reader,
                read -> alerts(read).stream().anyMatch(a -> a.state() == Alert.State.RESOLVED), DEADLINE)));
            assertThat(gnmicStats.samples() + telegrafStats.samples()).isEqualTo(written);
            assertThat(List.of(gnmicIngest.state(), telegrafIngest.state(), analysis.state()))
                .allMatch(KafkaStreams.State::isRunningOrRebalancing);
        }

        final List<Alert> roots = alerts.stream().filter(a -> a.rootCause() && a.state() != Alert.State.UPDATE).toList();
        assertThat(roots).extracting(a -> a.type() + " " + a.entity().key() + " " + a.state())
            .containsExactly("LINK_DOWN link:leaf01~spine01 OPEN", "LINK_DOWN link:leaf01~spine01 RESOLVED");
        assertThat(roots.get(0).firstSeen() - epoch.toEpochMilli()).isBetween(18_000L, 23_000L);
        assertThat(roots.get(0).type()).isEqualTo(FaultType.LINK_DOWN);
    }

    private static List<Alert> alerts(final List<ConsumerRecord<String, String>> records) {
        return records.stream().map(r -> AlertJson.read(r.value().getBytes())).toList();
    }

    /** {@code topology import} from the LLDP tables and {@code jobs import} from squeue, both published. */
    private static void publishDocuments(final Path topology, final String prefix) throws Exception {
        final List<String> args = new ArrayList<>(List.of("topology", "import"));
        args.addAll(TopologyImportCommandTest.lldpctlArgs());
        args.addAll(List.of("--default-speed", "100G", "--id", "lab", "--out", topology.toString(), "--strict",
            "--bootstrap", KAFKA.bootstrapServers(), "--topic-prefix", prefix));
        final FabricTwinCliTest.Run imported = FabricTwinCliTest.run(args.toArray(String[]::new));
        assertThat(imported.exitCode()).as(imported.err()).isZero();
        final FabricTwinCliTest.Run jobs = FabricTwinCliTest.run("jobs", "import", "--slurm-json", FIXTURES + "squeue.json",
            "--bootstrap", KAFKA.bootstrapServers(), "--topic-prefix", prefix);
        assertThat(jobs.exitCode()).as(jobs.err()).isZero();
        assertThat(jobs.err()).contains("jobs import: 1 running");
    }

    private static int writeAsCollectors(final Scenario scenario, final String gnmicTopic, final String telegrafTopic)
        throws Exception {
        final Properties p = new Properties();
        p.put("bootstrap.servers", KAFKA.bootstrapServers());
        p.put("linger.ms", 20);
        final List<Future<RecordMetadata>> sent = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            new SyntheticCluster(scenario, scenario.telemetry()).run(s -> sent.add(producer.send(record(s, gnmicTopic,
                telegrafTopic))), rounds -> { });
            producer.flush();
        }
        for (final Future<RecordMetadata> f : sent) {
            f.get();
        }
        return sent.size();
    }

    /** Hosts through Telegraf (named by their FQDN, as Telegraf's {@code host} tag often is), switches through gnmic. */
    private static ProducerRecord<String, String> record(final Sample s, final String gnmicTopic, final String telegrafTopic) {
        if (s.device().startsWith("gpu")) {
            final Sample fqdn = new Sample(s.ts(), s.device() + ".cluster.example.com", s.port(), s.source(), s.counters(),
                s.gauges());
            return new ProducerRecord<>(telegrafTopic, null, s.ts(), s.device(), CollectorMessages.telegrafEthtool(fqdn));
        }
        return new ProducerRecord<>(gnmicTopic, null, s.ts(), s.device(), CollectorMessages.gnmicEvent(s));
    }

    private static IngestTopicSettings ingest(final String source, final String format, final Topics topics) {
        return new IngestTopicSettings(source, format, topics, IngestTopicSettings.defaultApplicationId(source),
            ParseContext.defaults(Clock.systemUTC()));
    }

    private static Properties streams(final Properties client, final Path dir, final String name) throws Exception {
        final Properties p = new Properties();
        p.putAll(client);
        p.put(StreamsConfig.STATE_DIR_CONFIG, Files.createDirectories(dir.resolve("state-" + name)).toString());
        if (name.equals("analyzer")) {
            p.put(StreamsConfig.APPLICATION_ID_CONFIG, "on-your-cluster-analyzer");
        }
        return p;
    }

    private static KafkaConsumer<String, String> committedReader(final Topics topics) {
        final Properties p = new Properties();
        p.put("bootstrap.servers", KAFKA.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "on-your-cluster-reader");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        final KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
        c.subscribe(List.of(topics.alerts().name()));
        return c;
    }

}
