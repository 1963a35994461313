package dev.fabrictwin.evaluation;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.fabrictwin.analyzer.replay.Replay;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.evaluation.baseline.BaselineReplay;
import dev.fabrictwin.evaluation.baseline.ThresholdRules;
import dev.fabrictwin.evaluation.harness.TempDirs;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.scenario.Scenario;

/**
 * One scenario evaluated: simulated (with its faults, realistic telemetry), analyzed — through {@code replay}'s
 * topology, or on an embedded broker — and scored against what was injected; optionally the static-threshold
 * baseline scored on the very same samples.
 *
 * @param scenario the scenario's name
 * @param analyzer the twin-based analyzer's score
 * @param baseline the baseline's score, or null when not asked for
 * @param samples  samples simulated
 */
public record Evaluation(String scenario, Scorecard analyzer, Scorecard baseline, long samples) {

    /** How the analyzer is run. */
    public enum Mode { REPLAY, KAFKA }

    public static Evaluation run(final Scenario scenario, final Mode mode, final boolean withBaseline) throws Exception {
        final SyntheticCluster cluster = new SyntheticCluster(scenario, scenario.telemetry());
        final long interval = scenario.sampleInterval().toMillis();
        final long start = scenario.epoch().toEpochMilli();
        final long end = start + scenario.duration().toMillis();
        final Path dir = Files.createTempDirectory("fabric-twin-eval");
        try {
            final long samples = SimulationFiles.write(cluster, dir, rounds -> { });
            final Path capture = dir.resolve(SimulationFiles.SAMPLES);
            final List<Alert> alerts = new ArrayList<>();
            if (mode == Mode.REPLAY) {
                Replay.run(scenario, capture, alerts::add, n -> { });
            } else {
                alerts.addAll(KafkaEvaluation.alerts(scenario, new SyntheticCluster(scenario, scenario.telemetry())));
            }
            final Scorecard analyzer = Scorecard.score(cluster.truth(), alerts, interval, start, end);
            final Scorecard baseline = withBaseline ? Scorecard.score(cluster.truth(),
                BaselineReplay.run(cluster.fabric(), ThresholdRules.defaults(), interval, capture), interval, start, end)
                : null;
            return new Evaluation(scenario.name(), analyzer, baseline, samples);
        } finally {
            TempDirs.delete(dir);
        }
    }
}
