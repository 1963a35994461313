package dev.fabrictwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    void shouldRejectAFolderWithoutScenariosWithOneLineAndExitTwo(@TempDir final Path empty) {
        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("eval", "--all", empty.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).singleElement().asString().contains("no *.yaml scenario files in");
    }

    /** {@code eval --all scenarios} must not score scenarios/fidelity: only the folder's own files. */
    @Test
    void evalAllReadsOnlyTheTopOfTheFolder(@TempDir final Path dir) throws Exception {
        final Path fidelity = Files.createDirectory(dir.resolve("fidelity"));
        Files.copy(Path.of("..", "scenarios", "fidelity", "ring-64m.yaml"),
            fidelity.resolve("ring-64m.yaml"));
        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("eval", "--all", dir.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).singleElement().asString().contains("no *.yaml scenario files in");
    }

    /** The score table's rows (type and figure columns), without the heading line that names the run. */
    private static List<String> tableRows(final String out) {
        return out.lines().filter(l -> l.startsWith("  ") && l.contains("│")).toList();
    }

    /**
     * {@code eval --samples}: a capture our simulator wrote to a folder, scored as someone else's capture, gives the
     * table {@code eval --scenario} gives for the same run; with an empty truth every root alert is a false one,
     * listed with its first-seen time from the capture's start and counted per 10k ports per day.
     */
    @Test
    void shouldScoreACaptureFromFilesLikeTheSimulatedRun(@TempDir final Path dir)
        throws Exception {
        final String scenario = "../scenarios/link-down.yaml";
        final FabricTwinCliTest.Run sim = FabricTwinCliTest.run("simulate", "--scenario", scenario, "--out", dir.toString());
        assertThat(sim.exitCode()).as(sim.err()).isZero();
        final String samples = dir.resolve("samples.jsonl").toString();

        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("eval", "--scenario", scenario, "--samples", samples,
            "--truth", dir.resolve("truth.jsonl").toString(), "--json");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("Capture " + samples + " (scenario link-down)", "twin-based analyzer", "LINK_DOWN",
            "False root alerts: 0 ");
        final JsonNode score = lastLine(run);
        assertThat(score.get("faults").asInt()).isEqualTo(1);
        assertThat(score.get("recall").asDouble()).isEqualTo(1.0);
        assertThat(score.get("precision").asDouble()).isEqualTo(1.0);
        assertThat(score.get("falseRoots").asInt()).isZero();
        assertThat(score.get("falseRootsPer10kPortsPerDay").asDouble()).isZero();
        assertThat(score.path("byType").path("LINK_DOWN").path("localization").asDouble()).isEqualTo(1.0);
        final FabricTwinCliTest.Run simulated = FabricTwinCliTest.run("eval", "--scenario", scenario);
        assertThat(simulated.exitCode()).as(simulated.err()).isZero();
        assertThat(tableRows(run.out())).isNotEmpty().isEqualTo(tableRows(simulated.out()));

        final Path none = Files.createFile(dir.resolve("healthy-truth.jsonl"));
        final FabricTwinCliTest.Run healthy = FabricTwinCliTest.run("eval", "--scenario", scenario, "--samples", samples,
            "--truth", none.toString(), "--json");
        assertThat(healthy.exitCode()).as(healthy.err()).isZero();
        final JsonNode h = lastLine(healthy);
        final int falseRoots = h.get("falseRoots").asInt();
        assertThat(falseRoots).isPositive();
        assertThat(h.get("alerts").asInt()).isEqualTo(falseRoots);
        // 300 s of 1 s samples: the capture spans about 300 s (its stamps carry the simulated clocks' skew)
        final double expected = falseRoots * 10_000.0 / (h.get("ports").asDouble() * 300.0 / 86_400.0);
        assertThat(h.get("falseRootsPer10kPortsPerDay").asDouble()).isCloseTo(expected, Percentage.withPercentage(2));
        assertThat(healthy.out()).containsPattern("False root alerts: " + falseRoots + " \\(" + falseRoots + " of them while no fault");
        final List<String> listed = healthy.out().lines().filter(l -> l.matches("  [A-Z_]+ +\\S+ +-?\\d+\\.\\d s")).toList();
        assertThat(listed).hasSize(falseRoots).anySatisfy(l -> assertThat(l).matches("  LINK_DOWN +link:leaf-5~spine-2 +(8[5-9]|9[0-9])\\.\\d s"));
    }

    @Test
    void shouldRejectACaptureWithoutTruthACompressedOneAndABadTruthInOneLineWithExitTwo(
        @TempDir final Path dir) throws Exception {
        final Path plain = Files.writeString(dir.resolve("s.jsonl"),
            "{\"ts\": 1735689600000, \"device\": \"leaf-0\", \"port\": \"eth0\", \"counters\": {\"tx_bytes\": 1}}\n");
        final Path xz = Files.write(dir.resolve("s.jsonl.xz"),
            new byte[] {(byte) 0xfd, '7', 'z', 'X', 'Z', 0, 0, 4});
        final Path badTruth = Files.writeString(dir.resolve("t.jsonl"), "\n{\"type\": \"MOON\"}\n");
        final Path empty = Files.createFile(dir.resolve("none.jsonl"));
        final String scenario = "../scenarios/link-down.yaml";

        final FabricTwinCliTest.Run noTruth = FabricTwinCliTest.run("eval", "--scenario", scenario, "--samples", plain.toString());
        assertThat(noTruth.exitCode()).isEqualTo(2);
        assertThat(noTruth.errLines()).containsExactly(
            "fabric-twin eval: --samples and --truth go together, with --scenario (not --all)");
        final FabricTwinCliTest.Run compressed = FabricTwinCliTest.run("eval", "--scenario", scenario, "--samples", xz.toString(),
            "--truth", empty.toString());
        assertThat(compressed.exitCode()).isEqualTo(2);
        assertThat(compressed.errLines()).singleElement().asString().contains("is xz-compressed; decompress it first");
        final FabricTwinCliTest.Run bad = FabricTwinCliTest.run("eval", "--scenario", scenario, "--samples", plain.toString(),
            "--truth", badTruth.toString());
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.errLines()).singleElement().asString().contains(badTruth + ":2: not a truth record");
        final FabricTwinCliTest.Run kafka = FabricTwinCliTest.run("eval", "--scenario", scenario, "--samples", plain.toString(),
            "--truth", empty.toString(), "--kafka");
        assertThat(kafka.exitCode()).isEqualTo(2);
        assertThat(kafka.errLines()).singleElement().asString().contains("neither --kafka");
        final FabricTwinCliTest.Run help = FabricTwinCliTest.run("eval", "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains("--samples", "--truth", "eval --scenario scenarios/pfc-storm-small.yaml --samples");
    }
}
