package dev.fabrictwin.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.scenario.TelemetryProfile;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * An alert claims no more than its evidence: with 10 s polls at each device's own phase, ticks labelled
 * on the 10 s grid, a link-down alert's {@code firstSeen} lies within one poll interval before the first sample that
 * shows the link down, never before the interval that ends in it.
 */
class EvidenceTimesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long POLL_MS = 10_000;

    private static final Scenario SCENARIO = ScenarioParser.parse(ScenarioParser.tree("""
        name: evidence
        seed: 5
        duration: 300s
        sampleInterval: 10s
        fabric: {kind: spine-leaf, spines: 2, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
        jobs:
          - {id: j, hosts: 4, pattern: ring-allreduce, bytesPerIteration: 2GB, iterationPeriod: 2s, commFraction: 0.4}
        faults:
          - {type: LINK_DOWN, target: {device: host-1, peer: leaf-0}, start: 103s, end: 200s}
        """), Path.of("."));

    /** Phases of the two ends' polls (ms after the grid), as two routers of a real lab poll at x9.9 s and x1 s. */
    @ParameterizedTest
    @CsvSource({"9900, 1000", "2000, 2000", "5000, 7500", "0, 0"})
    void shouldNotClaimTheLinkDownBeforeTheIntervalThatShowsIt(final long hostPhaseMs, final long leafPhaseMs) throws Exception {
        final SyntheticCluster cluster = new SyntheticCluster(SCENARIO, TelemetryProfile.ideal());
        final List<Sample> samples = new ArrayList<>();
        cluster.run(s -> samples.add(shifted(s, s.device().startsWith("host-") ? hostPhaseMs
            : s.device().startsWith("leaf-") ? leafPhaseMs : 3_000)), d -> { });
        samples.sort(Comparator.comparingLong(Sample::ts));
        final long firstDown = samples.stream()
            .filter(s -> s.device().equals("host-1") || s.device().equals("leaf-0"))
            .filter(s -> s.gauges().getOrDefault("oper_up", 1.0) == 0.0)
            .mapToLong(Sample::ts).min().orElseThrow();

        final List<JsonNode> jobs = new ArrayList<>();
        JSON.readTree(SimulationFiles.jobsJson(cluster)).forEach(jobs::add);
        final FabricAnalyzer analyzer = new FabricAnalyzer(TwinReplica.from(JSON.readTree(SimulationFiles.topologyJson(cluster)),
            jobs, SCENARIO.epoch().toEpochMilli()), AnalyzerConfig.defaults(POLL_MS));
        final SampleIntervals intervals = new SampleIntervals(POLL_MS);
        final List<Alert> alerts = new ArrayList<>();
        for (final Sample x : samples) {
            final Optional<PortInterval> interval = intervals.next(x);
            interval.ifPresent(i -> alerts.addAll(analyzer.accept(i).alerts()));
        }
        alerts.addAll(analyzer.flush().alerts());

        final Alert down = alerts.stream().filter(a -> a.type().name().equals("LINK_DOWN") && a.state() == Alert.State.OPEN)
            .findFirst().orElseThrow(() -> new AssertionError("no LINK_DOWN opened: " + alerts));
        assertThat(down.entity().key()).isEqualTo("link:host-1~leaf-0");
        assertThat(down.firstSeen()).as("firstSeen against the first sample showing the link down, %d", firstDown)
            .isLessThanOrEqualTo(firstDown).isGreaterThanOrEqualTo(firstDown - POLL_MS);
        assertThat(down.lastSeen()).isGreaterThanOrEqualTo(down.firstSeen());
    }

    private static Sample shifted(final Sample s, final long phaseMs) {
        return new Sample(s.ts() + phaseMs, s.device(), s.port(), s.source(), s.counters(), s.gauges());
    }
}
