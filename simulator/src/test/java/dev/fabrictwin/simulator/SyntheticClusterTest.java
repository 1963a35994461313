package dev.fabrictwin.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.ingest.IngestStats;
import dev.fabrictwin.ingest.StreamSinks;
import dev.fabrictwin.ingest.format.CanonicalAdapter;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.scenario.TelemetryProfile;
import dev.fabrictwin.twin.telemetry.Sample;

class SyntheticClusterTest {

    static final String SMALL = """
        name: small
        seed: 3
        duration: 60s
        sampleInterval: 1s
        fabric: {kind: spine-leaf, spines: 2, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
        jobs:
          - {id: j, hosts: 4, pattern: ring-allreduce, bytesPerIteration: 2GB, iterationPeriod: 2s, commFraction: 0.4}
        """;

    static Scenario scenario(final String yaml) {
        return ScenarioParser.parse(ScenarioParser.tree(yaml), Path.of("."));
    }

    private static List<Sample> run(final Scenario s, final TelemetryProfile p) {
        final List<Sample> out = new ArrayList<>();
        new SyntheticCluster(s, p).run(out::add, done -> { });
        return out;
    }

    @Test
    void shouldReplayExactlyForTheSameSeed() {
        final List<String> a = run(scenario(SMALL), TelemetryProfile.defaults()).stream().map(SampleJson::write).toList();
        final List<String> b = run(scenario(SMALL), TelemetryProfile.defaults()).stream().map(SampleJson::write).toList();
        final List<String> c = run(scenario(SMALL.replace("seed: 3", "seed: 4")), TelemetryProfile.defaults()).stream()
            .map(SampleJson::write).toList();

        assertThat(a).isNotEmpty().isEqualTo(b);
        assertThat(c).isNotEqualTo(a);
    }

    /** Memory follows the fabric, not the run: the generator keeps only the link history a later poll can reach. */
    @Test
    void shouldKeepOnlyTheLastSecondsOfLinkHistoryHoweverLongItRuns() {
        final SyntheticCluster cluster = new SyntheticCluster(scenario(SMALL), TelemetryProfile.defaults());
        final long[] statesAtTen = {-1};
        cluster.run(s -> { }, round -> {
            if (round == 10) {
                statesAtTen[0] = cluster.twin().simulation().timeline().stateCount();
            }
        });

        assertThat(cluster.twin().simulation().timeline().forgottenBefore())
            .isGreaterThanOrEqualTo(60 - SyntheticCluster.HISTORY_S - 2);
        // 60 s of a periodic job hold about as many link states as its first 10 s (history 10 s), not six times as many
        assertThat(cluster.twin().simulation().timeline().stateCount()).isLessThan(2 * statesAtTen[0]);
        assertThat(cluster.twin().simulation().iterations()).allSatisfy(r ->
            assertThat(r.commEnd()).isGreaterThanOrEqualTo(60 - SyntheticCluster.HISTORY_S - 2));
    }

    @Test
    void shouldLookLikeRealTelemetrySkewedJitteredLossyAndLate() {
        final Scenario s = scenario(SMALL);
        final TelemetryProfile p = new TelemetryProfile(64, 50, 20, 0.02, 0.02, 0, 0.02, 0.01);
        final List<Sample> samples = run(s, p);
        final int ports = 8 * 2 / 2 + 2 * 2 * 2; // 4 host links + 4 uplinks, two ports each = 16
        final int rounds = 60;

        assertThat(samples.size()).isLessThan(16 * rounds).isGreaterThan(16 * rounds * 9 / 10);
        // skew + jitter: sample times are not on the interval grid
        assertThat(samples.stream().filter(x -> x.ts() % 1000 != 0).count()).isGreaterThan(samples.size() / 2);
        // late samples: delivery order is not time order
        long outOfOrder = 0;
        final Map<String, Long> lastTs = new HashMap<>();
        for (final Sample x : samples) {
            final String k = x.device() + "/" + x.port();
            final Long prev = lastTs.put(k, x.ts());
            if (prev != null && prev > x.ts()) {
                outOfOrder++;
            }
        }
        assertThat(outOfOrder).isPositive();
        assertThat(ports).isEqualTo(16);
    }

    @Test
    void shouldWrap32BitCountersAndResetCountersOfARebootedDevice() {
        final Scenario s = scenario(SMALL);
        final List<Sample> wrapped = run(s, new TelemetryProfile(32, 0, 0, 0, 0, 1, 0, 0));

        final Map<String, List<Sample>> byPort = wrapped.stream()
            .collect(Collectors.groupingBy(x -> x.device() + "/" + x.port(), LinkedHashMap::new, Collectors.toList()));
        assertThat(wrapped).allSatisfy(x -> assertThat(x.counter("tx_bytes", 0)).isBetween(0L, 0xFFFF_FFFFL));
        long decreases = 0;
        for (final List<Sample> series : byPort.values()) {
            for (int i = 1; i < series.size(); i++) {
                if (series.get(i).counter("tx_bytes", 0) < series.get(i - 1).counter("tx_bytes", 0)) {
                    decreases++;
                }
            }
        }
        assertThat(decreases).as("32-bit byte counters at 100G wrap").isPositive();

        final SyntheticCluster cluster = new SyntheticCluster(s, new TelemetryProfile(64, 0, 0, 0, 0, 1, 0, 0));
        final List<Sample> rebooted = new ArrayList<>();
        cluster.run(rebooted::add, d -> { });
        final String device = cluster.reboots().keySet().iterator().next();
        final List<Long> fcs = rebooted.stream().filter(x -> x.device().equals(device))
            .filter(x -> x.port().equals(rebooted.stream().filter(y -> y.device().equals(device)).findFirst().orElseThrow().port()))
            .map(x -> x.counter("tx_packets", 0)).toList();
        boolean reset = false;
        for (int i = 1; i < fcs.size(); i++) {
            reset |= fcs.get(i) < fcs.get(i - 1);
        }
        assertThat(reset).as("counters of %s restart after its reboot", device).isTrue();
    }

    /** A flap shorter than the poll: oper_up never shows it, both ends' carrier counters count each down and up. */
    @Test
    void shouldCountEveryDownAndUpOfAFlappingLinkAtBothEnds() {
        final List<Sample> samples = run(scenario(SMALL + """
            faults:
              - {type: LINK_FLAP, target: {device: leaf-0, peer: spine-1}, start: 10s, end: 45s, period: 10, downSeconds: 0.2}
            """), TelemetryProfile.ideal());

        final Map<String, Long> lastFlaps = new HashMap<>();
        samples.forEach(x -> lastFlaps.put(x.device() + "/" + x.port(), x.counter(CounterNames.LINK_FLAPS, -1)));
        assertThat(lastFlaps).as("four flaps from 10 s, every 10 s").containsEntry("leaf-0/eth3", 8L)
            .containsEntry("spine-1/eth0", 8L).containsEntry("leaf-0/eth2", 0L).containsEntry("host-0/nic0", 0L);
        assertThat(samples).filteredOn(x -> x.device().equals("leaf-0") && x.port().equals("eth3"))
            .extracting(x -> x.gauges().get(CounterNames.OPER_UP)).containsOnly(1.0);
    }

    @Test
    void shouldShowAPfcStormAtItsOriginAndAtVictimsUpstreamOnlyDuringTheFault() throws Exception {
        final Scenario s = ScenarioParser.parse(Path.of("..", "scenarios", "pfc-storm-small.yaml"));
        final List<Sample> samples = run(s, TelemetryProfile.ideal());
        final long start = s.epochMillis(s.faults().get(0).start());
        final long end = s.epochMillis(s.faults().get(0).end());

        assertThat(increase(samples, "host-5", "nic0", "tx_pfc_pause.3", s.epoch().toEpochMilli(), start)).isZero();
        assertThat(increase(samples, "host-5", "nic0", "tx_pfc_pause.3", start + 2000, end)).isPositive();
        // host-5 is the second host of leaf-1: leaf-1/eth1 faces it and receives the pauses
        assertThat(increase(samples, "leaf-1", "eth1", "rx_pfc_pause.3", start + 2000, end))
            .isEqualTo(increase(samples, "host-5", "nic0", "tx_pfc_pause.3", start + 2000, end));
        // its ring predecessor host-4 (leaf-1/eth0) feeds the stuck port and is paused by leaf-1: a victim
        assertThat(increase(samples, "host-4", "nic0", "rx_pfc_pause.3", start + 2000, end)).isPositive();
        assertThat(increase(samples, "host-4", "nic0", "rx_pfc_pause.3", end + 3000, s.epochMillis(s.duration()))).isZero();
    }

    @Test
    void shouldRoundTripThroughCanonicalIngestExactly(@TempDir final Path dir) throws Exception {
        final SyntheticCluster cluster = new SyntheticCluster(scenario(SMALL), TelemetryProfile.defaults());
        SimulationFiles.write(cluster, dir, d -> { });
        final byte[] original = Files.readAllBytes(dir.resolve(SimulationFiles.SAMPLES));

        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream rejected = new ByteArrayOutputStream();
        final IngestStats stats = new IngestStats();
        new CanonicalAdapter().parse(new ByteArrayInputStream(original),
            ParseContext.defaults(Clock.fixed(Instant.parse("2026-11-01T00:00:00Z"), ZoneOffset.UTC)).withoutTimeWindow(), new StreamSinks(out, rejected, "t", stats));

        assertThat(stats.rejected()).isZero();
        assertThat(out.toByteArray()).isEqualTo(original);
        assertThat(Files.readString(dir.resolve(SimulationFiles.TRUTH))).isEmpty();
        assertThat(Files.readString(dir.resolve(SimulationFiles.TOPOLOGY))).contains("\"host-0/nic0\"");
        assertThat(Files.readString(dir.resolve(SimulationFiles.JOBS))).contains("\"ring-allreduce\"");
    }

    @Test
    void simulatesExplicitFlowsAndWritesTheScenariosTransportIntoTheTopology(@TempDir final Path dir) throws Exception {
        final Scenario s = scenario("""
            name: flows-only
            duration: 10s
            fabric: {kind: spine-leaf, spines: 2, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
            transport: pfc
            flows:
              - {src: host-0, dst: host-3/nic0, bytes: 10GB, start: 2s}
            """);
        final List<Sample> samples = run(s, TelemetryProfile.ideal());
        final long end = s.epochMillis(s.duration());
        final long first = s.epochMillis(1.0); // counters start anywhere: measure from the first sample
        final double wire = Technology.ROCE_V2.wirePerPayload();
        assertThat(increase(samples, "host-0", "nic0", "tx_bytes", first, s.epochMillis(2.0))).isZero();
        assertThat((double) increase(samples, "host-0", "nic0", "tx_bytes", first, end))
            .isCloseTo(10e9 * wire, Assertions.within(1e3)); // once, then it ends
        assertThat((double) increase(samples, "host-3", "nic0", "rx_bytes", first, end))
            .isCloseTo(10e9 * wire, Assertions.within(1e3));

        SimulationFiles.write(new SyntheticCluster(s, TelemetryProfile.ideal()), dir, d -> { });
        assertThat(Files.readString(dir.resolve(SimulationFiles.TOPOLOGY))).contains("\"transport\" : \"pfc\"");
    }

    /** Counter increase between the last samples at or before t0 and t1 (ideal telemetry: no wraps). */
    private static long increase(final List<Sample> samples, final String device, final String port, final String counter,
                                 final long t0, final long t1) {
        Sample a = null;
        Sample b = null;
        for (final Sample x : samples) {
            if (x.device().equals(device) && x.port().equals(port)) {
                if (x.ts() <= t0) {
                    a = x;
                }
                if (x.ts() <= t1) {
                    b = x;
                }
            }
        }
        final long before = a == null ? 0 : a.counter(counter, 0);
        return b == null ? 0 : b.counter(counter, 0) - before;
    }
}
