package dev.fabrictwin.evaluation;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.fabrictwin.analyzer.replay.Replay;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.truth.TruthRecord;
import dev.fabrictwin.evaluation.baseline.BaselineReplay;
import dev.fabrictwin.evaluation.baseline.ThresholdRules;
import dev.fabrictwin.evaluation.harness.TempDirs;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.simulator.reality.Reality;
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
 * @param ports    ports reporting counters (for false alerts per 10k ports)
 * @param truth    the faults injected
 * @param alerts   every alert record the analyzer published
 */
public record Evaluation(String scenario, Scorecard analyzer, Scorecard baseline, long samples, int ports,
                         List<TruthRecord> truth, List<Alert> alerts) {

    public Evaluation {
        truth = List.copyOf(truth);
        alerts = List.copyOf(alerts);
    }

    /** How the analyzer is run. */
    public enum Mode { REPLAY, KAFKA }

    public static Evaluation run(final Scenario scenario, final Mode mode, final boolean withBaseline) throws Exception {
        return run(scenario, mode, withBaseline, Reality.defaults());
    }

    /** As above; {@code reality} gives the hidden parameters' ranges when the scenario asks for a randomized draw. */
    public static Evaluation run(final Scenario scenario, final Mode mode, final boolean withBaseline, final Reality reality)
        throws Exception {
        return run(scenario, mode, withBaseline, reality, 1);
    }

    /** As above, the analysis cut into {@code shards} shards (docs/analyzer.md, "Sharding"). */
    public static Evaluation run(final Scenario scenario, final Mode mode, final boolean withBaseline, final Reality reality,
                                 final int shards) throws Exception {
        final SyntheticCluster cluster = new SyntheticCluster(scenario, scenario.telemetry(), reality);
        final long interval = scenario.sampleInterval().toMillis();
        final long start = scenario.epoch().toEpochMilli();
        final long end = start + scenario.duration().toMillis();
        final Path dir = Files.createTempDirectory("fabric-twin-eval");
        try {
            final long samples = SimulationFiles.write(cluster, dir, rounds -> { });
            final Path capture = dir.resolve(SimulationFiles.SAMPLES);
            final List<Alert> alerts = new ArrayList<>();
            if (mode == Mode.REPLAY) {
                Replay.run(scenario, capture, alerts::add, h -> { }, n -> { }, shards);
            } else {
                alerts.addAll(KafkaEvaluation.alerts(scenario, new SyntheticCluster(scenario, scenario.telemetry(), reality), shards));
            }
            final Scorecard analyzer = Scorecard.score(cluster.truth(), alerts, interval, start, end);
            final Scorecard baseline = withBaseline ? Scorecard.score(cluster.truth(),
                BaselineReplay.run(cluster.fabric(), ThresholdRules.defaults(), interval, capture), interval, start, end)
                : null;
            return new Evaluation(scenario.name(), analyzer, baseline, samples, cluster.fabric().ports().size(),
                cluster.truth(), alerts);
        } finally {
            TempDirs.delete(dir);
        }
    }
}
