package dev.fabrictwin.analyzer.detect;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.SimulatedRun;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.simulator.reality.Reality;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;

/**
 * STRAGGLER and PFC_STORM on ECN thresholds and buffers the twin knows only as defaults. In draws 1 and 5
 * of {@code mixed-degraded-straggler-latency} the fabric's Kmin sits above the twin's: the port facing the straggling
 * NIC marks nothing, and its queue, standing only while the ring communicates, averages under 50 KB over half the
 * ticks. The straggler was missed, and the pauses its leaf sends the NIC feeding it were named a PFC storm's origin
 * ("no congestion to explain it"), 17 and 11 times. The buffer's peak shows the overload in every tick the port sends.
 */
class StragglerRealityTest {

    private static List<String> roots(final SimulatedRun run, final FaultType type) {
        return run.alerts().stream().filter(a -> a.state() == Alert.State.OPEN && a.rootCause() && a.type() == type)
            .map(Alert::id).distinct().toList();
    }

    private static Scenario library(final String name, final int draw) {
        final Scenario s = ScenarioParser.parse(Path.of("../scenarios/" + name + ".yaml"));
        return s.withTelemetry(s.telemetry().withRealityDraw(draw));
    }

    @Test
    void aStragglerWhoseFacingPortMarksNothingIsFoundAndItsPausesAreNoStorm() throws Exception {
        for (final int draw : new int[] {1, 5}) {
            final SimulatedRun run = SimulatedRun.of(library("mixed-degraded-straggler-latency", draw),
                AnalyzerConfig.defaults(1_000), Reality.defaults());
            assertThat(roots(run, FaultType.STRAGGLER)).as("draw %d", draw).containsExactly("STRAGGLER:port:host-10/nic0");
            assertThat(roots(run, FaultType.PFC_STORM)).as("draw %d", draw).isEmpty();
            // in a world without FEC counters an idle degraded link shows nothing at all: no frames, no FCS
            if (Reality.defaults().draw(library("mixed-degraded-straggler-latency", draw).seed(), draw).fecCounters()) {
                assertThat(roots(run, FaultType.LINK_DEGRADED)).as("draw %d", draw)
                    .containsExactly("LINK_DEGRADED:link:leaf-1~spine-2");
            }
        }
    }

    @Test
    void aStormingNicIsStillTheOriginWhenBuffersAreDrawn() throws Exception {
        for (final int draw : new int[] {1, 2}) {
            final SimulatedRun run = SimulatedRun.of(library("pfc-storm-small", draw), AnalyzerConfig.defaults(1_000),
                Reality.defaults());
            assertThat(roots(run, FaultType.PFC_STORM)).as("draw %d", draw).containsExactly("PFC_STORM:port:host-5/nic0");
        }
    }
}
