package dev.fabrictwin.evaluation.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.sim.Twin;

/** The baseline over a simulated capture, as {@code eval --baseline thresholds} runs it. */
class BaselineReplayTest {

    @TempDir
    Path dir;

    @Test
    void shouldOpenAPfcStormDuringTheStormOfTheSimulatedCapture() throws IOException {
        final Scenario scenario = ScenarioParser.parse(Path.of("../scenarios/pfc-storm-small.yaml"));
        SimulationFiles.write(new SyntheticCluster(scenario, scenario.telemetry()), dir, n -> { });
        // the fabric as the analyzer knows it: declared, fault-free
        final Fabric fabric = Twin.healthy(scenario, ModelParams.defaults()).fabric();

        final List<Alert> alerts = BaselineReplay.run(fabric, ThresholdRules.defaults(),
            scenario.sampleInterval().toMillis(), dir.resolve(SimulationFiles.SAMPLES));

        // the storm runs 120 s to 200 s; the interval that holds its start begins up to one interval earlier
        final long interval = scenario.sampleInterval().toMillis();
        final long stormStart = scenario.epochMillis(120.0);
        final long stormEnd = scenario.epochMillis(200.0);
        final List<Alert> storms = alerts.stream()
            .filter(a -> a.type() == FaultType.PFC_STORM && a.state() == Alert.State.OPEN).toList();
        assertThat(storms).isNotEmpty().allSatisfy(a -> assertThat(a.firstSeen()).isBetween(stormStart - interval, stormEnd));
        // the stuck NIC is among them (with no pause graph the baseline also blames the switch ports it backs up)
        assertThat(storms).extracting(Alert::entity).contains(Entity.port(new PortRef("host-5", "nic0")));
        assertThat(alerts).allSatisfy(a -> {
            assertThat(a.rootCause()).isTrue();
            assertThat(a.causedBy()).isNull();
        });
    }

    @Test
    void shouldSkipAndCountLinesThatAreNotSamples() throws IOException {
        final Scenario scenario = ScenarioParser.parse(ScenarioParser.tree("""
            name: tiny
            duration: 5s
            fabric: {kind: spine-leaf, spines: 2, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
            jobs: []
            """), Path.of("."));
        final Path file = dir.resolve("samples.jsonl");
        Files.writeString(file, String.join("\n",
            "{\"ts\": 1735689600000, \"device\": \"leaf-0\", \"port\": \"eth2\", \"counters\": {\"tx_bytes\": 1}}",
            "not json at all",
            "",
            "{\"ts\": 1735689601000, \"device\": \"leaf-0\", \"counters\": {}}",
            "{\"ts\": 1735689601000, \"device\": \"leaf-0\", \"port\": \"eth2\", \"counters\": {\"tx_bytes\": 2}}")
            + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);

        final BaselineReplay.Result result = BaselineReplay.replay(Twin.healthy(scenario, ModelParams.defaults()).fabric(),
            ThresholdRules.defaults(), 1_000, file);

        assertThat(result.samples()).isEqualTo(2);
        assertThat(result.skipped()).isEqualTo(2);
        assertThat(result.alerts()).isEmpty();
    }
}
