package dev.fabrictwin.analyzer.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.analyzer.topology.AnalyzerSettings;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;

/**
 * The replay runs the topology's stages without Kafka's test driver: what it produces — alerts, job health, dead
 * letters, unmatched names — must be what the test driver produces from the same capture, whole and sharded (the
 * shard split, each shard's analysis and the correlation stage).
 */
class StageReplayTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} in {1} shards, {2} analysis threads")
    @CsvSource({"pfc-storm-small.yaml, 1, 0", "pfc-storm-small.yaml, 1, 1", "pfc-storm.yaml, 4, 0", "pfc-storm.yaml, 4, 3",
        "mixed-down-drop-ecn.yaml, 3, 2"})
    void shouldProduceWhatTheTestDriverProducesFromTheSameCapture(final String file, final int shards,
                                                                 final int analysisThreads)
        throws IOException {
        final Scenario scenario = ScenarioParser.parse(Path.of("..", "scenarios", file));
        SimulationFiles.write(new SyntheticCluster(scenario, scenario.telemetry()), dir, n -> { });
        final Path samples = dir.resolve(SimulationFiles.SAMPLES);
        final List<String> lines = new ArrayList<>(Files.readAllLines(samples, StandardCharsets.UTF_8));
        // mid-capture: a line that is no sample, one with no values, one from a device the topology does not have
        lines.addAll(lines.size() / 2, List.of("not json",
            "{\"device\":\"leaf-0\",\"port\":\"eth0\",\"ts\":1735689600000}",
            lines.get(0).replaceFirst("\"device\":\"[^\"]*\"", "\"device\":\"ghost-9\"")));
        Files.write(samples, lines, StandardCharsets.UTF_8);
        final ReplayDocuments documents = ReplayDocuments.of(scenario);
        final AnalyzerSettings settings = AnalyzerSettings.defaults(documents.sampleIntervalMs()).withoutCheckpoints()
            .withShards(shards);

        final Output stages = new Output();
        final Replay.Result onStages = Replay.onStages(settings, documents, samples, stages.alerts::add,
            h -> stages.health.add(new String(h, StandardCharsets.UTF_8)), n -> { }, analysisThreads);
        final Output driver = new Output();
        final Replay.Result onDriver = Replay.onTestDriver(settings, documents, samples, driver.alerts::add,
            h -> driver.health.add(new String(h, StandardCharsets.UTF_8)), n -> { });

        assertThat(driver.alerts).as("the scenario's faults are found").anyMatch(Alert::rootCause);
        assertThat(onDriver.deadLettered()).as("the two bad lines").isEqualTo(2);
        assertThat(onStages).isEqualTo(onDriver);
        assertThat(stages.alerts).containsExactlyElementsOf(driver.alerts);
        assertThat(stages.health).containsExactlyElementsOf(driver.health);
    }

    private record Output(List<Alert> alerts, List<String> health) {
        Output() {
            this(new ArrayList<>(), new ArrayList<>());
        }
    }
}
