package dev.fabrictwin.cli;

import static dev.fabrictwin.cli.FabricTwinCliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.cli.FabricTwinCliTest.Run;

/** {@code ingest}'s exit status: 0 when a sample came out, 1 when nothing was ingested, 2 for bad usage; one summary line. */
class IngestExitStatusTest {

    private static final String GOOD =
        "{\"ts\":1785000000000,\"device\":\"leaf-1\",\"port\":\"eth0\",\"counters\":{\"tx_bytes\":10}}";

    @TempDir
    Path dir;

    private Run ingest(final String content) throws IOException {
        final Path in = Files.writeString(dir.resolve("in.jsonl"), content);
        return run("ingest", "--format", "canonical", "--file", in.toString(), "--output", "-",
            "--rejected", dir.resolve("in.rejected").toString());
    }

    @Test
    void shouldExitZeroWhenSomeSamplesWereIngested() throws IOException {
        final Run r = ingest(GOOD + "\n{broken\n");

        assertThat(r.exitCode()).isZero();
        assertThat(r.errLines()).containsExactly("ingest: records in: 2, samples out: 1, rejected: 1 (malformed 1)");
    }

    @Test
    void shouldExitOneWhenEveryRecordWasRejected() throws IOException {
        final Run r = ingest("{broken\nnot json either\n");

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.errLines()).containsExactly(
            "ingest: nothing ingested: records in: 2, samples out: 0, rejected: 2 (malformed 2)");
        assertThat(Files.readAllLines(dir.resolve("in.rejected"))).hasSize(2);
    }

    @Test
    void shouldExitOneWhenThereWasNoInput() throws IOException {
        final Run r = ingest("");

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.errLines()).containsExactly("ingest: nothing ingested: records in: 0, samples out: 0, rejected: 0");
    }

    @Test
    void shouldExitOneWhenEveryScrapeTargetFailed() throws IOException {
        final int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        final Path targets = Files.writeString(dir.resolve("targets.yaml"),
            "targets:\n  - url: http://127.0.0.1:" + port + "/metrics\n    device: gpu-host-1\n");

        final Run r = run("ingest", "--scrape", targets.toString(), "--scrapes", "2", "--interval", "50ms", "--output", "-",
            "--rejected", dir.resolve("scrape.rejected").toString());

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.errLines()).hasSize(2);
        assertThat(r.errLines()[0]).startsWith("ingest: target http://127.0.0.1:" + port + "/metrics (gpu-host-1) is down: ");
        assertThat(r.errLines()[1]).isEqualTo("ingest: nothing ingested: records in: 0, samples out: 0, rejected: 0; "
            + "scrapes: 2 rounds of 1 targets, failed: 2 (http://127.0.0.1:" + port + "/metrics 2)");
    }

    @Test
    void shouldRejectInconsistentOptionsWithOneLineAndExitTwo() throws IOException {
        final Path targets = Files.writeString(dir.resolve("t.yaml"), "targets: [http://127.0.0.1:1/metrics]\n");

        final Run noKafka = run("ingest", "--from-topic", "gnmic", "--format", "gnmic", "--output", "-");
        assertThat(noKafka.exitCode()).isEqualTo(2);
        assertThat(noKafka.errLines()).containsExactly(
            "fabric-twin ingest: --from-topic writes to Kafka: give --bootstrap HOST:PORT (not --output)");

        final Run wrongFormat = run("ingest", "--scrape", targets.toString(), "--format", "gnmic", "--output", "-");
        assertThat(wrongFormat.exitCode()).isEqualTo(2);
        assertThat(wrongFormat.errLines()).containsExactly(
            "fabric-twin ingest: --scrape reads Prometheus text exposition; drop --format gnmic");

        final Run noFormat = run("ingest", "--file", targets.toString(), "--output", "-");
        assertThat(noFormat.exitCode()).isEqualTo(2);
        assertThat(noFormat.errLines()).containsExactly("fabric-twin ingest: --format is required with --file and --from-topic");

        final Run badTargets = run("ingest", "--scrape", dir.resolve("t2.yaml").toString(), "--output", "-");
        assertThat(badTargets.exitCode()).isEqualTo(2);
        assertThat(badTargets.errLines()).containsExactly("fabric-twin ingest: targets file not found: " + dir.resolve("t2.yaml"));
    }

    @Test
    void shouldDocumentTheExitStatusAndTheNewInputsInHelp() {
        final Run r = run("ingest", "--help");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("--from-topic", "--scrape", "--stop-when-idle", "--application-id", "telegraf-json",
            "1 when nothing was", "fabric-twin ingest --scrape targets.yaml --interval 1s");
    }
}
