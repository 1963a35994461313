package dev.fabrictwin.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.twin.ReplicaSync;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.scenario.TelemetryProfile;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * Jobs start and end while the analyzer runs. In the telemetry, job {@code late} starts at 20 s and ends at 60 s;
 * the replica learns it from the job documents ({@code startMs}/{@code endMs}, or a tombstone a few seconds after
 * the end) and follows at event time: no alert on a healthy fabric, and job health only while the job runs.
 */
class JobLifecycleTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Scenario SCENARIO = ScenarioParser.parse(ScenarioParser.tree("""
        name: lifecycle
        seed: 3
        duration: 90s
        fabric: {kind: spine-leaf, spines: 2, leaves: 4, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
        jobs:
          - {id: steady, hosts: 4, pattern: ring-allreduce, bytesPerIteration: 2GB, iterationPeriod: 2s, commFraction: 0.4}
          - {id: late, hosts: 4, pattern: ring-allreduce, bytesPerIteration: 4GB, iterationPeriod: 2s, commFraction: 0.5}
        """), Path.of("."));
    private static final long EPOCH = SCENARIO.epoch().toEpochMilli();
    private static final long START = EPOCH + 20_000;
    private static final long END = EPOCH + 60_000;

    private record Run(List<Alert> alerts, List<JobHealth> health) {
    }

    /**
     * Generates the telemetry (the job really runs 20–60 s) and analyzes it; {@code declare} edits the job documents
     * the analyzer starts with, {@code atMs}/{@code later} replaces them at that event time (null: never).
     */
    private static Run run(final Consumer<Map<String, ObjectNode>> declare, final long atMs,
                           final Consumer<Map<String, ObjectNode>> later) throws Exception {
        final SyntheticCluster cluster = new SyntheticCluster(SCENARIO, TelemetryProfile.ideal());
        cluster.twin().simulation().setPhaseOffset("late", (START - EPOCH) / 1000.0);
        cluster.twin().simulation().endJob("late", (END - EPOCH) / 1000.0);
        final List<Sample> samples = new ArrayList<>();
        cluster.run(samples::add, d -> { });
        final JsonNode topology = JSON.readTree(SimulationFiles.topologyJson(cluster));
        final Map<String, ObjectNode> docs = new LinkedHashMap<>();
        JSON.readTree(SimulationFiles.jobsJson(cluster)).forEach(j -> docs.put(j.get("id").asText(), (ObjectNode) j));
        declare.accept(docs);
        final FabricAnalyzer analyzer = new FabricAnalyzer(TwinReplica.from(topology, List.copyOf(docs.values()), EPOCH),
            AnalyzerConfig.defaults(1_000));
        final SampleIntervals intervals = new SampleIntervals(1_000);
        final List<Alert> alerts = new ArrayList<>();
        final List<JobHealth> health = new ArrayList<>();
        boolean updated = later == null;
        for (final Sample x : samples) {
            final Optional<PortInterval> interval = intervals.next(x);
            if (interval.isEmpty()) {
                continue;
            }
            if (!updated && interval.get().t1() >= atMs) {
                later.accept(docs);
                analyzer.twin().steer(ReplicaSync.jobs(List.copyOf(docs.values()), interval.get().t1()));
                updated = true;
            }
            final FabricAnalyzer.Output out = analyzer.accept(interval.get());
            alerts.addAll(out.alerts());
            health.addAll(out.jobHealth());
        }
        alerts.addAll(analyzer.flush().alerts());
        return new Run(alerts, health);
    }

    private static List<Long> healthTimes(final Run run, final String job) {
        return run.health().stream().filter(h -> h.job().equals(job)).map(JobHealth::ts).toList();
    }

    @Test
    void aJobDeclaredWithItsStartAndEndIsExpectedThenAndRaisesNothing() throws Exception {
        final Run run = run(docs -> docs.get("late").put("startMs", START).put("endMs", END), 0, null);

        assertThat(run.alerts()).isEmpty();
        assertThat(healthTimes(run, "late")).isNotEmpty().allMatch(ts -> ts >= START && ts <= END);
        assertThat(healthTimes(run, "steady")).anyMatch(ts -> ts > END + 10_000);
    }

    @Test
    void aJobPublishedWhenItStartsAndTombstonedAfterItEndsRaisesNothing() throws Exception {
        // the scheduler hook publishes the job as it starts, and its tombstone 4 s after it ended
        final Map<String, ObjectNode> held = new HashMap<>();
        final Run started = run(docs -> held.put("late", docs.remove("late")), START,
            docs -> docs.put("late", held.get("late").put("startMs", START)));
        assertThat(started.alerts()).isEmpty();
        assertThat(healthTimes(started, "late")).isNotEmpty().allMatch(ts -> ts >= START);
        // it ends at 60 s and nobody says so: it goes silent, which is not the network's doing either

        final Run run = run(docs -> docs.get("late").put("startMs", START), END + 4_000, docs -> docs.remove("late"));
        assertThat(run.alerts()).isEmpty();
        assertThat(healthTimes(run, "late")).isNotEmpty().allMatch(ts -> ts <= END + 5_000);
    }

    @Test
    void aJobTheReplicaIsNotToldEndedIsStillExpectedButItsSilenceIsNoFault() throws Exception {
        // the control: without endMs or a tombstone the replica keeps expecting the job's traffic
        final Run run = run(docs -> docs.get("late").put("startMs", START), 0, null);

        assertThat(run.alerts()).isEmpty();
        assertThat(healthTimes(run, "late")).anyMatch(ts -> ts > END + 20_000);
        assertThat(run.health().stream().filter(h -> h.job().equals("late") && h.ts() > END + 10_000)
            .mapToDouble(JobHealth::observedBytesPerSec).max().orElse(-1)).isZero();
    }
}
