package dev.fabrictwin.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

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
 * Real telemetry names its ports as the devices do; the topology document's {@code names} section makes them meet.
 * The same cluster analyzed under its own names and under collector-style names gives the same alerts, and samples
 * from devices the topology does not know are counted, not analyzed.
 */
class TelemetryNamesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final Scenario SCENARIO = ScenarioParser.parse(ScenarioParser.tree("""
        name: names
        seed: 11
        duration: 60s
        fabric: {kind: spine-leaf, spines: 2, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
        jobs:
          - {id: j, hosts: 4, pattern: ring-allreduce, bytesPerIteration: 2GB, iterationPeriod: 2s, commFraction: 0.4}
        faults:
          - {type: LINK_DOWN, target: {device: host-1, peer: leaf-0}, start: 20s, end: 45s}
        """), Path.of("."));

    private record Run(List<String> alerts, Map<String, Integer> unmatched) {
    }

    private static Run analyze(final UnaryOperator<Sample> rename, final List<Sample> extra, final JsonNode names)
        throws Exception {
        final SyntheticCluster cluster = new SyntheticCluster(SCENARIO, TelemetryProfile.ideal());
        final List<Sample> samples = new ArrayList<>();
        cluster.run(s -> samples.add(rename.apply(s)), d -> { });
        samples.addAll(extra);
        samples.sort(Comparator.comparingLong(Sample::ts));
        final ObjectNode topology = (ObjectNode) JSON.readTree(SimulationFiles.topologyJson(cluster));
        if (names != null) {
            topology.set("names", names);
        }
        final List<JsonNode> jobs = new ArrayList<>();
        JSON.readTree(SimulationFiles.jobsJson(cluster)).forEach(jobs::add);
        final FabricAnalyzer analyzer = new FabricAnalyzer(TwinReplica.from(topology, jobs,
            SCENARIO.epoch().toEpochMilli()), AnalyzerConfig.defaults(1_000));
        final SampleIntervals intervals = new SampleIntervals(1_000);
        final List<String> alerts = new ArrayList<>();
        final Map<String, Integer> unmatched = new HashMap<>();
        for (final Sample x : samples) {
            final Optional<PortInterval> interval = intervals.next(x);
            if (interval.isPresent()) {
                final FabricAnalyzer.Output out = analyzer.accept(interval.get());
                if (out.unmatched() != null) {
                    unmatched.merge(out.unmatched(), 1, Integer::sum);
                }
                out.alerts().forEach(a -> alerts.add(describe(a)));
            }
        }
        analyzer.flush().alerts().forEach(a -> alerts.add(describe(a)));
        return new Run(alerts, unmatched);
    }

    private static String describe(final Alert a) {
        return a.id() + " " + a.state() + " " + a.type() + " " + a.entity().key() + (a.rootCause() ? " root" : " victim");
    }

    /** Collector-style names: hosts by FQDN and RDMA device/port, leaves with a Junos logical unit. */
    private static Sample collectorNames(final Sample s) {
        if (s.device().startsWith("host-")) {
            return new Sample(s.ts(), s.device() + ".cluster.example.com", s.port().replace("nic", "mlx5_") + "/1", s.source(),
                s.counters(), s.gauges());
        }
        if (s.device().startsWith("leaf-")) {
            return new Sample(s.ts(), s.device(), s.port() + ".0", s.source(), s.counters(), s.gauges());
        }
        return s;
    }

    @Test
    void collectorNamesMappedByTheTopologyGiveTheSameAlertsAsTheTopologysOwnNames() throws Exception {
        final Run own = analyze(UnaryOperator.identity(), List.of(), null);
        final Run collector = analyze(TelemetryNamesTest::collectorNames, List.of(),
            JSON.readTree("{\"rules\": [{\"match\": \"^(host-\\\\d+)\\\\.cluster\\\\.example\\\\.com/mlx5_(\\\\d+)/1$\", \"to\": \"$1/nic$2\"}]}"));

        assertThat(own.alerts()).anyMatch(a -> a.contains("OPEN LINK_DOWN") && a.contains("host-1") && a.endsWith("root"));
        assertThat(collector.alerts()).isEqualTo(own.alerts());
        assertThat(collector.unmatched()).isEmpty();
    }

    @Test
    void withoutTheRuleTheHostsDoNotMeetAndAreCountedNotGuessed() throws Exception {
        final Run collector = analyze(TelemetryNamesTest::collectorNames, List.of(), null);

        // the domain is a built-in spelling (device found), the RDMA port name is not
        assertThat(collector.unmatched()).containsOnlyKeys("unknown-port");
        assertThat(collector.unmatched().get("unknown-port")).isGreaterThan(4 * 50);
    }

    @Test
    void samplesFromDevicesNotInTheTopologyAreCountedAndChangeNothing() throws Exception {
        final Run own = analyze(UnaryOperator.identity(), List.of(), null);
        final List<Sample> strangers = new ArrayList<>();
        final long epoch = SCENARIO.epoch().toEpochMilli();
        for (int t = 0; t < 60; t++) {
            for (int d = 0; d < 50; d++) {
                strangers.add(new Sample(epoch + t * 1_000L, "stranger-" + d, "eth0", "test",
                    Map.of("tx_bytes", t * 1_000_000L, "rx_packets", (long) t * 7), Map.of()));
            }
        }
        final Run withStrangers = analyze(UnaryOperator.identity(), strangers, null);

        assertThat(withStrangers.alerts()).isEqualTo(own.alerts());
        assertThat(withStrangers.unmatched()).containsExactly(Map.entry("unknown-device", 50 * 59));
    }
}
