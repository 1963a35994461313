package dev.fabrictwin.ingest.format.sysfs;

import static dev.fabrictwin.ingest.format.AdapterContract.CLOCK;
import static dev.fabrictwin.ingest.format.AdapterContract.refdata;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.ingest.format.CollectingSink;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.testing.Ttar;
import dev.fabrictwin.twin.telemetry.Sample;

/** {@code ingest --sysfs DIR}: prometheus/procfs's real /sys/class/infiniband fixture unpacked and read in place. */
class SysfsTreeReaderTest {

    private static final Path TTAR = refdata("procfs-sysfs-infiniband/fixtures.ttar.sys_class_infiniband.excerpt.ttar");
    private static final long TS = 1_700_000_000_000L;

    @TempDir
    Path tmp;

    private Path root;

    @BeforeEach
    void unpack() throws IOException {
        Ttar.extract(TTAR, tmp);
        root = tmp.resolve("fixtures/sys/class/infiniband");
    }

    private static ParseContext context() {
        return ParseContext.defaults(CLOCK).withDevice("dut").withoutTimeWindow();
    }

    private CollectingSink readTree() {
        final CollectingSink sink = new CollectingSink();
        new SysfsTreeReader(root, context(), Clock.fixed(Instant.ofEpochMilli(TS), ZoneOffset.UTC)).readOnce(sink);
        return sink;
    }

    @Test
    void shouldGiveExactlyTheSamplesOfTheTtarAdapterForTheSameTree() throws IOException {
        final CollectingSink archive = new CollectingSink();
        try (InputStream in = Files.newInputStream(TTAR)) {
            new SysfsInfinibandAdapter().parse(in, context().withDefaultTimestamp(TS), archive);
        }

        final CollectingSink tree = readTree();

        assertThat(archive.samples).hasSize(4);
        assertThat(tree.samples).isEqualTo(archive.samples);
        assertThat(tree.records).isEqualTo(archive.records).isEqualTo(4);
        assertThat(tree.rejections).isEmpty();
        assertThat(tree.dropped).isEmpty();
        assertThat(tree.warnings).isEmpty();
        // values as the fixture's files hold them
        final Sample mlx5 = tree.only("dut", "mlx5_0/1");
        assertThat(mlx5.ts()).isEqualTo(TS);
        assertThat(mlx5.counters()).containsEntry("tx_bytes", 2_880_761_508_848L * 4).containsEntry("rx_packets", 541_889_824L)
            .containsEntry("roce_slow_restart_cnps", 131L).containsEntry("out_of_sequence", 1L)
            .doesNotContainKey("lifespan"); // hw_counters/lifespan: a setting (ms), not a count
        assertThat(mlx5.gauges()).containsEntry("oper_up", 1.0).containsEntry("speed_bps", 25e9);
        assertThat(tree.samples).extracting(Sample::port).containsExactly("hfi1_0/1", "mlx4_0/1", "mlx4_0/2", "mlx5_0/1");
    }

    @Test
    void shouldReadTheTreeAgainEachRound() throws IOException {
        final Path rcv = root.resolve("mlx5_0/ports/1/counters/port_rcv_packets");
        final SysfsTreeReader reader = new SysfsTreeReader(root, context(), Clock.fixed(Instant.ofEpochMilli(TS), ZoneOffset.UTC));
        final CollectingSink sink = new CollectingSink();

        reader.readOnce(sink);
        Files.writeString(rcv, "541889900\n"); // the counter moved on between the rounds
        reader.readOnce(sink);

        assertThat(sink.samples).hasSize(8);
        assertThat(sink.samples).filteredOn(s -> s.port().equals("mlx5_0/1")).extracting(s -> s.counters().get("rx_packets"))
            .containsExactly(541_889_824L, 541_889_900L);
        assertThat(reader.rounds()).isEqualTo(2);
        assertThat(reader.summary()).isEqualTo("sysfs: 2 rounds of " + root);
    }

    @Test
    void shouldCountUnreadableFilesAndKeepThePortsOtherCounters() throws IOException {
        // a counter that vanished between listing and reading (a dangling link reads as a file that is gone) ...
        final Path gone = root.resolve("mlx5_0/ports/1/counters/symbol_error");
        Files.delete(gone);
        Files.createSymbolicLink(gone, root.resolve("mlx5_0/ports/1/counters/no-longer-there"));
        // ... and one the kernel refuses to read (EISDIR here; EACCES or EINVAL on a real tree)
        final Path refused = root.resolve("mlx4_0/ports/2/counters/port_xmit_wait");
        Files.delete(refused);
        Files.createDirectory(refused);

        final CollectingSink sink = readTree();

        assertThat(sink.samples).hasSize(4);
        assertThat(sink.rejections).isEmpty();
        assertThat(sink.dropped).containsExactly(SysfsTreeReader.UNREADABLE, SysfsTreeReader.UNREADABLE);
        assertThat(sink.only("dut", "mlx5_0/1").counters()).doesNotContainKey("symbol_error").containsEntry("rx_packets", 541_889_824L);
        assertThat(sink.only("dut", "mlx4_0/2").counters()).doesNotContainKey("port_xmit_wait")
            .containsEntry("rx_bytes", 2_460_436_784L * 4);
        assertThat(sink.warnings).hasSize(2);
        assertThat(sink.warnings.get(0)).startsWith("sysfs: cannot read " + refused + " (");
        assertThat(sink.warnings.get(1)).isEqualTo("sysfs: port mlx5_0/1 vanished while being read (files listed, then gone)");
    }

    @Test
    void shouldSayInOneLineWhyADirectoryIsNoInfinibandTree() throws IOException {
        assertThat(SysfsTreeReader.problem(root)).isEmpty();

        final Path net = tmp.resolve("net");
        Ttar.extract(refdata("procfs-sysfs-infiniband/fixtures.ttar.sys_class_net.excerpt.ttar"), net);
        final Path classNet = net.resolve("fixtures/sys/class/net");
        assertThat(SysfsTreeReader.problem(classNet))
            .contains("not a /sys/class/infiniband tree: no <hca>/ports/<n>/counters under " + classNet);
        assertThat(SysfsTreeReader.problem(root.resolve("mlx5_0"))).contains(
            "not a /sys/class/infiniband tree: no <hca>/ports/<n>/counters under " + root.resolve("mlx5_0"));
        assertThat(SysfsTreeReader.problem(tmp.resolve("absent"))).contains("sysfs directory not found: " + tmp.resolve("absent"));
        assertThat(SysfsTreeReader.problem(root.resolve("mlx5_0/fw_ver"))).contains("not a directory: " + root.resolve("mlx5_0/fw_ver"));
    }
}
