package dev.fabrictwin.analyzer.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.truth.TruthRecord;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.scenario.Scenario;

/** Test helper: a scenario simulated to files, replayed through the topology, alerts collected. */
record ScenarioRun(Scenario scenario, List<TruthRecord> truth, List<Alert> alerts) {

    static ScenarioRun of(final Scenario scenario, final Path dir) throws IOException {
        return of(scenario, dir, 1);
    }

    /** Replayed through the analysis cut into {@code shards} shards. */
    static ScenarioRun of(final Scenario scenario, final Path dir, final int shards) throws IOException {
        final SyntheticCluster cluster = new SyntheticCluster(scenario, scenario.telemetry());
        SimulationFiles.write(cluster, dir, n -> { });
        final List<Alert> alerts = new ArrayList<>();
        Replay.run(scenario, dir.resolve(SimulationFiles.SAMPLES), alerts::add, h -> { }, n -> { }, shards);
        return new ScenarioRun(scenario, cluster.truth(), alerts);
    }

    List<Alert> openedRoots() {
        return alerts.stream().filter(a -> a.state() == Alert.State.OPEN && a.rootCause()).toList();
    }

    long intervalMs() {
        return scenario.sampleInterval().toMillis();
    }

    static Path tempDir(final String name) throws IOException {
        return Files.createTempDirectory("fabric-twin-" + name);
    }
}
