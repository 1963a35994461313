package dev.fabrictwin.cli;

import static dev.fabrictwin.cli.FabricTwinCliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.cli.FabricTwinCliTest.Run;

/** {@code replay} from the documents {@code analyze} reads: a scenario is not needed to replay a capture. */
class ReplayCommandTest {

    private static final String SCENARIO = "../scenarios/pfc-storm-small.yaml";

    @TempDir
    static Path sim;

    @BeforeAll
    static void simulate() {
        assertThat(run("simulate", "--scenario", SCENARIO, "--out", sim.toString()).exitCode()).isZero();
    }

    @Test
    void shouldReplayFromTheTopologyAndJobsDocumentsAsFromTheScenario(@TempDir final Path dir) throws Exception {
        final Run fromScenario = run("replay", "--scenario", SCENARIO, "--samples", sim.resolve("samples.jsonl").toString(),
            "--out", dir.resolve("scenario.jsonl").toString());
        final Run fromDocuments = run("replay", "--topology", sim.resolve("topology.json").toString(),
            "--jobs", sim.resolve("jobs.json").toString(), "--samples", sim.resolve("samples.jsonl").toString(),
            "--out", dir.resolve("documents.jsonl").toString());
        assertThat(fromScenario.exitCode()).isZero();
        assertThat(fromDocuments.exitCode()).as(fromDocuments.err()).isZero();
        assertThat(fromDocuments.err()).contains("replay: sample interval 1000 ms, read from the capture");
        final var alerts = Files.readAllLines(dir.resolve("documents.jsonl"));
        assertThat(alerts).isNotEmpty();
        assertThat(alerts).isEqualTo(Files.readAllLines(dir.resolve("scenario.jsonl")));
    }

    @Test
    void shouldSayWhichSampledPortsMeetNoTopologyPort(@TempDir final Path dir) throws Exception {
        final Path samples = dir.resolve("samples.jsonl");
        Files.copy(sim.resolve("samples.jsonl"), samples);
        final long ts = Long.parseLong(Files.readAllLines(samples).get(0).replaceAll(".*\"ts\":(\\d+).*", "$1"));
        for (int i = 0; i < 3; i++) {
            Files.writeString(samples, String.format("{\"ts\":%d,\"device\":\"router%d\",\"port\":\"Hu0/0/0/1\",\"source\":\"gnmic\","
                + "\"counters\":{\"tx_bytes\":1}}%n{\"ts\":%d,\"device\":\"leaf-0\",\"port\":\"Hu0/9/%d\",\"source\":\"gnmic\","
                + "\"counters\":{\"tx_bytes\":1}}%n", ts, i, ts, i), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        }
        final Run replay = run("replay", "--topology", sim.resolve("topology.json").toString(), "--samples", samples.toString(),
            "--sample-interval", "1s", "--out", dir.resolve("alerts.jsonl").toString());
        assertThat(replay.exitCode()).as(replay.err()).isZero();
        assertThat(replay.err()).contains("replay: sampled ports that meet no topology port, not analyzed: "
            + "{unknown-device=3, unknown-port=3}; first: router0/Hu0/0/0/1 (unknown-device), leaf-0/Hu0/9/0 (unknown-port), "
            + "router1/Hu0/0/0/1 (unknown-device), leaf-0/Hu0/9/1 (unknown-port), router2/Hu0/0/0/1 (unknown-device)");
    }

    @Test
    void shouldRefuseDocumentsThatAreNotOnesInOneLine(@TempDir final Path dir) throws Exception {
        final Path notJobs = Files.writeString(dir.resolve("jobs.json"), "{\"id\": \"j\"}");
        final String samples = sim.resolve("samples.jsonl").toString();
        final String out = dir.resolve("a.jsonl").toString();
        final String topology = sim.resolve("topology.json").toString();
        final String[][] bad = {
            {"replay", "--samples", samples, "--out", out},
            {"replay", "--scenario", SCENARIO, "--topology", topology, "--samples", samples, "--out", out},
            {"replay", "--scenario", SCENARIO, "--jobs", topology, "--samples", samples, "--out", out},
            {"replay", "--topology", samples, "--samples", samples, "--out", out},
            {"replay", "--topology", topology, "--jobs", notJobs.toString(), "--samples", samples, "--out", out},
            {"replay", "--topology", topology, "--samples", samples, "--out", out, "--sample-interval", "0s"},
        };
        final String[] expected = {
            "fabric-twin replay: give either --scenario FILE or --topology FILE [--jobs FILE]",
            "fabric-twin replay: give either --scenario FILE or --topology FILE [--jobs FILE]",
            "fabric-twin replay: --jobs and --sample-interval go with --topology; a scenario declares both",
            "fabric-twin replay: " + samples + ": not JSON (topology file): Trailing token",
            "fabric-twin replay: " + notJobs + ": not a JSON array of job documents (as 'jobs import --out' writes)",
            "fabric-twin replay: --sample-interval must be at least 1 ms, was PT0S",
        };
        for (int i = 0; i < bad.length; i++) {
            final Run r = run(bad[i]);
            assertThat(r.exitCode()).as(String.join(" ", bad[i])).isEqualTo(2);
            assertThat(r.errLines()).as(String.join(" ", bad[i])).hasSize(1);
            assertThat(r.errLines()[0]).startsWith(expected[i]);
        }
    }
}
