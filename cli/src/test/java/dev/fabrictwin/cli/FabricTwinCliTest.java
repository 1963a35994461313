package dev.fabrictwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

import com.fasterxml.jackson.databind.ObjectMapper;

public class FabricTwinCliTest {

    /** Output of one launcher run. */
    public record Run(int exitCode, String out, String err) {
        public String[] errLines() {
            return err.isEmpty() ? new String[0] : err.split("\\R");
        }
    }

    public static Run run(final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine cli = FabricTwin.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        final int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void shouldListTheImplementedCommandsInHelpAndExitZero() {
        final Run run = run("--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("Usage: fabric-twin", "Commands:", "simulate", "ingest", "whatif", "bench", "broker",
            "Exit codes: 0 ok, 1 failure, 2 bad usage");
    }

    @Test
    void shouldRejectAnUnknownCommandWithOneLineAndExitTwo() {
        final Run run = run("frobnicate");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).containsExactly(
            "fabric-twin: unknown command 'frobnicate' (see 'fabric-twin --help')");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void shouldRejectAMissingCommandWithOneLineAndExitTwo() {
        final Run run = run();

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).containsExactly("fabric-twin: missing COMMAND (see 'fabric-twin --help')");
    }

    @Test
    void shouldRejectABadOptionValueWithOneLineAndExitTwo() {
        final Run run = run("broker", "--duration", "soon");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).hasSize(1);
        assertThat(run.err()).startsWith("fabric-twin broker: ").contains("invalid duration 'soon'");
    }

    @Test
    void shouldRejectMoreShardsThanTheFabricHasDomainsInOneLineAndExitTwo() {
        final Run replay = run("replay", "--scenario", "../scenarios/pfc-storm.yaml", "--samples", "../scenarios/pfc-storm.yaml",
            "--out", "-", "--shards", "9");
        assertThat(replay.exitCode()).isEqualTo(2);
        assertThat(replay.errLines()).containsExactly("fabric-twin replay: --shards 9: the fabric has 8 domains (pods, or "
            + "leaves without pods) to shard, fewer than the 9 shards asked for");
        final Run analyze = run("analyze", "--bootstrap", "127.0.0.1:1", "--shards", "0");
        assertThat(analyze.exitCode()).isEqualTo(2);
        assertThat(analyze.errLines()).containsExactly("fabric-twin analyze: --shards must be >= 1, was 0");
    }

    @Test
    void shouldReportATakenPortInOneLineAndExitTwo() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            final Run run = run("broker", "--port", Integer.toString(taken.getLocalPort()));

            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.errLines()).containsExactly("fabric-twin broker: port " + taken.getLocalPort()
                + " on 127.0.0.1 is already in use; choose another port, or 0 for any free port");
        }
    }

    @Test
    void shouldRunARealBrokerForTheRequestedDurationThenStop() {
        final Run run = run("broker", "--port", "0", "--duration", "1s");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).containsPattern("Kafka 4\\.\\d+\\.\\d+ \\(KRaft, 1 broker\\) ready at 127\\.0\\.0\\.1:\\d+ in \\d+\\.\\d s")
            .contains("(deleted on exit)", "Broker stopped.");
    }

    @Test
    void shouldPrintOurVersionAndTheBundledKafkaVersion() {
        final Run run = run("--version");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("fabric-twin", "Kafka 4.3.1");
    }

    @Test
    void shouldPrintAWhatIfTableAndItsJsonAsTheLastLine() throws Exception {
        final Run run = run("whatif", "--scenario", "../scenarios/whatif-1k-ring.yaml", "--set", "hostLinkSpeed=100G,400G", "--json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        final String[] lines = run.out().split("\\R");
        assertThat(lines[0]).contains("setting", "comm ms", "GPU util");
        final var json = new ObjectMapper().readTree(lines[lines.length - 1]);
        assertThat(json.get("rows")).hasSize(2);
        assertThat(json.get("rows").get(0).get("commTimeMs").asDouble() / json.get("rows").get(1).get("commTimeMs").asDouble())
            .isCloseTo(4.0, Assertions.within(0.01));
        assertThat(json.get("rows").get(1).get("gpuUtilization").asDouble()).isBetween(0.0, 1.0);
    }

    @Test
    void shouldPredictOverHashSeedsWithMedianAndP90() throws Exception {
        final Run run = run("whatif", "--scenario", "../scenarios/ecmp-imbalance.yaml", "--set", "spines=4", "--seeds",
            "5", "--json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        final String[] lines = run.out().split("\\R");
        assertThat(lines[0]).contains("comm p50 ms", "comm p90 ms");
        assertThat(run.out()).contains("(5 hash seeds per value: the scenario's own and the next 4)");
        final var row = new ObjectMapper().readTree(lines[lines.length - 1]).get("rows").get(0);
        assertThat(row.get("seeds").asInt()).isEqualTo(5);
        assertThat(row.get("commP90Ms").asDouble()).isGreaterThanOrEqualTo(row.get("commTimeMs").asDouble());
    }

    @Test
    void whatIfWithoutSetRunsAFidelityCaseFileOverHashSeeds() throws Exception {
        final Run run = run("whatif", "--scenario", "../scenarios/fidelity/ringx-64m-1to1.yaml", "--seeds", "9", "--json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        final String[] lines = run.out().split("\\R");
        assertThat(lines[0]).contains("comm p50 ms", "comm p90 ms");
        assertThat(lines[1]).startsWith("as declared").contains("ringx");
        final var row = new ObjectMapper().readTree(lines[lines.length - 1]).get("rows").get(0);
        assertThat(row.get("seeds").asInt()).isEqualTo(9);
        // 16 flows per leaf on 16 uplinks: at best line rate (5.5 ms), hash collisions make it 2-5x that
        assertThat(row.get("commTimeMs").asDouble()).isBetween(10.0, 30.0);
        assertThat(row.get("commP90Ms").asDouble()).isGreaterThanOrEqualTo(row.get("commTimeMs").asDouble());
    }

    @Test
    void whatIfReportsTheMakespanOfAScenarioOfOnlyFlows(@TempDir final Path dir)
        throws Exception {
        final Run run = run("whatif", "--scenario", "../scenarios/fidelity/incast-16m.yaml", "--json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        final String[] lines = run.out().split("\\R");
        assertThat(lines[1]).startsWith("as declared").contains("(flows)", " - ");
        assertThat(run.out()).contains("(flows: the makespan of the scenario's explicit flows");
        final var row = new ObjectMapper().readTree(lines[lines.length - 1]).get("rows").get(0);
        assertThat(row.get("job").asText()).isEqualTo("(flows)");
        assertThat(row.get("commTimeMs").asDouble()).isCloseTo(20.45, Assertions.within(0.5)); // 15 x 16 MiB into one NIC
        assertThat(row.get("gpuUtilization").isNull()).isTrue();

        final Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, """
            fabric: {kind: spine-leaf}
            flows: [{id: bulk, src: host-0, dst: host-99, bytes: 1GB}]
            """);
        final Run refused = run("whatif", "--scenario", bad.toString());
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.errLines()).singleElement().asString()
            .contains("flows[0] (bulk).dst: 'host-99' is not a host of the fabric");
    }

    @Test
    void benchFidelityPrintsEachCaseAgainstItsReference() throws Exception {
        final Run run = run("bench", "fidelity", "--case", "incast 16M,ringx 64M 1:1", "--seeds", "5", "--json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("ref p50", "twin p50", "incast 16M", "ringx 64M 1:1");
        final String[] lines = run.out().split("\\R");
        final var json = new ObjectMapper().readTree(lines[lines.length - 1]);
        assertThat(json.get("incast-16M.ratio").asDouble()).isCloseTo(1.0, Assertions.within(0.02));
        assertThat(json.has("ringx-64M-1:1.meanRatio")).isTrue();
    }

    @Test
    void shouldListEveryBenchmarkInBenchHelp() {
        final Run run = run("bench", "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("BENCHMARK", "Benchmarks:", "twin:", "fidelity:", "ingest:", "ingest-topic:",
            "streams:", "memory:", "metrics:");
    }

    @Test
    void benchMetricsCountsTheScrapedSeriesBoundedAndForEveryDevice() throws Exception {
        final Run run = run("bench", "metrics", "--scenario", "../scenarios/pfc-storm-small.yaml", "--seconds", "20",
            "--top-devices", "10", "--json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("pfc-storm-small: 128 ports, 44 devices");
        final String[] lines = run.out().split("\\R");
        final var json = new ObjectMapper().readTree(lines[lines.length - 1]);
        // 3 device meters x 2 kinds: 10 devices bounded, all 44 otherwise
        assertThat(json.get("pfc-storm-small.deviceSeries").asInt()).isEqualTo(10 * 6);
        assertThat(json.get("pfc-storm-small.deviceSeriesEveryDevice").asInt()).isEqualTo(44 * 6);
        assertThat(json.get("pfc-storm-small.seriesEveryDevice").asInt() - json.get("pfc-storm-small.series").asInt())
            .isEqualTo(34 * 6);
    }

    @Test
    void shouldSimulateAScenarioIntoTheFourFiles(@TempDir final Path dir) throws Exception {
        final Run run = run("simulate", "--scenario", "../scenarios/pfc-storm-small.yaml", "--out", dir.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("simulate: pfc-storm-small, 128 ports", "2 faults");
        assertThat(Files.readAllLines(dir.resolve("truth.jsonl"))).hasSize(2);
        assertThat(Files.size(dir.resolve("samples.jsonl"))).isPositive();
        assertThat(dir.resolve("topology.json")).exists();
        assertThat(dir.resolve("jobs.json")).exists();
    }

    @Test
    void shouldStartSimulatedTimeAtTheGivenEpoch(@TempDir final Path dir) throws Exception {
        final Run run = run("simulate", "--scenario", "../scenarios/pfc-storm-small.yaml", "--out", dir.toString(),
            "--epoch", "2026-06-01T00:00:00Z");

        assertThat(run.exitCode()).as(run.err()).isZero();
        final long epoch = Instant.parse("2026-06-01T00:00:00Z").toEpochMilli();
        // the storm is injected at 120 s of simulated time (docs/contracts.md: fault times are epoch ms on that clock)
        assertThat(Files.readString(dir.resolve("truth.jsonl"))).contains("\"start\":" + (epoch + 120_000));
    }

    @Test
    void shouldRejectBadInputToEveryCommandInOneLineWithExitTwo() {
        for (final String[] args : new String[][] {
            {"simulate", "--scenario", "missing.yaml", "--out", "x"},
            {"simulate", "--scenario", "../scenarios/pfc-storm-small.yaml"},
            {"simulate", "--scenario", "../scenarios/pfc-storm-small.yaml", "--out", "x", "--epoch", "yesterday"},
            {"demo", "--scenario", "../scenarios/healthy-2h.yaml", "--speed", "10"},
            {"ingest", "--format", "yaml", "--file", "-", "--output", "-"},
            {"ingest", "--format", "canonical", "--file", "nope.jsonl", "--output", "-"},
            {"whatif", "--scenario", "../scenarios/whatif-1k-ring.yaml", "--set", "hostLinkSpeed"},
            {"whatif", "--scenario", "../scenarios/whatif-1k-ring.yaml", "--set", "hostLinkSpeed=100G", "--seeds", "0"},
            {"bench", "fidelity", "--case", "ring 1G"},
            {"bench", "metrics", "--seconds", "2"},
            {"bench", "nope"},
            {"bench", "twin", "--seeds", "3"},
            {"bench", "--top-devices", "3"},
        }) {
            final Run run = run(args);
            assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(run.errLines()).as(String.join(" ", args)).hasSize(1);
        }
    }
}
