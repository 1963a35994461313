package dev.fabrictwin.analyzer.twin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.analyzer.SampleIntervals;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.scenario.TelemetryProfile;
import dev.fabrictwin.twin.sim.PortCounters;
import dev.fabrictwin.twin.telemetry.Sample;

class TwinReplicaTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Scenario scenario(final String faults) {
        return ScenarioParser.parse(ScenarioParser.tree("""
            name: replica
            seed: 5
            duration: 20s
            fabric: {kind: spine-leaf, spines: 2, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
            jobs:
              - {id: j, hosts: 4, pattern: ring-allreduce, bytesPerIteration: 2GB, iterationPeriod: 2s, commFraction: 0.4}
            """ + faults), Path.of("."));
    }

    /** The generator's samples of a scenario, and its topology and jobs as the topics carry them. */
    private record Generated(List<Sample> samples, JsonNode topology, List<JsonNode> jobs, long epochMs) {
        static Generated of(final Scenario s) throws Exception {
            final SyntheticCluster cluster = new SyntheticCluster(s, TelemetryProfile.ideal());
            final List<Sample> samples = new ArrayList<>();
            cluster.run(samples::add, d -> { });
            final List<JsonNode> jobs = new ArrayList<>();
            JSON.readTree(SimulationFiles.jobsJson(cluster)).forEach(jobs::add);
            return new Generated(samples, JSON.readTree(SimulationFiles.topologyJson(cluster)), jobs, s.epoch().toEpochMilli());
        }

        TwinReplica replica() {
            return TwinReplica.from(topology, jobs, epochMs);
        }
    }

    /** Runs the generator, rebuilds a replica from its topology and jobs JSON, returns both sides per interval. */
    private static List<double[]> observedVsExpected(final Scenario s, final String device, final String port,
                                                     final String counter) throws Exception {
        final Generated g = Generated.of(s);
        final TwinReplica replica = g.replica();

        final SampleIntervals intervals = new SampleIntervals(1_000);
        final List<double[]> out = new ArrayList<>();
        for (final Sample x : g.samples()) {
            final Optional<PortInterval> interval = intervals.next(x);
            if (interval.isEmpty()) {
                continue;
            }
            final PortInterval i = interval.get();
            replica.steer(ReplicaSync.operState(i, replica.fabric().portIndex(new PortRef(i.device(), i.port()))));
            if (x.device().equals(device) && x.port().equals(port)) {
                final PortCounters expected = replica.expected(i);
                out.add(new double[] {i.increases().get(counter), expected.counter(counter)});
            }
        }
        return out;
    }

    @Test
    void aReplicaKeepingSomeLinksOnlyExpectsExactlyTheSameOnThem() throws Exception {
        final Scenario s = scenario("""
            faults:
              - {type: PFC_STORM, target: {device: host-0, port: nic0}, start: 5s, end: 12s}
            """);
        assertThat(keptExpectEqual(s, (fabric, d) -> d / 2 % 2 == 0)[0]).isGreaterThan(100); // every other link
    }

    /**
     * A shard's replica keeps one leaf's links and works out their marks' part only; the CNPs of its NICs' flows
     * still take the marks of every hop they cross, other shards' links included, so they come out as the whole's.
     */
    @Test
    void aShardsReplicaCountsItsFlowsCnpsFromTheMarksOfEveryHop() throws Exception {
        final Scenario s = ScenarioParser.parse(ScenarioParser.tree("""
            name: replica-congested
            seed: 7
            duration: 20s
            fabric: {kind: spine-leaf, spines: 2, leaves: 4, hostsPerLeaf: 4, nicsPerHost: 1, linkSpeed: 100G}
            jobs:
              - {id: a2a, hosts: 16, pattern: all-to-all, bytesPerIteration: 8GB, iterationPeriod: 2s, commFraction: 0.6}
            """), Path.of("."));
        final double[] compared = keptExpectEqual(s, (fabric, d) -> {
            final String tx = fabric.node(fabric.txNode(d)).name();
            final String rx = fabric.node(fabric.rxNode(d)).name();
            return tx.equals("leaf-1") || rx.equals("leaf-1"); // leaf-1's links, both ways: its NICs and uplinks
        });
        assertThat(compared[0]).isGreaterThan(100);
        assertThat(compared[1]).as("CNPs expected on the kept links").isGreaterThan(0);
    }

    /**
     * Replays a scenario's intervals into a whole replica and one keeping the links {@code keep} picks; asserts the two
     * expect the same on every kept port; returns the intervals compared and the CNPs (sent and handled) expected on them.
     */
    private static double[] keptExpectEqual(final Scenario s, final BiPredicate<Fabric, Integer> keep) throws Exception {
        final Generated g = Generated.of(s);
        final TwinReplica whole = g.replica();
        final TwinReplica part = g.replica();
        final boolean[] kept = new boolean[part.fabric().directedLinkCount()];
        for (int d = 0; d < kept.length; d++) {
            kept[d] = keep.test(part.fabric(), d);
        }
        part.recordOnly(kept);

        final SampleIntervals intervals = new SampleIntervals(1_000);
        int compared = 0;
        double cnps = 0;
        for (final Sample x : g.samples()) {
            final Optional<PortInterval> interval = intervals.next(x);
            if (interval.isEmpty()) {
                continue;
            }
            final PortInterval i = interval.get();
            final int port = whole.fabric().portIndex(new PortRef(i.device(), i.port()));
            whole.steer(ReplicaSync.operState(i, port));
            part.steer(ReplicaSync.operState(i, port));
            if (kept[port]) {
                final PortCounters p = part.expected(i);
                final PortCounters w = whole.expected(i);
                assertThat(p.counters()).as("%s/%s at %d", i.device(), i.port(), i.t1()).isEqualTo(w.counters());
                assertThat(p.gauges()).as("%s/%s at %d", i.device(), i.port(), i.t1()).isEqualTo(w.gauges());
                cnps += w.counter(CounterNames.CNP_SENT) + w.counter(CounterNames.CNP_HANDLED);
                compared++;
            }
        }
        assertThat(part.historyStates()).isLessThan(whole.historyStates());
        return new double[] {compared, cnps};
    }

    /**
     * Before it runs, a replica is what its last documents and epoch make it: built a tick early on a topology alone,
     * told the jobs, then anchored and kept to some links, it expects what one built late with everything does.
     */
    @Test
    void beforeItRunsAReplicaIsWhatItsLastDocumentsAndEpochMakeIt() throws Exception {
        final Generated g = Generated.of(scenario(""));
        final TwinReplica early = TwinReplica.from(g.topology(), List.of(), g.epochMs() - 1_000);
        final boolean[] kept = new boolean[early.fabric().directedLinkCount()];
        Arrays.fill(kept, true);
        early.recordOnly(kept);
        early.steer(ReplicaSync.jobs(g.jobs(), g.epochMs() + 3_000));
        assertThat(early.jobs()).hasSameSizeAs(g.jobs());
        early.anchor(g.epochMs());
        final TwinReplica late = g.replica();

        final SampleIntervals intervals = new SampleIntervals(1_000);
        int compared = 0;
        for (final Sample x : g.samples()) {
            final Optional<PortInterval> interval = intervals.next(x);
            if (interval.isPresent()) {
                final PortInterval i = interval.get();
                assertThat(early.expected(i).counters()).as("%s/%s at %d", i.device(), i.port(), i.t1())
                    .isEqualTo(late.expected(i).counters());
                compared++;
            }
        }
        assertThat(compared).isGreaterThan(100);
        assertThat(early.started()).isTrue();
        Assertions.assertThatThrownBy(() -> early.anchor(g.epochMs() + 1_000))
            .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldPredictAHealthyNicsBytesFromTheTopicsAlone() throws Exception {
        final List<double[]> pairs = observedVsExpected(scenario(""), "host-1", "nic0", "tx_bytes");

        assertThat(pairs).hasSizeGreaterThan(15);
        final double observed = pairs.stream().mapToDouble(p -> p[0]).sum();
        final double expected = pairs.stream().mapToDouble(p -> p[1]).sum();
        assertThat(observed).isPositive();
        assertThat(expected / observed).isCloseTo(1.0, within(0.01));
    }

    @Test
    void shouldFollowALinkReportedDownAndExpectNothingOnIt() throws Exception {
        final Scenario s = scenario("""
            faults:
              - {type: LINK_DOWN, target: {device: leaf-0, peer: spine-0}, start: 5s, end: 15s}
            """);
        final List<double[]> pairs = observedVsExpected(s, "leaf-0", "eth2", "tx_bytes");

        // samples 7..14 s lie inside the outage: the real link carries nothing, and the replica agrees
        for (int k = 7; k < 14; k++) {
            assertThat(pairs.get(k)[0]).as("observed at %d s", k).isZero();
            assertThat(pairs.get(k)[1]).as("expected at %d s", k).isZero();
        }
    }
}
