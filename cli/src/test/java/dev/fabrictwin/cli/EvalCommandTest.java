package dev.fabrictwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** {@code eval}: docs/contracts.md scores as a table and a JSON last line, beside the static-threshold baseline. */
class EvalCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode lastLine(final FabricTwinCliTest.Run run) throws Exception {
        final String[] lines = run.out().strip().split("\\R");
        return JSON.readTree(lines[lines.length - 1]);
    }

    @Test
    void shouldScoreTheAnalyzerAndTheBaselineOnTheSameSamples() throws Exception {
        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("eval", "--scenario", "../scenarios/pfc-storm-small.yaml",
            "--baseline", "thresholds", "--json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("twin-based analyzer", "static-threshold baseline", "PFC_STORM", "LINK_DEGRADED");
        final JsonNode score = lastLine(run);
        assertThat(score.get("faults").asInt()).isEqualTo(2);
        assertThat(score.get("recall").asDouble()).isEqualTo(1.0);
        assertThat(score.get("precision").asDouble()).isEqualTo(1.0);
        assertThat(score.get("localization").asDouble()).isEqualTo(1.0);
        assertThat(score.get("ttdMedianIntervals").asDouble()).isLessThanOrEqualTo(3.0);
        assertThat(score.get("falseAlertsPerHour").asDouble()).isZero();
        assertThat(score.path("byType").path("PFC_STORM").path("recall").asDouble()).isEqualTo(1.0);
        // the baseline sees the storm too, but also every victim that pauses its upstream: no correlation
        final JsonNode baseline = score.get("baseline");
        assertThat(baseline.get("recall").asDouble()).isEqualTo(1.0);
        assertThat(baseline.get("precision").asDouble()).isLessThan(score.get("precision").asDouble());
    }

    @Test
    void shouldScoreTheAnalyzerRunningOnAnEmbeddedBroker() throws Exception {
        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("eval", "--scenario", "../scenarios/link-down.yaml",
            "--kafka", "--json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        final JsonNode score = lastLine(run);
        assertThat(score.get("recall").asDouble()).isEqualTo(1.0);
        assertThat(score.get("precision").asDouble()).isEqualTo(1.0);
        assertThat(score.has("baseline")).isFalse();
    }

    @Test
    void shouldRunTheRobustnessSuiteOverDrawsWithProgressPerDraw() throws Exception {
        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("eval", "--scenario", "../scenarios/link-down.yaml",
            "--draws", "1", "--vary", "clock,control-frames", "--json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("eval: draw 1/1 link-down");
        assertThat(run.out()).contains("mean over draws / worst draw", "LINK_DOWN");
        final JsonNode score = lastLine(run);
        assertThat(score.get("draws").asInt()).isEqualTo(1);
        assertThat(score.path("byType").path("LINK_DOWN").path("faults").asInt()).isEqualTo(1);
        assertThat(score.path("byType").path("LINK_DOWN").has("recallWorst")).isTrue();
    }

    @Test
    void shouldRejectAnUnknownHiddenParameterWithOneLineAndExitTwo() {
        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("eval", "--scenario", "../scenarios/link-down.yaml",
            "--draws", "1", "--vary", "moon-phase");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).singleElement().asString().contains("unknown hidden parameter 'moon-phase'");
    }

    @Test
    void shouldRejectAnUnknownBaselineWithOneLineAndExitTwo() {
        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("eval", "--scenario", "../scenarios/link-down.yaml",
            "--baseline", "magic");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).containsExactly(
            "fabric-twin eval: --baseline must be 'thresholds', was 'magic'");
    }

    @Test
    void shouldRejectAFolderWithoutScenariosWithOneLineAndExitTwo(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path empty) {
        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("eval", "--all", empty.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).singleElement().asString().contains("no *.yaml scenario files in");
    }

    /** {@code eval --all scenarios} must not score scenarios/fidelity: only the folder's own files. */
    @Test
    void evalAllReadsOnlyTheTopOfTheFolder(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path dir) throws Exception {
        final java.nio.file.Path fidelity = java.nio.file.Files.createDirectory(dir.resolve("fidelity"));
        java.nio.file.Files.copy(java.nio.file.Path.of("..", "scenarios", "fidelity", "ring-64m.yaml"),
            fidelity.resolve("ring-64m.yaml"));
        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("eval", "--all", dir.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).singleElement().asString().contains("no *.yaml scenario files in");
    }
}
