package dev.fabrictwin.analyzer.twin;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.SimulatedRun;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.simulator.reality.Reality;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;

/**
 * SILENT_DROP on telemetry the detector was not written against: healthy links whose in-flight amount
 * steps between whole comm bursts as phases drift against skewed sampling instants, and switch ports that count
 * the control frames they exchange (LLDP, PFC pauses, the CNPs of the NIC they face) in their packet counters while
 * their peers do not.
 */
class SilentDropRealityTest {

    private static List<String> roots(final SimulatedRun run, final FaultType type) {
        return run.alerts().stream().filter(a -> a.state() == Alert.State.OPEN && a.rootCause() && a.type() == type)
            .map(Alert::id).distinct().toList();
    }

    /** PathLearnerTest's healthy fabric for 90 s: a minute of judged windows after the first's half-window of past. */
    private static Scenario healthy(final long seed) {
        return PathLearnerTest.scenario(seed, "90s", "");
    }

    private static Scenario library(final String name, final int draw) {
        final Scenario s = ScenarioParser.parse(Path.of("../scenarios/" + name + ".yaml"));
        return s.withTelemetry(s.telemetry().withRealityDraw(draw));
    }

    /**
     * Seed 42's leaf-3 → spine-3 reads 0 or 1 all-to-all bursts in flight, then 2 for good: a least-squares fit over
     * 30 ticks read that step as 5 % loss with 8 standard errors (its residuals are anything but independent).
     */
    @Test
    void aHealthyFabricUnderDefaultTelemetryLosesNothing() throws Exception {
        for (final long seed : new long[] {1, 7, 42}) {
            final SimulatedRun run = SimulatedRun.of(healthy(seed), AnalyzerConfig.defaults(1_000));
            assertThat(roots(run, FaultType.SILENT_DROP)).as("seed %d", seed).isEmpty();
        }
    }

    /** Only the counting habits drawn (every other hidden parameter as the scenario's fixed profile). */
    private static final Reality COUNTING = Reality.defaults().varying(Set.of(Reality.Hidden.CONTROL_FRAMES));

    @Test
    void controlFramesCountedByOneEndAreNotLoss() throws Exception {
        for (final int draw : new int[] {1, 2, 3}) {
            final SimulatedRun storm = SimulatedRun.of(library("pfc-storm", draw), AnalyzerConfig.defaults(1_000), COUNTING);
            assertThat(roots(storm, FaultType.PFC_STORM)).as("draw %d", draw).containsExactly("PFC_STORM:port:host-5/nic0");
            assertThat(roots(storm, FaultType.SILENT_DROP)).as("pfc-storm draw %d", draw).isEmpty();

            final Scenario quiet = healthy(7);
            final SimulatedRun healthy = SimulatedRun.of(quiet.withTelemetry(quiet.telemetry().withRealityDraw(draw)),
                AnalyzerConfig.defaults(1_000), COUNTING);
            assertThat(roots(healthy, FaultType.SILENT_DROP)).as("healthy draw %d", draw).isEmpty();

            final SimulatedRun drop = SimulatedRun.of(library("silent-drop", draw), AnalyzerConfig.defaults(1_000), COUNTING);
            assertThat(roots(drop, FaultType.SILENT_DROP)).as("silent-drop draw %d", draw)
                .containsExactly("SILENT_DROP:link:leaf-4~spine-0");
        }
    }
}
