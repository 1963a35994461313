package dev.fabrictwin.analyzer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.stream.LongStream;

import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.assertj.core.data.Offset;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.analyzer.FabricAnalyzer;
import dev.fabrictwin.analyzer.TickReport;
import dev.fabrictwin.analyzer.checkpoint.LearnedState;
import dev.fabrictwin.analyzer.metrics.AnalyzerMetrics;
import dev.fabrictwin.analyzer.metrics.SeriesLimits;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.AlertJson;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.contract.job.JobHealthJson;
import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.sim.Twin;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * The whole topology through {@link TopologyTestDriver} on hand-built samples: a 2-spine, 2-leaf, 4-host
 * fabric with no declared job, so the twin expects every port idle; each test writes one fault's signature
 * into the counters by hand and checks the alert, and the idle fabric alone checks that nothing fires.
 */
class AnalyzerTopologyTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long T0 = 1_735_689_600_000L;
    private static final double LINE_BYTES_PER_S = 100e9 / 8;

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> samples;
    private TestOutputTopic<String, byte[]> alerts;
    private TestOutputTopic<String, byte[]> dead;
    private Fabric fabric;
    /** What the analysis reports, tick by tick, and the meters it feeds (refreshed by the test). */
    private final List<TickReport> reports = new ArrayList<>();
    /** The reasons the analysis and its dead-letter handlers counted a record rejected under. */
    private final List<RejectReason> rejected = new ArrayList<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AnalyzerMetrics metrics = AnalyzerMetrics.refreshedByCaller(registry, SeriesLimits.defaults());

    @BeforeEach
    void setUp() throws Exception {
        start(Instant.now());
    }

    /** The analysis in a test driver whose wall clock starts at {@code wallClock}, the tiny fabric's topology sent. */
    private void start(final Instant wallClock) throws Exception {
        final Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "analyzer-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        final AnalyzerListener listener = new AnalyzerListener() {
            @Override
            public void tick(final TickReport report) {
                reports.add(report);
                metrics.tick(report);
            }

            @Override
            public void rejected(final RejectReason reason) {
                rejected.add(reason);
            }
        };
        DeadLetterHandlers.configure(props, Topics.DEFAULT.deadLetter().name(), listener);
        driver = new TopologyTestDriver(AnalyzerTopology.build(AnalyzerSettings.defaults(1_000), listener), props,
            wallClock);
        final Twin twin = Twin.healthy(ScenarioParser.parse(ScenarioParser.tree("""
            name: tiny
            duration: 60s
            fabric: {kind: spine-leaf, spines: 2, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
            jobs: []
            """), Path.of(".")), ModelParams.defaults());
        fabric = twin.fabric();
        driver.createInputTopic(Topics.DEFAULT.topology().name(), new StringSerializer(), new ByteArraySerializer())
            .pipeInput("tiny", JSON.writeValueAsBytes(FabricJson.toJson(fabric, JSON)));
        samples = driver.createInputTopic(Topics.DEFAULT.samples().name(), new StringSerializer(), new ByteArraySerializer());
        alerts = driver.createOutputTopic(Topics.DEFAULT.alerts().name(), new StringDeserializer(), new ByteArrayDeserializer());
        dead = driver.createOutputTopic(Topics.DEFAULT.deadLetter().name(), new StringDeserializer(), new ByteArrayDeserializer());
    }

    @AfterEach
    void tearDown() {
        driver.close();
        metrics.close();
    }

    /** Every port of the fabric sampled each second for {@code seconds}; {@code fault} edits a port's sample at t (s). */
    private void run(final int seconds, final Fault fault) {
        run(seconds, fault, (t, p) -> 0L);
    }

    /** As {@link #run(int, Fault)}, with each sample stamped {@code clock(t, port)} ms off the true time. */
    private void run(final int seconds, final Fault fault, final BiFunction<Integer, PortRef, Long> clock) {
        final Map<PortRef, Map<String, Long>> counters = new HashMap<>();
        for (int t = 0; t <= seconds; t++) {
            for (final PortRef p : fabric.ports()) {
                final Map<String, Long> c = counters.computeIfAbsent(p, k -> new HashMap<>(Map.of(
                    "tx_bytes", 0L, "rx_bytes", 0L, "tx_packets", 0L, "rx_packets", 0L, "fec_corrected", 0L,
                    "tx_pfc_pause.3", 0L, "rx_pfc_pause.3", 0L, "ecn_marked", 0L)));
                final Map<String, Double> gauges = new HashMap<>(Map.of("oper_up", 1.0, "speed_bps", 100e9,
                    "latency_p99_us", 1.5, "queue_depth_bytes", 0.0));
                fault.apply(t, p, c, gauges);
                final ObjectNode s = JSON.createObjectNode().put("ts", T0 + t * 1000L + clock.apply(t, p)).put("device", p.device())
                    .put("port", p.port()).put("source", "test");
                c.forEach(s.putObject("counters")::put);
                gauges.forEach(s.putObject("gauges")::put);
                samples.pipeInput(p.device(), s.toString().getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    @FunctionalInterface
    private interface Fault {
        void apply(int t, PortRef port, Map<String, Long> counters, Map<String, Double> gauges);
    }

    private List<Alert> alerts() {
        final List<Alert> out = new ArrayList<>();
        alerts.readValuesToList().forEach(v -> out.add(AlertJson.read(v)));
        return out;
    }

    private List<Alert> opened() {
        return alerts().stream().filter(a -> a.state() == Alert.State.OPEN).toList();
    }

    private static BiConsumer<Map<String, Long>, String> add(final long amount) {
        return (c, name) -> c.merge(name, amount, Long::sum);
    }

    /**
     * An upgraded build cannot continue another build's exact state, but takes back what that analysis had
     * learned (the checkpoint's learned section, written once a minute of wall time) and writes it on unchanged.
     */
    @Test
    void anAnalysisThatCannotContinueItsCheckpointTakesBackWhatItHadLearned() throws Exception {
        final PortRef first = fabric.ports().get(0);
        run(40, (t, p, c, g) -> {
            if (t == 31 && p.equals(first)) {
                driver.advanceWallClockTime(Duration.ofMinutes(2)); // the learned section is due
            }
        });
        final Map<String, byte[]> learned = section(driver, "learned-");
        assertThat(learned).as("the learned section of the first analysis' checkpoint").isNotEmpty();

        final Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "analyzer-upgraded");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve("upgraded").toString());
        try (TopologyTestDriver upgraded = new TopologyTestDriver(
            AnalyzerTopology.build(AnalyzerSettings.defaults(1_000), AnalyzerListener.NONE), props)) {
            final KeyValueStore<String, byte[]> store =
                upgraded.getKeyValueStore(AnalysisCheckpoints.CHECKPOINT_STORE);
            learned.forEach(store::put);
            // an exact section this build cannot read, as another build's classes would be
            store.put("meta", ByteBuffer.allocate(4).putInt(1).array());
            store.put("chunk-0", new byte[] {1, 2, 3});
            upgraded.createInputTopic(Topics.DEFAULT.topology().name(), new StringSerializer(), new ByteArraySerializer())
                .pipeInput("tiny", JSON.writeValueAsBytes(FabricJson.toJson(fabric, JSON)));
            final TestInputTopic<String, byte[]> in =
                upgraded.createInputTopic(Topics.DEFAULT.samples().name(), new StringSerializer(), new ByteArraySerializer());
            for (int t = 0; t <= 1; t++) { // two samples a port: the first intervals build the analysis
                for (final PortRef p : fabric.ports()) {
                    final ObjectNode sample = JSON.createObjectNode().put("ts", T0 + t * 1000L).put("device", p.device())
                        .put("port", p.port()).put("source", "test");
                    sample.putObject("counters").put("tx_bytes", 0L).put("rx_bytes", 0L);
                    sample.putObject("gauges").put("oper_up", 1.0);
                    in.pipeInput(p.device(), sample.toString().getBytes(StandardCharsets.UTF_8));
                }
            }
            // written with the new analysis' first checkpoint: what it took back, byte for byte
            final Map<String, byte[]> written = section(upgraded, "learned-");
            assertThat(written.keySet()).isEqualTo(learned.keySet());
            learned.forEach((k, v) -> assertThat(written.get(k)).as(k).isEqualTo(v));
            assertThat(section(upgraded, "chunk-").get("chunk-0")).as("a new exact section").hasSizeGreaterThan(3);
        }
    }

    /**
     * An upgraded build takes back the phase locks and the learned paths too, so its first ticks
     * judge the jobs as the uninterrupted analysis does. A ring (4 s iterations: phase visible at 1 s sampling) and
     * an all-to-all (3 s) share a fabric whose hash the replica does not know; a minute of telemetry teaches the
     * analysis their phases and paths. The upgraded analysis starts from the next samples with that minute's learned
     * section: from its replica's first comm phase on, each job's expected comm time (the replica, steered and
     * pinned) and slowdown (the phase fits) are the uninterrupted analysis', and it opens no alert.
     */
    @Test
    void shouldJudgeJobsAsTheUninterruptedAnalysisFromTheFirstTicksOfAnUpgradedOne() throws Exception {
        final Scenario scenario = ScenarioParser.parse(ScenarioParser.tree("""
            name: learned-phases-and-paths
            seed: 11
            duration: 100s
            sampleInterval: 1s
            fabric: {kind: spine-leaf, spines: 2, leaves: 4, hostsPerLeaf: 4, nicsPerHost: 1, linkSpeed: 400G}
            jobs:
              - {id: ring, hosts: 8, pattern: ring-allreduce, bytesPerIteration: 16GB, iterationPeriod: 4s, commFraction: 0.35}
              - {id: a2a, hosts: 8, pattern: all-to-all, bytesPerIteration: 4GB, iterationPeriod: 3s, commFraction: 0.4}
            """), Path.of("."));
        final SyntheticCluster cluster =
            new SyntheticCluster(scenario, scenario.telemetry());
        final List<Sample> all = new ArrayList<>();
        cluster.run(all::add, n -> { });
        final long upgradeMs = scenario.epoch().toEpochMilli() + 60_000;
        int upgradeAt = 0;
        while (all.get(upgradeAt).ts() < upgradeMs) {
            upgradeAt++;
        }
        int resumeAt = upgradeAt; // the rates stage's last sample of each port is kept across an upgrade: one back
        while (all.get(resumeAt - 1).ts() >= upgradeMs - 1_000) {
            resumeAt--;
        }

        final Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "analyzer-uninterrupted");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve("uninterrupted").toString());
        final Map<String, byte[]> learned;
        final List<JobHealth> uninterrupted;
        final List<Alert> uninterruptedAlerts = new ArrayList<>();
        try (TopologyTestDriver first = new TopologyTestDriver(
            AnalyzerTopology.build(AnalyzerSettings.defaults(1_000), AnalyzerListener.NONE), props)) {
            final TestInputTopic<String, byte[]> in = documents(first, cluster);
            for (int i = 0; i < upgradeAt; i++) {
                if (i == resumeAt) {
                    // the learned section is due: written with the checkpoint after the next batch
                    first.advanceWallClockTime(Duration.ofMinutes(2));
                }
                in.pipeInput(all.get(i).device(), SampleJson.writeBytes(all.get(i)));
            }
            learned = section(first, "learned-");
            for (int i = upgradeAt; i < all.size(); i++) {
                in.pipeInput(all.get(i).device(), SampleJson.writeBytes(all.get(i)));
            }
            uninterrupted = jobHealth(first);
            first.createOutputTopic(Topics.DEFAULT.alerts().name(), new StringDeserializer(), new ByteArrayDeserializer())
                .readValuesToList().forEach(v -> uninterruptedAlerts.add(AlertJson.read(v)));
        }

        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "analyzer-upgraded");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve("upgraded").toString());
        final List<JobHealth> upgraded;
        final List<Alert> upgradedAlerts = new ArrayList<>();
        try (TopologyTestDriver second = new TopologyTestDriver(
            AnalyzerTopology.build(AnalyzerSettings.defaults(1_000), AnalyzerListener.NONE), props)) {
            final KeyValueStore<String, byte[]> store =
                second.getKeyValueStore(AnalysisCheckpoints.CHECKPOINT_STORE);
            learned.forEach(store::put);
            store.put("meta", ByteBuffer.allocate(4).putInt(1).array()); // an exact section it cannot read
            store.put("chunk-0", new byte[] {1, 2, 3});
            final TestInputTopic<String, byte[]> in = documents(second, cluster);
            for (int i = resumeAt; i < all.size(); i++) {
                in.pipeInput(all.get(i).device(), SampleJson.writeBytes(all.get(i)));
            }
            upgraded = jobHealth(second);
            second.createOutputTopic(Topics.DEFAULT.alerts().name(), new StringDeserializer(), new ByteArrayDeserializer())
                .readValuesToList().forEach(v -> upgradedAlerts.add(AlertJson.read(v)));
        }

        // both parts hold what was learned, and a fresh analysis that takes them back writes them again unchanged
        final LearnedState section =
            LearnedState.fromBytes(learned.get("learned-chunk-0"));
        final List<JsonNode> jobDocuments = new ArrayList<>();
        JSON.readTree(SimulationFiles.jobsJson(cluster)).forEach(jobDocuments::add);
        final FabricAnalyzer fresh = new FabricAnalyzer(
            TwinReplica.from(JSON.readTree(
                SimulationFiles.topologyJson(cluster)), jobDocuments, upgradeMs),
            AnalyzerConfig.defaults(1_000));
        assertThat(fresh.relearn(section)).contains("phase-locks", "learned-paths");
        for (final String part : List.of("phase-locks", "learned-paths")) {
            assertThat(section.parts().get(part).bytes()).as(part).hasSizeGreaterThan(200)
                .isEqualTo(fresh.learned().parts().get(part).bytes());
        }

        assertThat(uninterruptedAlerts).as("a healthy fabric").isEmpty();
        assertThat(upgradedAlerts).as("the upgraded analysis opens nothing the uninterrupted one did not").isEmpty();
        final Map<String, JobHealth> reference = new HashMap<>();
        uninterrupted.forEach(h -> reference.put(h.job() + "@" + h.ts(), h));
        for (final String job : List.of("ring", "a2a")) {
            // from the upgraded replica's first comm phase (its comm time is unknown before one has run), for 20 s
            final long from = upgraded.stream().filter(h -> h.job().equals(job) && !Double.isNaN(h.expectedCommMs()))
                .mapToLong(JobHealth::ts).min().orElseThrow();
            assertThat(from).as("%s: the upgraded replica's first comm phase", job).isLessThanOrEqualTo(upgradeMs + 6_000);
            final List<JobHealth> firstTicks = upgraded.stream()
                .filter(h -> h.job().equals(job) && h.ts() >= from && h.ts() < from + 20_000).toList();
            assertThat(firstTicks).hasSizeGreaterThanOrEqualTo(19);
            for (final JobHealth h : firstTicks) {
                final JobHealth same = reference.get(job + "@" + h.ts());
                final String at = job + " at +" + (h.ts() - upgradeMs) + " ms";
                assertThat(same).as(at).isNotNull();
                assertThat(h.expectedCommMs()).as("%s: the replica's comm time (its flows pinned alike)", at)
                    .isCloseTo(same.expectedCommMs(), Percentage.withPercentage(1));
                assertThat(h.phaseQuality()).as("%s: its phase locked as firmly", at)
                    .isCloseTo(same.phaseQuality(), Offset.offset(0.02));
                // later fits span a window with the upgrade's gap in it: known alike, not equal to the bit
                assertThat(Double.isNaN(h.slowdown())).as("%s: its slowdown unknown", at)
                    .isEqualTo(Double.isNaN(same.slowdown()));
                assertThat(h.bottleneck()).as(at).isEqualTo(same.bottleneck());
            }
        }
    }

    /** The simulated fabric's topology and jobs on their topics; the samples topic to feed. */
    private static TestInputTopic<String, byte[]> documents(final TopologyTestDriver driver,
                                                            final SyntheticCluster cluster)
        throws Exception {
        driver.createInputTopic(Topics.DEFAULT.topology().name(), new StringSerializer(), new ByteArraySerializer())
            .pipeInput(cluster.fabric().id(), SimulationFiles.topologyJson(cluster)
                .getBytes(StandardCharsets.UTF_8));
        final TestInputTopic<String, byte[]> jobs =
            driver.createInputTopic(Topics.DEFAULT.jobs().name(), new StringSerializer(), new ByteArraySerializer());
        for (final JsonNode j
            : JSON.readTree(SimulationFiles.jobsJson(cluster))) {
            jobs.pipeInput(j.get("id").asText(), JSON.writeValueAsBytes(j));
        }
        return driver.createInputTopic(Topics.DEFAULT.samples().name(), new StringSerializer(), new ByteArraySerializer());
    }

    private static List<JobHealth> jobHealth(final TopologyTestDriver driver) {
        return driver.createOutputTopic(Topics.DEFAULT.jobHealth().name(), new StringDeserializer(),
            JobHealthJson.SERDE.deserializer()).readValuesToList();
    }

    private static Map<String, byte[]> section(final TopologyTestDriver driver, final String prefix) {
        final Map<String, byte[]> out = new TreeMap<>();
        final KeyValueStore<String, byte[]> store =
            driver.getKeyValueStore(AnalysisCheckpoints.CHECKPOINT_STORE);
        try (var it = store.all()) {
            it.forEachRemaining(kv -> {
                if (kv.key.startsWith(prefix)) {
                    out.put(kv.key, kv.value);
                }
            });
        }
        return out;
    }

    @Test
    void shouldGiveEverySamplePartitionALaneOfItsOwnIntoOneAnalysisTask() {
        final var description = AnalyzerTopology.build(AnalyzerSettings.defaults(1_000).withLanes(3), AnalyzerListener.NONE)
            .describe();
        final List<String> analysisSources = description.subtopologies().stream()
            .filter(sub -> sub.nodes().stream().anyMatch(n -> n.name().equals("analyzer")))
            .flatMap(sub -> sub.nodes().stream())
            .filter(n -> n instanceof TopologyDescription.Source)
            .flatMap(n -> ((TopologyDescription.Source) n).topicSet().stream())
            .sorted().toList();
        // one sub-topology reads every lane (so one task merges them by timestamp); the rates stage is another
        assertThat(description.subtopologies()).hasSize(2);
        assertThat(analysisSources).containsExactly("analyzer-intervals-lane-0-repartition",
            "analyzer-intervals-lane-1-repartition", "analyzer-intervals-lane-2-repartition");
    }

    @Test
    void shouldCountACorruptTopologyDocumentAsBadAndKeepAnalyzingWithThePreviousOne() {
        final byte[] corrupt = "{\"name\": \"tiny\", \"devices\": [".getBytes(StandardCharsets.UTF_8);
        driver.createInputTopic(Topics.DEFAULT.topology().name(), new StringSerializer(), new ByteArraySerializer())
            .pipeInput("tiny", corrupt);

        // the handler counts it under its reason; TopologyTestDriver does not deliver a global store's dead letters
        assertThat(rejected).containsExactly(RejectReason.BAD_DOCUMENT);

        run(20, (t, p, c, g) -> { });
        assertThat(reports).isNotEmpty();
        assertThat(rejected).containsExactly(RejectReason.BAD_DOCUMENT); // never no_topology: the previous document stays
    }

    @Test
    void anIdleFabricAsTheTwinExpectsOpensNothing() {
        run(60, (t, p, c, g) -> { });
        assertThat(alerts()).isEmpty();
        assertThat(dead.readValuesToList()).isEmpty();
    }

    @Test
    void aPortReportedDownOpensOneLinkDownThatResolvesWhenItComesBack() {
        run(40, (t, p, c, g) -> {
            if (p.equals(new PortRef("leaf-0", "eth2")) && t >= 10 && t < 20) {
                g.put("oper_up", 0.0);
            }
        });
        final List<Alert> out = alerts();
        assertThat(out).extracting(Alert::state).containsExactly(Alert.State.OPEN, Alert.State.RESOLVED);
        assertThat(out.get(0).type()).isEqualTo(FaultType.LINK_DOWN);
        assertThat(out.get(0).entity().key()).isEqualTo("link:leaf-0~spine-0");
        assertThat(out.get(0).rootCause()).isTrue();
        assertThat(out.get(0).firstSeen()).isBetween(T0 + 9_000, T0 + 11_000);
        assertThat(out.get(1).lastSeen()).isBetween(T0 + 19_000, T0 + 22_000);
    }

    @Test
    void fecErrorsOnAnIdleLinkOpenLinkDegradedNamingTheLink() {
        // after the port's warm-up: what a link shows from its first seconds is its normal
        run(50, (t, p, c, g) -> {
            if (p.equals(new PortRef("spine-1", "eth0")) && t >= 20) {
                add(40_000).accept(c, "fec_corrected"); // 4e-7 per line bit at 100G
            }
        });
        final List<Alert> out = opened();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).type()).isEqualTo(FaultType.LINK_DEGRADED);
        assertThat(out.get(0).entity().key()).isEqualTo("link:leaf-0~spine-1");
        assertThat(out.get(0).observed()).isGreaterThan(30_000);
        assertThat(out.get(0).expected()).isLessThan(1); // the rate its quiet past makes: under one error a second
    }

    @Test
    void aNicPausingItsLeafIsTheStormsOriginAndTheLeafsUpstreamPausesAreItsVictims() {
        final long frames = Math.round(0.9 * 2 * 100e9 / (65_535.0 * 512)); // 90 % of continuous pause per second
        run(40, (t, p, c, g) -> {
            if (t < 10) {
                return;
            }
            if (p.equals(new PortRef("host-1", "nic0"))) {
                add(frames).accept(c, "tx_pfc_pause.3");
            } else if (p.equals(new PortRef("leaf-0", "eth1"))) {
                add(frames).accept(c, "rx_pfc_pause.3");
            } else if (p.equals(new PortRef("leaf-0", "eth2"))) {
                add(frames / 2).accept(c, "tx_pfc_pause.3"); // the leaf, paused, pauses spine-0
            } else if (p.equals(new PortRef("spine-0", "eth0"))) {
                add(frames / 2).accept(c, "rx_pfc_pause.3");
            }
        });
        final List<Alert> opened = opened();
        assertThat(opened).filteredOn(Alert::rootCause).singleElement().satisfies(a -> {
            assertThat(a.type()).isEqualTo(FaultType.PFC_STORM);
            assertThat(a.entity().key()).isEqualTo("port:host-1/nic0");
            assertThat(a.observed()).isCloseTo(0.9, Offset.offset(0.05));
        });
        assertThat(opened).filteredOn(a -> !a.rootCause()).singleElement().satisfies(a -> {
            assertThat(a.entity().key()).isEqualTo("port:leaf-0/eth2");
            assertThat(a.causedBy()).isEqualTo("PFC_STORM:port:host-1/nic0");
        });
    }

    @Test
    void latencyFarAboveThePortsLearnedLevelOpensLatencySlo() {
        // 1.5 µs for 20 s (learned), then 80 µs
        run(40, (t, p, c, g) -> {
            if (p.equals(new PortRef("leaf-1", "eth0")) && t >= 20) {
                g.put("latency_p99_us", 80.0);
            }
        });
        final List<Alert> out = opened();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).type()).isEqualTo(FaultType.LATENCY_SLO);
        assertThat(out.get(0).entity().key()).isEqualTo("port:leaf-1/eth0");
        assertThat(out.get(0).observed()).isEqualTo(80.0);
    }

    @Test
    void trafficNoJobExplainsOpensUnexpectedTrafficOnItsSender() {
        final long bytes = (long) (0.8 * LINE_BYTES_PER_S);
        // from 30 s on: the host ports have learned their (empty) undeclared background by then
        run(50, (t, p, c, g) -> {
            if (t < 30) {
                return;
            }
            if (p.equals(new PortRef("host-0", "nic0"))) {
                add(bytes).accept(c, "tx_bytes");
            } else if (p.equals(new PortRef("host-3", "nic0"))) {
                add(bytes).accept(c, "rx_bytes");
            }
        });
        final List<Alert> opened = opened();
        assertThat(opened).filteredOn(Alert::rootCause).singleElement().satisfies(a -> {
            assertThat(a.type()).isEqualTo(FaultType.UNEXPECTED_TRAFFIC);
            assertThat(a.entity().key()).isEqualTo("port:host-0/nic0");
        });
        assertThat(opened).filteredOn(a -> !a.rootCause()).singleElement()
            .satisfies(a -> assertThat(a.entity().key()).isEqualTo("port:host-3/nic0"));
    }

    @Test
    void aBadRecordGoesToTheDeadLetterTopicAndAnalysisGoesOn() {
        samples.pipeInput("leaf-0", "{not json".getBytes(StandardCharsets.UTF_8));
        run(30, (t, p, c, g) -> {
            if (p.equals(new PortRef("leaf-0", "eth2")) && t >= 10) {
                g.put("oper_up", 0.0);
            }
        });
        assertThat(dead.readRecordsToList()).singleElement()
            .satisfies(r -> assertThat(new String(r.headers().lastHeader("error").value(), StandardCharsets.UTF_8))
                .isNotBlank());
        assertThat(opened()).extracting(Alert::type).containsExactly(FaultType.LINK_DOWN);
    }

    @Test
    void aNegativeQueueDepthIsDeadLetteredWithItsReasonAndAnalysisGoesOn() {
        run(30, (t, p, c, g) -> {
            if (p.equals(new PortRef("leaf-1", "eth0")) && t == 5) {
                g.put("queue_depth_bytes", -5.0);
            }
            if (p.equals(new PortRef("leaf-0", "eth2")) && t >= 10) {
                g.put("oper_up", 0.0);
            }
        });

        assertThat(dead.readRecordsToList()).singleElement().satisfies(r ->
            assertThat(new String(r.headers().lastHeader("error").value(), StandardCharsets.UTF_8))
                .startsWith("negative-gauge").contains("gauge queue_depth_bytes of leaf-1/eth0 is -5.0"));
        assertThat(opened()).extracting(Alert::type).containsExactly(FaultType.LINK_DOWN);
    }

    @Test
    void oneSampleStampedHoursAheadIsDeadLetteredAndTheRestOfTheFabricIsAnalyzedOnTime() {
        final PortRef rogue = new PortRef("leaf-1", "eth0");
        run(40, (t, p, c, g) -> {
            if (p.equals(new PortRef("leaf-0", "eth2")) && t >= 10 && t < 20) {
                g.put("oper_up", 0.0);
            }
        }, (t, p) -> p.equals(rogue) && t == 5 ? 2 * 3_600_000L : 0L);

        assertThat(dead.readRecordsToList()).singleElement().satisfies(r ->
            assertThat(new String(r.headers().lastHeader("error").value(), StandardCharsets.UTF_8))
                .startsWith("timestamp-out-of-range").contains("device leaf-1 stamped its sample 7200 s ahead"));
        final List<Alert> out = alerts();
        assertThat(out).extracting(Alert::state).containsExactly(Alert.State.OPEN, Alert.State.RESOLVED);
        assertThat(out.get(0).firstSeen()).isBetween(T0 + 9_000, T0 + 11_000);
        assertThat(out.get(1).lastSeen()).isBetween(T0 + 19_000, T0 + 22_000);
    }

    @Test
    void shouldJudgeAClockAheadAgainstTheWallClockOfTheProcessorContext() throws Exception {
        // the wall clock the time gate reads is the context's: the test driver's, an hour before the telemetry
        driver.close();
        start(Instant.ofEpochMilli(T0 - 3_600_000L));
        run(0, (t, p, c, g) -> { });

        assertThat(dead.readRecordsToList()).hasSize(fabric.ports().size()).allSatisfy(r ->
            assertThat(new String(r.headers().lastHeader("error").value(), StandardCharsets.UTF_8))
                .startsWith("timestamp-out-of-range").contains("ahead of the wall clock"));

        driver.advanceWallClockTime(Duration.ofHours(1));
        run(0, (t, p, c, g) -> { });
        assertThat(dead.readRecordsToList()).as("once the wall clock has come to them").isEmpty();
    }

    @Test
    void aDeviceWhoseClockRunsNinetySecondsAheadDoesNotStallTheOthers() {
        run(40, (t, p, c, g) -> {
            if (p.equals(new PortRef("leaf-0", "eth2")) && t >= 10 && t < 20) {
                g.put("oper_up", 0.0);
            }
        }, (t, p) -> p.device().equals("host-3") ? 90_000L : 0L);

        assertThat(dead.readRecordsToList()).isEmpty();
        final List<Alert> out = alerts().stream().filter(a -> a.type() == FaultType.LINK_DOWN).toList();
        assertThat(out).extracting(Alert::state).containsExactly(Alert.State.OPEN, Alert.State.RESOLVED);
        assertThat(out.get(0).firstSeen()).isBetween(T0 + 9_000, T0 + 11_000);
        assertThat(out.get(1).lastSeen()).isBetween(T0 + 19_000, T0 + 22_000);
    }

    @Test
    void hostileSamplesAmongHealthyOnesRaiseNoFalseAlertAndEachBadOneIsDeadLetteredWithItsReason() {
        final PortRef victim = new PortRef("leaf-1", "eth0");
        final long year3000 = 32_503_680_000_000L;
        samples.pipeInput("spine-0", ("{\"ts\":" + T0 + ",\"device\":\"spine-0\",\"port\":\"eth0\",\"source\":\"t\","
            + "\"counters\":{\"tx_bytes\":1},\"gauges\":{\"latency_p99_us\":NaN}}").getBytes(StandardCharsets.UTF_8));
        run(40, (t, p, c, g) -> {
            if (p.equals(victim) && t == 12) {
                c.put("tx_bytes", Long.MAX_VALUE); // a counter that jumps by 2^63, then is back where it was
            }
            if (p.equals(new PortRef("leaf-0", "eth2")) && t >= 20) {
                g.put("oper_up", 0.0);
            }
        }, (t, p) -> p.equals(victim) && t == 15 ? -3_600_000L : 0L); // one sample an hour late
        for (int d = 0; d < 2_000; d++) { // names no topology knows
            samples.pipeInput("stranger-" + d, ("{\"ts\":" + (T0 + 30_000) + ",\"device\":\"stranger-" + d
                + "\",\"port\":\"eth0\",\"source\":\"t\",\"counters\":{\"tx_bytes\":" + d + "}}").getBytes(StandardCharsets.UTF_8));
        }
        for (final long ts : new long[] {1_000, year3000}) { // stamped 1970 (not epoch ms), year 3000
            samples.pipeInput("leaf-0", ("{\"ts\":" + ts + ",\"device\":\"leaf-0\",\"port\":\"eth0\",\"source\":\"t\","
                + "\"counters\":{\"tx_bytes\":1}}").getBytes(StandardCharsets.UTF_8));
        }
        run(0, (t, p, c, g) -> { }, (t, p) -> 40_000L); // a duplicate of the last round

        assertThat(dead.readRecordsToList()).extracting(r -> new String(r.headers().lastHeader("error").value(),
            StandardCharsets.UTF_8)).satisfiesExactlyInAnyOrder(e -> assertThat(e).startsWith("malformed"),
            e -> assertThat(e).startsWith("timestamp-out-of-range").contains("is before 2000-01-01T00:00:00Z"),
            e -> assertThat(e).startsWith("timestamp-out-of-range").contains("ahead of the wall clock"));
        assertThat(opened()).as("only the link that went down").extracting(a -> a.type() + " " + a.entity().key())
            .containsExactly("LINK_DOWN link:leaf-0~spine-0");
    }

    /**
     * One port stamped +90 s held its lane back for a minute, then 2,096 intervals were discarded as late,
     * with no log line and {@code fabric_device_clock_ahead_seconds} empty. Among a healthy fabric, one port (then a
     * whole device) stamped 90 s ahead: the rest is analyzed tick after tick with nothing late, the device is metered
     * and logged once, and its own intervals are analyzed at the time they carry once the fabric gets there.
     */
    @ParameterizedTest(name = "{0} ahead")
    @ValueSource(strings = {"one port", "one device"})
    void shouldAnalyzeTheRestOfTheFabricOnTimeWhileOneClockRunsNinetySecondsAhead(final String which) {
        final PortRef victim = new PortRef("leaf-1", "eth0");
        final Predicate<PortRef> ahead = which.equals("one port") ? victim::equals
            : p -> p.device().equals(victim.device());
        final List<String> warnings;
        try (WarningCapture log = new WarningCapture(RatesStage.class.getName())) {
            run(150, (t, p, c, g) -> add(1_000_000L).accept(c, "tx_bytes"), (t, p) -> ahead.test(p) ? 90_000L : 0L);
            warnings = log.lines();
        }

        final TickReport last = reports.get(reports.size() - 1);
        assertThat(last.tick().endMs()).as("ticks close as the healthy fabric goes").isGreaterThanOrEqualTo(T0 + 140_000);
        assertThat(reports).extracting(r -> r.tick().index()).as("one tick after another, none skipped")
            .containsExactlyElementsOf(LongStream.rangeClosed(reports.get(0).tick().index(),
                last.tick().index()).boxed().toList());
        assertThat(last.lateIntervals()).as("no interval late").isZero();
        for (final TickReport r : reports) {
            if (r.tick().startMs() >= T0 + 1_000) {
                assertThat(r.tick().ports()).filteredOn(pt -> !ahead.test(pt.port()))
                    .as("every healthy port in tick %d", r.tick().index()).hasSize((int) fabric.ports().stream()
                        .filter(ahead.negate()).count())
                    .allSatisfy(pt -> assertThat(pt.reports("tx_bytes") ? pt.observed("tx_bytes") : -1).isEqualTo(1_000_000.0));
            }
            if (r.tick().startMs() >= T0 + 91_000) {
                assertThat(r.tick().ports()).filteredOn(pt -> ahead.test(pt.port())).as("its intervals at their time")
                    .isNotEmpty().allSatisfy(pt -> assertThat(pt.reports("tx_bytes") ? pt.observed("tx_bytes") : -1).isEqualTo(1_000_000.0));
            }
        }

        metrics.refresh();
        assertThat(registry.get("fabric.device.clock.ahead.seconds").tag("device", victim.device()).gauge().value())
            .isBetween(85.0, 95.0);
        assertThat(registry.get("fabric.intervals.late").functionCounter().count()).isZero();
        assertThat(warnings).filteredOn(w -> w.contains(victim.device())).as("logged once")
            .singleElement().asString().contains("ahead");
        assertThat(dead.readRecordsToList()).as("nothing dead-lettered: analyzed at its place").isEmpty();
    }

    /** The WARN lines one logger writes while open, in memory. */
    private static final class WarningCapture implements AutoCloseable {
        private final List<String> lines = new CopyOnWriteArrayList<>();
        private final String logger;
        private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
        private final AbstractAppender appender = new AbstractAppender("warnings", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(final LogEvent event) {
                lines.add(event.getMessage().getFormattedMessage());
            }
        };

        WarningCapture(final String logger) {
            this.logger = logger;
            appender.start();
            final LoggerConfig config = new LoggerConfig(logger, Level.WARN, false);
            config.addAppender(appender, Level.WARN, null);
            context.getConfiguration().addLogger(logger, config);
            context.updateLoggers();
        }

        List<String> lines() {
            return List.copyOf(lines);
        }

        @Override
        public void close() {
            context.getConfiguration().removeLogger(logger);
            context.updateLoggers();
            appender.stop();
        }
    }
}
