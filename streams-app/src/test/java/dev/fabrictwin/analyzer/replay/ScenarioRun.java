package dev.fabrictwin.analyzer.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.fabrictwin.analyzer.alert.Alert;
import dev.fabrictwin.analyzer.detect.Entity;
import dev.fabrictwin.ingest.sim.SimulationFiles;
import dev.fabrictwin.ingest.sim.SyntheticCluster;
import dev.fabrictwin.ingest.sim.TruthRecord;
import dev.fabrictwin.twin.fault.FaultTarget;
import dev.fabrictwin.twin.scenario.Scenario;

/** Test helper: a scenario simulated to files, replayed through the topology, alerts collected. */
record ScenarioRun(Scenario scenario, List<TruthRecord> truth, List<Alert> alerts) {

    static ScenarioRun of(final Scenario scenario, final Path dir) throws IOException {
        final SyntheticCluster cluster = new SyntheticCluster(scenario, scenario.telemetry());
        SimulationFiles.write(cluster, dir, n -> { });
        final List<Alert> alerts = new ArrayList<>();
        Replay.run(scenario, dir.resolve(SimulationFiles.SAMPLES), alerts::add, n -> { });
        return new ScenarioRun(scenario, cluster.truth(), alerts);
    }

    List<Alert> openedRoots() {
        return alerts.stream().filter(a -> a.state() == Alert.State.OPEN && a.rootCause()).toList();
    }

    long intervalMs() {
        return scenario.sampleInterval().toMillis();
    }

    /** DESIGN §3 scoring: a root alert of the fault's type opening in [start − 1, end + 3 intervals]. */
    boolean inWindow(final Alert a, final TruthRecord f) {
        return a.type().equals(f.type().name()) && a.firstSeen() >= f.start() - intervalMs()
            && a.firstSeen() <= f.end() + 3 * intervalMs();
    }

    static boolean names(final Entity e, final FaultTarget t) {
        return switch (t.kind()) {
            case PORT -> "port".equals(e.kind()) && t.device().equals(e.device()) && t.port().equals(e.port());
            case LINK -> "link".equals(e.kind()) && e.touches(t.device()) && e.touches(t.peer());
            case DEVICE -> ("device".equals(e.kind()) || "ecmp-group".equals(e.kind())) && t.device().equals(e.device());
            case JOB -> "job".equals(e.kind()) && t.job().equals(e.job());
        };
    }

    static Path tempDir(final String name) throws IOException {
        return Files.createTempDirectory("fabric-twin-" + name);
    }
}
