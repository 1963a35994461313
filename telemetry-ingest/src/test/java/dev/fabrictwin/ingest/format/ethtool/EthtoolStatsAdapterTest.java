package dev.fabrictwin.ingest.format.ethtool;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.ingest.format.AdapterContract;
import dev.fabrictwin.ingest.format.CollectingSink;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.twin.telemetry.RejectReason;
import dev.fabrictwin.twin.telemetry.Sample;

class EthtoolStatsAdapterTest extends AdapterContract {

    private static final Path MLX5 = refdata("ethq-ethtool-S/mlx5_core.ethtool-S.txt");
    private static final Path I40E = refdata("ethq-ethtool-S/i40e.ethtool-S.txt");
    private static final Path ICE = refdata("ethq-ethtool-S/ice.ethtool-S.txt");
    private static final Path BNXT = refdata("ethq-ethtool-S/bnxt_en.ethtool-S.txt");
    private static final Path NODE_EXPORTER = refdata("node_exporter/collector_fixtures_ethtool_eth0_statistics");

    @Override
    protected FormatAdapter adapter() {
        return new EthtoolStatsAdapter();
    }

    @Override
    protected List<Path> fixtures() {
        return List.of(MLX5, I40E, ICE, BNXT, NODE_EXPORTER);
    }

    private CollectingSink parse(final String text) {
        return parse(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldPreferMlx5PhysicalPortCountersAndKeepTheSoftwareOnes() throws IOException {
        final CollectingSink sink = parse(MLX5);

        assertThat(sink.records).isEqualTo(1);
        final Sample s = sink.only("dut", "nic0");
        assertThat(s.source()).isEqualTo("ethtool");
        assertThat(s.ts()).isEqualTo(1_700_000_000_000L);
        assertThat(s.counters()).containsEntry("rx_bytes", 2_202_570_777_997L).containsEntry("tx_bytes", 2_662_454_044_895L)
            .containsEntry("rx_packets", 845_715_962L).containsEntry("tx_packets", 896_117_891L)
            .containsEntry("ethtool.rx_bytes", 2_195_783_498_134L).containsEntry("ethtool.tx_packets", 896_117_891L)
            .containsEntry("rx_drops", 0L).containsEntry("fcs_errors", 0L)
            // PFC was off on this host: only link-level pause counters, all zero, kept under their names
            .containsEntry("rx_pause_ctrl_phy", 0L).containsEntry("tx_pause_ctrl_phy", 0L)
            .containsEntry("rx_global_pause_duration", 0L)
            .containsEntry("rx_prio0_bytes", 2_202_570_777_997L).containsEntry("tx_pci_signal_integrity", 34L);
        assertThat(s.counters().keySet()).noneMatch(k -> k.matches("(rx|tx|ch)\\d+_.*"));
        assertThat(s.counters()).hasSizeLessThan(180); // 751 lines, most of them per-channel
    }

    @Test
    void shouldMapMlx5PerPriorityPauseFramesAndDurationInMicroseconds() {
        final CollectingSink sink = parse("""
            NIC statistics:
                 rx_prio3_pause: 1200
                 rx_prio3_pause_duration: 45000
                 tx_prio3_pause: 17
                 tx_prio3_pause_duration: 900
                 rx_prio3_pause_transition: 6
                 rx_prio4_pause: 0
            """);

        assertThat(sink.only("dut", "nic0").counters()).containsEntry("rx_pfc_pause.3", 1200L)
            .containsEntry("rx_pause_duration_us.3", 45_000L).containsEntry("tx_pfc_pause.3", 17L)
            .containsEntry("rx_pfc_pause.4", 0L).containsEntry("tx_prio3_pause_duration", 900L)
            .containsEntry("rx_prio3_pause_transition", 6L);
    }

    @Test
    void shouldReadBnxtPerPriorityPfcZerosAndPortBytesAndDropRingCounters() throws IOException {
        final Sample s = parse(BNXT).only("dut", "nic0");

        for (int p = 0; p < 8; p++) {
            assertThat(s.counters()).containsEntry("rx_pfc_pause." + p, 0L).containsEntry("tx_pfc_pause." + p, 0L)
                .containsEntry("rx_pause_duration_us." + p, 0L);
        }
        assertThat(s.counters()).containsEntry("rx_bytes", 577_687_185_962_088L).containsEntry("tx_bytes", 770_394_433_789_550L)
            .containsEntry("rx_packets", 662_257_056_609L).containsEntry("tx_packets", 754_109_637_868L)
            .containsEntry("rx_drops", 49_337L).containsEntry("fec_corrected", 0L).containsEntry("fec_uncorrectable", 0L);
        assertThat(s.counters().keySet()).noneMatch(k -> k.startsWith("["));
    }

    @Test
    void shouldSumI40ePortFramesIntoPacketsAndMapXoffToPfc() throws IOException {
        final Sample s = parse(I40E).only("dut", "nic0");

        assertThat(s.counters()).containsEntry("rx_bytes", 30_388_004_820_195L).containsEntry("tx_bytes", 55_878_809_901_817L)
            .containsEntry("rx_packets", 371_705_533_245L + 0 + 10).containsEntry("tx_packets", 364_363_155_570L + 23_817 + 0)
            .containsEntry("ethtool.rx_bytes", 28_901_222_394_039L).containsEntry("ethtool.rx_packets", 371_706_048_609L)
            .containsEntry("rx_pfc_pause.3", 0L).containsEntry("tx_pfc_pause.3", 0L)
            .containsEntry("port.rx_priority_3_xon", 0L).containsEntry("veb.tc_3_rx_bytes", 0L);
        assertThat(s.counters().keySet()).noneMatch(k -> k.startsWith("tx-") || k.startsWith("rx-"));
    }

    @Test
    void shouldReadIceNicCountersAndDropPerQueueOnes() throws IOException {
        final Sample s = parse(ICE).only("dut", "nic0");

        assertThat(s.counters()).containsEntry("rx_bytes", 848_255_752L).containsEntry("tx_bytes", 74_057_390_445L)
            .containsEntry("rx_packets", 12_117_448L + 197 + 0).containsEntry("tx_packets", 48_786_299L + 253 + 4)
            .containsEntry("ethtool.rx_bytes", 848_243_014L).containsEntry("rx_pfc_pause.7", 0L)
            .containsEntry("tx_pfc_pause.0", 0L).containsEntry("fcs_errors", 0L);
        assertThat(s.counters().keySet()).noneMatch(k -> k.contains("_queue_"));
    }

    @Test
    void shouldTakeThePortFromTheCommandLineHeader() throws IOException {
        final CollectingSink sink = parse(NODE_EXPORTER);

        final Sample s = sink.only("dut", "eth0");
        assertThat(s.counters()).containsEntry("rx_packets", 1_260_062L).containsEntry("tx_packets", 961_500L)
            .containsEntry("rx_drops", 12_028L) // port.rx_dropped
            .containsEntry("duplicate metric", 1L).containsEntry("duplicate_metric", 2L);
    }

    @Test
    void shouldSplitOnTheLastColonSpaceAndStartANewDumpAtEachHeader() {
        final CollectingSink sink = parse("""
            $ ethtool -S ens1f0
            NIC statistics:
                 [3]: rx_packets: 5
                 rx_bytes: 10
                 weird: name: 7
            $ ethtool -S ens1f1
            NIC statistics:
                 rx_bytes: 20
            NIC statistics for ens2f0:
                 rx_bytes: 30
            """);

        assertThat(sink.records).isEqualTo(3);
        assertThat(sink.rejections).isEmpty();
        assertThat(sink.only("dut", "ens1f0").counters()).containsOnlyKeys("rx_bytes", "weird: name")
            .containsEntry("weird: name", 7L);
        assertThat(sink.only("dut", "ens1f1").counter("rx_bytes", -1)).isEqualTo(20L);
        assertThat(sink.only("dut", "ens2f0").counter("rx_bytes", -1)).isEqualTo(30L);
    }

    @Test
    void shouldRejectEachBadLineWithItsReasonAndKeepTheRestOfTheDump() {
        final CollectingSink sink = parse(String.join("\n",
            "NIC statistics:",
            "     rx_bytes: -5",
            "     tx_bytes: lots",
            "     rx_packets: NaN",
            "     tx_packets: 18446744073709551616",
            "     no separator here",
            "     rx_dropped: 3",
            "     rx_dropped: 4",
            "     tx_dropped: 1"));

        assertThat(sink.records).isEqualTo(1);
        assertThat(sink.rejections).extracting(Rejection::reason).containsExactly(RejectReason.NEGATIVE_COUNTER,
            RejectReason.NON_NUMERIC, RejectReason.NOT_FINITE, RejectReason.NON_NUMERIC, RejectReason.MALFORMED,
            RejectReason.MALFORMED);
        assertThat(sink.rejections.get(0).location()).isEqualTo("line 2");
        assertThat(new String(sink.rejections.get(0).raw(), StandardCharsets.UTF_8)).isEqualTo("     rx_bytes: -5");
        assertThat(sink.only("dut", "nic0").counters()).containsOnlyKeys("rx_drops", "tx_drops")
            .containsEntry("rx_drops", 3L).containsEntry("tx_drops", 1L);
    }

    @Test
    void shouldRejectADumpWithoutDeviceOrWithoutStatistics() throws IOException {
        final CollectingSink sink = new CollectingSink();
        adapter().parse(new ByteArrayInputStream(Files.readAllBytes(MLX5)), ParseContext.defaults(CLOCK).withoutTimeWindow(),
            sink);
        assertThat(sink.samples).isEmpty();
        assertThat(sink.rejections).singleElement().extracting(Rejection::reason).isEqualTo(RejectReason.MISSING_DEVICE);
        assertThat(sink.rejections.get(0).raw()).hasSize((int) Files.size(MLX5) - 1); // without the final newline

        final CollectingSink empty = parse("NIC statistics:\n");
        assertThat(empty.records).isEqualTo(1);
        assertThat(empty.rejections).singleElement().extracting(Rejection::reason).isEqualTo(RejectReason.NO_COUNTERS);
    }
}
