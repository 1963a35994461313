package dev.fabrictwin.analyzer.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.truth.TruthRecord;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.scenario.ScenarioParser;

/**
 * The shipped library's acceptance: each scenario simulated with realistic telemetry (skew, jitter,
 * loss, noise, drift), replayed through the real topology (TopologyTestDriver), opens a root-cause alert of the
 * right type naming the injected target inside the fault's scoring window — and opens no root-cause alert that
 * is not one of those (impact alerts, {@code JOB_BOTTLENECK}, aside: docs/contracts.md does not score them).
 */
class ShippedScenariosTest {

    @TempDir
    Path dir;

    static Stream<Path> scenarios() throws IOException {
        final Path root = Path.of("..", "scenarios");
        try (Stream<Path> files = Files.list(root)) {
            return files.filter(p -> p.toString().endsWith(".yaml"))
                .filter(p -> !p.getFileName().toString().startsWith("whatif"))
                .sorted(Comparator.comparing(Path::toString)).toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void opensTheRightRootCauseForEachFaultAndNothingElse(final Path file) throws IOException {
        final ScenarioRun run = ScenarioRun.of(ScenarioParser.parse(file), dir);
        final List<Alert> roots = run.openedRoots();
        for (final TruthRecord fault : run.truth()) {
            assertThat(roots).as("%s: a %s root-cause alert naming %s", file.getFileName(), fault.type(), fault.target())
                .anyMatch(a -> fault.localizedBy(a, run.intervalMs()));
        }
        // docs/contracts.md scores causes, not impacts: a JOB_BOTTLENECK is judged by the fault loop above only
        assertThat(roots).filteredOn(a -> a.type() != FaultType.JOB_BOTTLENECK)
            .as("%s: every root-cause alert opened is a true one", file.getFileName())
            .allMatch(a -> run.truth().stream().anyMatch(f -> f.localizedBy(a, run.intervalMs())));
        assertThat(run.alerts()).as("victims name their root cause")
            .filteredOn(a -> !a.rootCause()).allMatch(a -> a.causedBy() != null);
    }
}
