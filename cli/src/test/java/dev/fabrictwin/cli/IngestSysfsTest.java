package dev.fabrictwin.cli;

import static dev.fabrictwin.cli.FabricTwinCliTest.run;
import static dev.fabrictwin.cli.IngestExitStatusTest.runToStdout;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.cli.FabricTwinCliTest.Run;
import dev.fabrictwin.testing.Ttar;

/**
 * {@code ingest --sysfs DIR}: a /sys/class/infiniband tree read in place, here prometheus/procfs's real fixture
 * (telemetry-ingest refdata/MANIFEST.tsv) unpacked into a temporary directory.
 */
class IngestSysfsTest {

    private static final Path REFDATA = Path.of("..", "telemetry-ingest", "src", "test", "resources", "refdata",
        "procfs-sysfs-infiniband");

    @TempDir
    Path dir;

    private Path root;

    @BeforeEach
    void unpack() throws IOException {
        Ttar.extract(REFDATA.resolve("fixtures.ttar.sys_class_infiniband.excerpt.ttar"), dir);
        root = dir.resolve("fixtures/sys/class/infiniband");
    }

    private static List<String> lines(final Run r) {
        return Arrays.stream(r.out().split("\n")).filter(l -> !l.isBlank()).toList();
    }

    @Test
    void shouldReadEveryPortOfTheTreeEachRound() {
        final Run r = runToStdout("ingest", "--sysfs", root.toString(), "--device", "h1", "--scrapes", "2", "--interval", "100ms",
            "--output", "-", "--rejected", dir.resolve("s.rejected").toString());

        assertThat(r.exitCode()).isZero();
        final List<String> samples = lines(r);
        assertThat(samples).hasSize(8); // 4 ports x 2 rounds
        assertThat(samples).filteredOn(l -> l.contains("\"device\":\"h1\",\"port\":\"mlx5_0/1\"")).hasSize(2).allSatisfy(l ->
            // counters/port_xmit_data 2880761508848 words x 4, port_rcv_packets, hw_counters/roce_slow_restart_cnps; rate 25 Gb/sec
            assertThat(l).contains("\"source\":\"sysfs\"", "\"tx_bytes\":11523046035392", "\"rx_packets\":541889824",
                "\"roce_slow_restart_cnps\":131", "\"speed_bps\":25000000000", "\"oper_up\":1"));
        assertThat(samples).filteredOn(l -> l.contains("\"port\":\"mlx4_0/2\"")).hasSize(2)
            .allSatisfy(l -> assertThat(l).contains("\"rx_bytes\":9841747136", "\"port_xmit_wait\":3846"));
        assertThat(samples).filteredOn(l -> l.contains("\"port\":\"hfi1_0/1\"")).hasSize(2)
            .allSatisfy(l -> assertThat(l).contains("\"rx_bytes\":1380366808104", "\"speed_bps\":100000000000"));
        assertThat(r.errLines()).containsExactly("ingest: records in: 8, samples out: 8, rejected: 0; sysfs: 2 rounds of " + root);
        assertThat(dir.resolve("s.rejected")).doesNotExist();
    }

    @Test
    void shouldNameTheDeviceAfterThisMachineWithoutDevice() throws IOException {
        final Run r = runToStdout("ingest", "--sysfs", root.toString(), "--scrapes", "1", "--output", "-",
            "--rejected", dir.resolve("s.rejected").toString());

        assertThat(r.exitCode()).isZero();
        final String host = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        assertThat(lines(r)).hasSize(4).allSatisfy(l -> assertThat(l).contains("\"device\":\"" + host + "\""));
    }

    @Test
    void shouldCountAFileThatVanishedAndGoOn() throws IOException {
        final Path gone = root.resolve("mlx5_0/ports/1/counters/symbol_error");
        Files.delete(gone);
        Files.createSymbolicLink(gone, dir.resolve("port-went-away")); // listed, then not there to read

        final Run r = runToStdout("ingest", "--sysfs", root.toString(), "--device", "h1", "--scrapes", "2", "--interval", "50ms",
            "--output", "-", "--rejected", dir.resolve("s.rejected").toString());

        assertThat(r.exitCode()).isZero();
        assertThat(lines(r)).hasSize(8).filteredOn(l -> l.contains("\"port\":\"mlx5_0/1\""))
            .allSatisfy(l -> assertThat(l).contains("\"tx_bytes\":11523046035392").doesNotContain("symbol_error"));
        assertThat(r.errLines()).containsExactly(
            "ingest: warning: sysfs: port mlx5_0/1 vanished while being read (files listed, then gone) (2 times)",
            "ingest: records in: 8, samples out: 8, rejected: 0, values dropped: 2 (unreadable-file 2); sysfs: 2 rounds of "
                + root);
    }

    @Test
    void shouldRefuseADirectoryThatIsNoInfinibandTreeInOneLine() throws IOException {
        final Path net = dir.resolve("net");
        Ttar.extract(REFDATA.resolve("fixtures.ttar.sys_class_net.excerpt.ttar"), net);
        final Path classNet = net.resolve("fixtures/sys/class/net");

        final Run r = run("ingest", "--sysfs", classNet.toString(), "--output", "-");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.errLines()).containsExactly(
            "fabric-twin ingest: not a /sys/class/infiniband tree: no <hca>/ports/<n>/counters under " + classNet);

        final Run missing = run("ingest", "--sysfs", dir.resolve("absent").toString(), "--output", "-");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.errLines()).containsExactly("fabric-twin ingest: sysfs directory not found: " + dir.resolve("absent"));

        final Run format = run("ingest", "--sysfs", root.toString(), "--format", "prometheus", "--output", "-");
        assertThat(format.exitCode()).isEqualTo(2);
        assertThat(format.errLines()).containsExactly(
            "fabric-twin ingest: --sysfs reads /sys/class/infiniband (format sysfs); drop --format prometheus");
    }

    @Test
    void shouldDocumentSysfsInHelp() {
        final Run r = run("ingest", "--help");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("--sysfs", "fabric-twin ingest --sysfs /sys/class/infiniband --interval 1s");
        assertThat(r.out().replaceAll("\\s+", " ")).contains("--sysfs reads a live /sys/class/infiniband tree in place",
            "else this machine's hostname");
    }
}
