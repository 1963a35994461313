package dev.fabrictwin.cli;

import static dev.fabrictwin.cli.FabricTwinCliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.cli.FabricTwinCliTest.Run;
import dev.fabrictwin.ingest.format.ethtool.EthtoolStatsAdapter;

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

    /** Real outputs produced with Debian's packages (telemetry-ingest refdata/MANIFEST.tsv, scripts/capture/). */
    private static String nic(final String file) {
        return Path.of("..", "telemetry-ingest", "src", "test", "resources", "refdata", "debian-nic", file).toString();
    }

    /** {@code --output -} writes samples to the process's stdout, not to picocli's writer: caught here. */
    static Run runToStdout(final String... args) {
        final PrintStream before = System.out;
        final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
        try {
            final Run r = run(args);
            return new Run(r.exitCode(), r.out() + stdout.toString(StandardCharsets.UTF_8), r.err());
        } finally {
            System.setOut(before);
        }
    }

    @Test
    void shouldNameAnEthtoolDumpsPortWithPortSinceEthtoolPrintsNone() {
        final Run r = runToStdout("ingest", "--format", "ethtool", "--device", "gpu01", "--port", "ens1f0", "--file",
            nic("veth-ens1f0.ethtool-S.txt"), "--output", "-", "--rejected", dir.resolve("e.rejected").toString());

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("\"device\":\"gpu01\",\"port\":\"ens1f0\"").doesNotContain("nic0");
        // veth prints no byte counters and its XDP queue statistics have no canonical names: said, and counted
        assertThat(r.errLines()).containsExactly("ingest: warning: " + EthtoolStatsAdapter.NO_BYTES,
            "ingest: records in: 1, samples out: 1, rejected: 0, values dropped: 8 (per-queue-stat 8)");

        final Run notEthtool = runToStdout("ingest", "--format", "prometheus", "--device", "gpu01", "--port", "eth0", "--file",
            nic("node_exporter-1.5.0-host.prom"), "--output", "-");
        assertThat(notEthtool.exitCode()).isEqualTo(2);
        assertThat(notEthtool.errLines()).containsExactly("fabric-twin ingest: --port names the port of ethtool -S dumps, "
            + "which print none; --format prometheus names its ports itself");
    }

    /** ethtool -S of virtio_net on Linux 6.18: no byte counters, one warning line however many dumps say so. */
    @Test
    void shouldWarnOnceThatVirtioNetDumpsHaveNoByteCounters() throws IOException {
        final String dump = Files.readString(Path.of(nic("virtio_net-eth0.ethtool-S.txt")));
        final Path twice = Files.writeString(dir.resolve("two.txt"), "# ethtool -S eth0\n" + dump + "# ethtool -S eth1\n" + dump);
        final Run r = runToStdout("ingest", "--format", "ethtool", "--device", "vm01", "--file", twice.toString(), "--output", "-");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("\"rx_drops.q0\":0");
        assertThat(r.errLines()).containsExactly("ingest: warning: " + EthtoolStatsAdapter.NO_BYTES + " (2 times)",
            "ingest: records in: 2, samples out: 2, rejected: 0, values dropped: 18 (per-queue-stat 18)");
    }

    /** node_exporter 1.5.0 on a virtio_net machine: speed -125000 (unknown) no longer dead-letters the port's sample. */
    @Test
    void shouldIngestAPortWhoseSpeedIsUnknownAndCountTheDroppedGauge() {
        final Run r = runToStdout("ingest", "--format", "prometheus", "--device", "gpu01", "--file", nic("node_exporter-1.5.0-host.prom"),
            "--output", "-", "--rejected", dir.resolve("p.rejected").toString());

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("\"port\":\"eth0\"").doesNotContain("speed_bps\":-");
        assertThat(r.errLines()).hasSize(1);
        assertThat(r.errLines()[0]).startsWith("ingest: records in: 1, samples out: ").endsWith(
            ", rejected: 0, values dropped: 1 (speed-unknown 1)");
        assertThat(dir.resolve("p.rejected")).doesNotExist();
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
        // what --scrape maps
        assertThat(r.out().replaceAll("\\s+", " ")).contains("--scrape maps node_exporter", "infiniband_exporter and SONiC's "
            + "sonic-exporter (sonic_interface_*: bytes, packets, discards, speed, oper status)").doesNotContain("not mapped yet");
    }
}
