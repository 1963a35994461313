package dev.fabrictwin.ingest.format.ethtool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.ingest.format.AdapterContract;
import dev.fabrictwin.ingest.format.CollectingSink;
import dev.fabrictwin.ingest.format.CounterMapping;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;
import dev.fabrictwin.twin.telemetry.Sample;

class EthtoolStatsAdapterTest extends AdapterContract {

    private static final Path MLX5 = refdata("ethq-ethtool-S/mlx5_core.ethtool-S.txt");
    private static final Path I40E = refdata("ethq-ethtool-S/i40e.ethtool-S.txt");
    private static final Path ICE = refdata("ethq-ethtool-S/ice.ethtool-S.txt");
    private static final Path BNXT = refdata("ethq-ethtool-S/bnxt_en.ethtool-S.txt");
    private static final Path NODE_EXPORTER = refdata("node_exporter/collector_fixtures_ethtool_eth0_statistics");
    private static final Path VIRTIO = refdata("ethq-ethtool-S/virtio_net.ethtool-S.txt");
    private static final Path VMXNET3 = refdata("ethq-ethtool-S/vmxnet3.ethtool-S.txt");
    private static final Path ENA = refdata("ethq-ethtool-S/ena.ethtool-S.txt");
    private static final Path SFC = refdata("ethq-ethtool-S/sfc.ethtool-S.txt");
    private static final Path TG3 = refdata("ethq-ethtool-S/tg3.ethtool-S.txt");
    private static final Path IAVF = refdata("ethq-ethtool-S/iavf.ethtool-S.txt");
    private static final Path E1000E = refdata("ethq-ethtool-S/e1000e.ethtool-S.txt");
    private static final Path BE2NET = refdata("ethq-ethtool-S/be2net.ethtool-S.txt");
    /** Holds a "..." line where the capture elided rings 2-6: not in {@link #fixtures()}, its rejection is asserted. */
    private static final Path BNX2X = refdata("ethq-ethtool-S/bnx2x.ethtool-S.txt");
    private static final Path VETH = refdata("debian-nic/veth-ens1f0.ethtool-S.txt");
    private static final Path VIRTIO_618 = refdata("debian-nic/virtio_net-eth0.ethtool-S.txt");
    private static final Path VETH_LOOP = refdata("debian-nic/veth-two-nics.ethtool-S-loop.txt");

    @Override
    protected FormatAdapter adapter() {
        return new EthtoolStatsAdapter();
    }

    @Override
    protected List<Path> fixtures() {
        return List.of(MLX5, I40E, ICE, BNXT, NODE_EXPORTER, VIRTIO, VMXNET3, ENA, SFC, TG3, IAVF, E1000E, BE2NET, VETH, VETH_LOOP, VIRTIO_618);
    }

    private CollectingSink parse(final String text) {
        return parse(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * ethtool 6.1's {@code ethtool -S ens1f0} of a veth (Debian 12) prints no interface name: the port comes from the
     * context ({@code ingest --port ens1f0}), nic0 only when none is given. {@code peer_ifindex}, the index of the
     * veth's other end, is an attribute, not a count, and is not stored as a counter.
     */
    @Test
    void shouldNameTheDumpsPortFromTheContextSinceEthtoolPrintsNone() throws IOException {
        final CollectingSink sink = new CollectingSink();
        adapter().parse(new ByteArrayInputStream(Files.readAllBytes(VETH)), context().withPort("ens1f0"), sink);

        assertThat(sink.rejections).isEmpty();
        assertThat(sink.only("dut", "ens1f0").counters()).containsEntry("rx_drops.q0", 0L).containsEntry("rx_drops", 0L)
            .doesNotContainKey("peer_ifindex");
        assertThat(parse(VETH).only("dut", "nic0")).isNotNull(); // no --port: the host's first NIC, as before
    }

    /** The loop docs/ingest.md gives for several NICs ({@code # ethtool -S IF} before each dump), run on two veths. */
    @Test
    void shouldReadSeveralNicsFromTheDocumentedLoop() throws IOException {
        final CollectingSink sink = parse(VETH_LOOP);

        assertThat(sink.records).isEqualTo(2);
        assertThat(sink.samples).extracting(Sample::port).containsExactly("ens1f0", "ens1f1");
    }

    /** Found by fuzzing: "ethtool -S :" named an empty port, and the sample's constructor threw out of the adapter. */
    @Test
    void shouldTakeACommandLineNamingNoPortForAComment() {
        for (final String command : List.of("# ethtool -S :", "# ethtool -S ;", "# ethtool --statistics |&")) {
            final CollectingSink sink = parse(command + "\n     Tx Queue#: 0\n       ucast pkts tx: 54123\n     tx_packets: 5\n");

            assertThat(sink.rejections).as(command).isEmpty();
            assertThat(sink.only("dut", "nic0").counters()).as(command).containsEntry("tx_packets", 5L);
        }
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
        // 751 lines, most of them per-channel: of the 16 channels only the canonical counters stay, as <name>.q<N>
        assertThat(s.counters()).containsEntry("rx_bytes.q0", 146_815_482_364L).containsEntry("tx_packets.q15", 16_237_939L)
            .containsEntry("tx_drops.q3", 0L);
        assertThat(s.counters().keySet().stream().filter(k -> k.matches(".+\\.q\\d+"))).hasSize(5 * 16);
        assertThat(s.counters()).hasSizeLessThan(230);
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
            RejectReason.NON_NUMERIC, RejectReason.NOT_FINITE, RejectReason.NON_NUMERIC, RejectReason.MALFORMED);
        assertThat(sink.rejections.get(0).location()).isEqualTo("line 2");
        assertThat(new String(sink.rejections.get(0).raw(), StandardCharsets.UTF_8)).isEqualTo("     rx_bytes: -5");
        // a statistic named twice is no bad line: the first value stands, the repeat is counted and named
        assertThat(sink.only("dut", "nic0").counters()).containsOnlyKeys("rx_drops", "tx_drops")
            .containsEntry("rx_drops", 3L).containsEntry("tx_drops", 1L);
        assertThat(sink.dropped).containsExactly(RepeatedKeys.DROPPED);
        assertThat(sink.warnings).contains(RepeatedKeys.warning("rx_dropped"));
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

    /**
     * virtio_net on Linux 6.18 (this machine, ethtool 6.1): per-queue rx0_* / tx0_* beside device totals, and no bytes
     * or packets at all. rx0_drops is the queue's share of rx_drops (kept as rx_drops.q0; the device total is not
     * replaced); the other per-queue lines repeat device totals and are counted as values dropped; the dump's missing
     * byte counters give one warning.
     */
    @Test
    void shouldKeepVirtioNetQueueDropsCountTheRestAndWarnThatTheDumpHasNoBytes() throws IOException {
        final CollectingSink sink = parse(VIRTIO_618);

        assertThat(sink.rejections).isEmpty();
        final Sample s = sink.only("dut", "nic0");
        assertThat(s.counters()).containsEntry("rx_drops.q0", 0L).containsEntry("rx_drops", 0L)
            .containsEntry("rx_kicks", 1_103L).containsEntry("tx_kicks", 3_357L)
            .doesNotContainKeys("rx0_kicks", "tx0_kicks", "rx_bytes", "tx_bytes");
        // rx0_xdp_packets, rx0_xdp_tx, rx0_xdp_redirects, rx0_xdp_drops, rx0_kicks, tx0_xdp_tx, tx0_xdp_tx_drops,
        // tx0_kicks, tx0_tx_timeouts
        assertThat(sink.dropped).hasSize(9).containsOnly(CounterMapping.PER_QUEUE_STAT);
        assertThat(sink.warnings).containsExactly(EthtoolStatsAdapter.NO_BYTES);

        assertThat(parse(VIRTIO).warnings).isEmpty(); // the older virtio_net layout has per-queue bytes
    }

    /** ethtool 6.1's --json -S (only the standard groups; all empty on virtio_net): refused in one line, not misread. */
    @Test
    void shouldRefuseEthtoolJsonNamingTheTextFormItReads() throws IOException {
        final CollectingSink sink = parse(refdata("debian-nic/virtio_net-eth0.ethtool-json-S-all-groups.json"));

        assertThat(sink.records).isEqualTo(1);
        assertThat(sink.samples).isEmpty();
        assertThat(sink.rejections).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.MALFORMED);
            assertThat(r.message()).startsWith("expected ethtool -S text ('NIC statistics:' then 'name: value' lines), "
                + "found JSON starting '[ {'");
            assertThat(r.location()).isEqualTo("lines 1-8");
        });
    }

    @Test
    void shouldSumVirtioNetQueuesIntoThePortTotalsItNeverReports() throws IOException {
        final Sample s = parse(VIRTIO).only("dut", "nic0");

        assertThat(s.counters()).containsOnly(
            entry("rx_bytes", 5_048_789_307L + 4_819_127_125L), entry("tx_bytes", 18_392_695_909L + 18_293_525_171L),
            entry("rx_packets", 10_282_181L + 10_401_806L), entry("tx_packets", 3_558_968L + 3_493_740L),
            entry("rx_packets.q0", 10_282_181L), entry("rx_bytes.q0", 5_048_789_307L),
            entry("rx_packets.q1", 10_401_806L), entry("rx_bytes.q1", 4_819_127_125L),
            entry("tx_packets.q0", 3_558_968L), entry("tx_bytes.q0", 18_392_695_909L),
            entry("tx_packets.q1", 3_493_740L), entry("tx_bytes.q1", 18_293_525_171L));
    }

    @Test
    void shouldReadVmxnet3QueueBlocksWhoseNamesRepeatPerQueue() throws IOException {
        final CollectingSink sink = parse(VMXNET3);

        assertThat(sink.rejections).isEmpty();
        final Sample s = sink.only("dut", "nic0");
        assertThat(s.counters()).containsEntry("tx_packets.q0", 54_123L + 36 + 3).containsEntry("tx_bytes.q0", 9_333_023L + 4_622 + 432)
            .containsEntry("tx_packets.q1", 64_809L + 6).containsEntry("rx_packets.q0", 40_863L + 112_048 + 79_384)
            .containsEntry("rx_bytes.q1", 23_059_888L + 22_900_279 + 4_360_015).containsEntry("tx_drops.q0", 0L)
            .containsEntry("rx_drops.q1", 0L)
            .containsEntry("tx_packets", 54_162L + 64_815).containsEntry("rx_packets", 232_295L + 243_408)
            .containsEntry("rx_bytes", 124_008_205L + 50_320_182).containsEntry("tx timeout count", 0L);
        assertThat(s.counters().keySet()).noneMatch(k -> k.contains("LRO") || k.contains("giant"));
    }

    @Test
    void shouldReadEnaQueueCountersAsPacketsAndBytesPerQueue() throws IOException {
        final Sample s = parse(ENA).only("dut", "nic0");

        assertThat(s.counters()).containsEntry("tx_packets.q0", 2_005_711L).containsEntry("rx_bytes.q3", 66_809_815_952L)
            .containsEntry("rx_bytes", 64_430_725_908L + 27_051_044_585L + 27_815_409_390L + 66_809_815_952L)
            .containsEntry("tx_packets", 2_005_711L + 4_468_943 + 1_972_698 + 4_647_398)
            .containsEntry("ena_admin_q_submitted_cmd", 28L);
        assertThat(s.counters().keySet()).noneMatch(k -> k.startsWith("queue_"));
    }

    @Test
    void shouldPreferSfcPortCountersAndFoldQueuesBeyondTheBound() throws IOException {
        final Sample s = parse(SFC).only("dut", "nic0");

        assertThat(s.counters()).containsEntry("rx_bytes", 410_901L).containsEntry("tx_bytes", 795_279L)
            .containsEntry("rx_packets", 1_653L).containsEntry("tx_packets", 1_865L)
            .containsEntry("tx_packets.q0", 130L).containsEntry("tx_packets.q11", 439L).containsEntry("tx_packets.q15", 0L)
            .containsEntry("tx_packets.qrest", 0L) // tx-16 and tx-17: beyond the 16 queues kept one by one
            .containsEntry("rx_packets.q0", 232L).containsEntry("rx_drops", 0L).containsEntry("fcs_errors", 0L)
            .containsEntry("port_rx_pause", 0L).doesNotContainKeys("tx_packets.q16", "tx_packets.q17");
        assertThat(s.counters().keySet()).noneMatch(k -> k.contains("xdp-cpu"));
    }

    @Test
    void shouldSumTg3FramesAndKeepThresholdHitCountersAsCounters() throws IOException {
        final Sample s = parse(TG3).only("dut", "nic0");

        assertThat(s.counters()).containsEntry("rx_bytes", 60_386_827_026L).containsEntry("tx_bytes", 33_589_308_727L)
            .containsEntry("rx_packets", 141_299_868L + 12_967_606 + 675_616).containsEntry("tx_packets", 140_518_737L + 9 + 6)
            .containsEntry("fcs_errors", 0L).containsEntry("rx_drops", 0L).containsEntry("tx_drops", 0L)
            .containsEntry("rx_xoff_pause_rcvd", 0L) // link-level pause: no canonical name
            .containsEntry("rx_threshold_hit", 0L).containsEntry("mbuf_lwm_thresh_hit", 0L);
        assertThat(s.gauges()).isEmpty();
    }

    @Test
    void shouldDeriveIavfPacketTotalsFromItsQueues() throws IOException {
        final Sample s = parse(IAVF).only("dut", "nic0");

        assertThat(s.counters()).containsEntry("rx_bytes", 7_042_004L).containsEntry("tx_bytes", 6_766_774L)
            .containsEntry("rx_packets", 2L + 69_038).containsEntry("tx_packets", 6L + 69_040 + 2)
            .containsEntry("rx_bytes.q8", 6_765_724L).containsEntry("tx_bytes.q14", 6_765_832L)
            .containsEntry("rx_drops", 0L).containsEntry("tx_drops", 0L).containsEntry("rx_unicast", 69_039L);
    }

    @Test
    void shouldReadE1000eNetdevCounters() throws IOException {
        final Sample s = parse(E1000E).only("dut", "nic0");

        assertThat(s.counters()).containsEntry("rx_packets", 567_425L).containsEntry("tx_packets", 274_383L)
            .containsEntry("rx_bytes", 703_224_479L).containsEntry("tx_bytes", 31_313_190L).containsEntry("tx_drops", 0L)
            .containsEntry("fcs_errors", 0L).containsEntry("rx_flow_control_xoff", 0L).containsEntry("rx_broadcast", 1_401L);
        assertThat(s.counters().keySet()).noneMatch(k -> k.contains(".q"));
    }

    @Test
    void shouldReadBe2netRxqTxqPrefixesAsQueues() throws IOException {
        final Sample s = parse(BE2NET).only("dut", "nic0");

        assertThat(s.counters()).containsEntry("rx_bytes.q0", 2_439_792_269L).containsEntry("rx_packets.q8", 11_437_669L)
            .containsEntry("tx_bytes.q7", 1_616_405_368L).containsEntry("tx_packets.q4", 14_979_301L)
            .containsEntry("rx_bytes", 24_734_008_611L).containsEntry("rx_packets", 74_350_807L)
            .containsEntry("tx_bytes", 13_009_664_998L).containsEntry("tx_packets", 71_286_535L)
            .containsEntry("tx_drops", 0L).containsEntry("fcs_errors", 0L).containsEntry("rx_priority_pause_frames", 0L);
        assertThat(s.counters().keySet()).noneMatch(k -> k.startsWith("rxq") || k.startsWith("txq"));
    }

    @Test
    void shouldReadBnx2xRingsAndRejectTheElidedLineAlone() throws IOException {
        final CollectingSink sink = parse(BNX2X);

        final Sample s = sink.only("dut", "nic0");
        assertThat(s.counters()).containsEntry("rx_bytes", 1_703_074_084_171L).containsEntry("rx_bytes.q0", 209_435_494_924L)
            .containsEntry("rx_bytes.q7", 209_722_406_252L).containsEntry("rx_packets.q1", 170_407_037L + 90 + 1_447)
            .containsEntry("rx_packets", 1_602_495_992L + 1_941_687 + 1_464_424)
            .containsEntry("tx_packets", 1_169_288_643L + 307_306 + 8_249).containsEntry("rx_drops", 0L)
            .containsEntry("fcs_errors", 0L).containsEntry("pfc_frames_received", 0L);
        assertThat(sink.rejections).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.MALFORMED);
            assertThat(r.message()).isEqualTo("expected 'name: value', got '...'");
            assertThat(r.location()).isEqualTo("line 36");
        });
    }

    @Test
    void shouldMapEachDriversPerPriorityPauseAndEcnSpellings() {
        // hand-written: one line per spelling in the drivers' ethtool string tables (docs/ingest.md driver table)
        final CollectingSink sink = parse("""
            $ ethtool -S i40e0
                 port.rx_priority_3_xoff_rx: 11
                 port.tx_priority_3_xoff_tx: 12
                 port.rx_priority_3_xon_rx: 13
                 port.rx_priority_3_xon_2_xoff: 14
            $ ethtool -S ixgbe0
                 rx_pb_3_pxoff: 21
                 tx_pb_3_pxoff: 22
                 rx_pb_3_pxon: 23
            $ ethtool -S ice0
                 rx_priority_5_xoff.nic: 31
                 tx_priority_5_xoff.nic: 32
            $ ethtool -S mlx0
                 rx_ecn_mark: 41
                 rx2_ecn_mark: 40
                 rx_prio3_pause: 42
            """);

        assertThat(sink.only("dut", "i40e0").counters()).containsOnly(entry("rx_pfc_pause.3", 11L),
            entry("tx_pfc_pause.3", 12L), entry("port.rx_priority_3_xon_rx", 13L), entry("port.rx_priority_3_xon_2_xoff", 14L));
        assertThat(sink.only("dut", "ixgbe0").counters()).containsOnly(entry("rx_pfc_pause.3", 21L),
            entry("tx_pfc_pause.3", 22L), entry("rx_pb_3_pxon", 23L));
        assertThat(sink.only("dut", "ice0").counters()).containsOnly(entry("rx_pfc_pause.5", 31L), entry("tx_pfc_pause.5", 32L));
        assertThat(sink.only("dut", "mlx0").counters()).containsOnly(entry("ecn_marked", 41L), entry("ecn_marked.q2", 40L),
            entry("rx_pfc_pause.3", 42L));
    }

    @Test
    void shouldStoreWatermarksPeaksAndCurrentDepthsAsGauges() {
        // hand-written: instant values some drivers print among their counters
        final Sample s = parse("""
            NIC statistics:
                 rx_bytes: 100
                 rx_buffer_watermark: 4096
                 tx_queue_0_peak_depth: 7
                 rx_pcie_current_level: 3
                 rx_threshold_hit: 5
            """).only("dut", "nic0");

        assertThat(s.counters()).containsOnly(entry("rx_bytes", 100L), entry("rx_threshold_hit", 5L));
        assertThat(s.gauges()).containsOnly(entry("rx_buffer_watermark", 4096.0), entry("rx_pcie_current_level", 3.0));
    }

    @Test
    void shouldRejectAnInputOfBlankLinesOnly() {
        final CollectingSink sink = parse("   \n\t\n");

        assertThat(sink.records).isEqualTo(1);
        assertThat(sink.rejections).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.NO_COUNTERS);
            assertThat(r.message()).isEqualTo("input holds only blank lines");
            assertThat(r.location()).isEqualTo("line 1");
        });
    }
}
