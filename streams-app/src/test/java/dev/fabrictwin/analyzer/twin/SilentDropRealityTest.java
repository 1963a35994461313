package dev.fabrictwin.analyzer.twin;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * SILENT_DROP on telemetry the detector was not written against (issue 15): healthy links whose in-flight amount
 * steps between whole comm bursts as phases drift against skewed sampling instants, and switch ports that count
 * the control frames they exchange (LLDP, PFC pauses) in their packet counters while their peers do not.
 */
class SilentDropRealityTest {

    private static List<String> roots(final PathLearnerTest.Run run, final FaultType type) {
        return run.alerts().stream().filter(a -> a.state() == Alert.State.OPEN && a.rootCause() && a.type() == type)
            .map(Alert::id).distinct().toList();
    }

    /**
     * Seed 42's leaf-3 → spine-3 reads 0 or 1 all-to-all bursts in flight, then 2 for good: a least-squares fit over
     * 30 ticks read that step as 5 % loss with 8 standard errors (its residuals are anything but independent).
     */
    @Test
    void aHealthyFabricUnderDefaultTelemetryLosesNothing() throws Exception {
        for (final long seed : new long[] {1, 7, 42}) {
            final PathLearnerTest.Run run = PathLearnerTest.analyze(PathLearnerTest.scenario(seed, ""),
                AnalyzerConfig.defaults(1_000));
            assertThat(roots(run, FaultType.SILENT_DROP)).as("seed %d", seed).isEmpty();
        }
    }

    /** LLDP frames a second each way, and the pauses it sends and receives, counted by the leaf end of every uplink. */
    private static final double LLDP_PER_SECOND = 5;

    private static Sample countingControlFrames(final SyntheticCluster cluster, final Sample s) {
        final PortRef port = new PortRef(s.device(), s.port());
        final boolean counts = cluster.fabric().links().stream().filter(l -> !isHost(l.lower()) && !isHost(l.upper()))
            .map(Link::lower).anyMatch(port::equals);
        if (!counts) {
            return s;
        }
        final double seconds = (s.ts() - cluster.scenario().epoch().toEpochMilli()) / 1000.0;
        final long lldp = Math.round(LLDP_PER_SECOND * seconds);
        final Map<String, Long> counters = new HashMap<>(s.counters());
        final long txPauses = sum(s, CounterNames.TX_PFC_PAUSE);
        final long rxPauses = sum(s, CounterNames.RX_PFC_PAUSE);
        counters.merge(CounterNames.TX_PACKETS, lldp + txPauses, Long::sum);
        counters.merge(CounterNames.TX_BYTES, 64 * (lldp + txPauses), Long::sum);
        counters.merge(CounterNames.RX_PACKETS, lldp + rxPauses, Long::sum);
        counters.merge(CounterNames.RX_BYTES, 64 * (lldp + rxPauses), Long::sum);
        return new Sample(s.ts(), s.device(), s.port(), s.source(), counters, s.gauges());
    }

    private static boolean isHost(final PortRef p) {
        return p.device().startsWith("host");
    }

    private static long sum(final Sample s, final String prefix) {
        return s.counters().entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
            .mapToLong(Map.Entry::getValue).sum();
    }

    @Test
    void controlFramesCountedByOneEndAreNotLoss() throws Exception {
        final PathLearnerTest.Run storm = PathLearnerTest.analyze(ScenarioParser.parse(Path.of("../scenarios/pfc-storm.yaml")),
            AnalyzerConfig.defaults(1_000), SilentDropRealityTest::countingControlFrames);
        assertThat(roots(storm, FaultType.PFC_STORM)).containsExactly("PFC_STORM:port:host-5/nic0");
        assertThat(roots(storm, FaultType.SILENT_DROP)).as("pfc-storm").isEmpty();

        final PathLearnerTest.Run healthy = PathLearnerTest.analyze(PathLearnerTest.scenario(7, ""),
            AnalyzerConfig.defaults(1_000), SilentDropRealityTest::countingControlFrames);
        assertThat(roots(healthy, FaultType.SILENT_DROP)).as("healthy").isEmpty();

        final PathLearnerTest.Run drop = PathLearnerTest.analyze(ScenarioParser.parse(Path.of("../scenarios/silent-drop.yaml")),
            AnalyzerConfig.defaults(1_000), SilentDropRealityTest::countingControlFrames);
        assertThat(roots(drop, FaultType.SILENT_DROP)).containsExactly("SILENT_DROP:link:leaf-4~spine-0");
    }
}
