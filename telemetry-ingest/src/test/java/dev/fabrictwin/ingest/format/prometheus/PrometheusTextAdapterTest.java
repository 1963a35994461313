package dev.fabrictwin.ingest.format.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

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

class PrometheusTextAdapterTest extends AdapterContract {

    private static final Path ETHTOOL = refdata("node_exporter/ethtool_linux_test.go.expected_exposition.L291-375.prom");
    private static final Path E2E = refdata("node_exporter/collector_fixtures_e2e-output.txt");
    private static final Path VIRTIO_HOST = refdata("debian-nic/node_exporter-1.5.0-host.prom");
    private static final Path NE_ETHTOOL = refdata("debian-nic/node_exporter-1.5.0-ethtool.prom");
    private static final Path IB_SWITCH = refdata("infiniband-exporter/switch_test.go.TestSwitchCollectorFull.expected.L202-369.prom");
    private static final Path IB_HCA = refdata("infiniband-exporter/hca_test.go.TestHCACollector.expected.L46-155.prom");
    private static final Path SONIC = refdata("sonic-exporter/interface_collector.built-from-test-fixtures.prom");
    private static final long DEFAULT_TS = 1_700_000_000_000L;

    @Override
    protected FormatAdapter adapter() {
        return new PrometheusTextAdapter();
    }

    @Override
    protected List<Path> fixtures() {
        return List.of(ETHTOOL, E2E, VIRTIO_HOST, NE_ETHTOOL, IB_SWITCH, IB_HCA, SONIC);
    }

    private CollectingSink parse(final String text) {
        return parse(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * vinted/sonic-exporter's sonic_interface_* of its own test data (four ports): bytes, packets summed over
     * ucast/broadcast/multicast, discards as drops, speed in bit/s (its 3.125e+09 bytes/s of a 25G port), oper status;
     * the other error types keep the name the exposition gives them, and its size buckets, optics and info are left out.
     */
    @Test
    void shouldMapSonicExporterInterfaceCountersToCanonicalNames() throws IOException {
        final CollectingSink sink = parse(SONIC);

        assertThat(sink.rejections).isEmpty();
        assertThat(sink.samples).extracting(Sample::port).containsExactlyInAnyOrder("Ethernet0", "Ethernet39", "Ethernet72",
            "Ethernet76");
        final Sample e0 = sink.only("dut", "Ethernet0");
        assertThat(e0.counters()).containsOnly(Map.entry("rx_bytes", 123L), Map.entry("tx_bytes", 452L),
            Map.entry("rx_packets", 13_320L + 1_002 + 267), Map.entry("tx_packets", 122L + 166 + 2),
            Map.entry("rx_drops", 3L), Map.entry("tx_drops", 612L),
            Map.entry("sonic_interface_receive_errs_total{type=\"error\"}", 0L),
            Map.entry("sonic_interface_receive_errs_total{type=\"drop\"}", 2L),
            Map.entry("sonic_interface_receive_errs_total{type=\"pause\"}", 1L),
            Map.entry("sonic_interface_transmit_errs_total{type=\"error\"}", 5L),
            Map.entry("sonic_interface_transmit_errs_total{type=\"pause\"}", 2L));
        assertThat(e0.gauges()).containsOnly(Map.entry("speed_bps", 25e9), Map.entry("oper_up", 0.0));
        assertThat(sink.only("dut", "Ethernet72").gauges()).containsEntry("speed_bps", 100e9);
    }

    /**
     * node_exporter 1.5.0 (Debian 12) on a virtio_net machine: the NIC reports no speed, so node_network_speed_bytes is
     * -125000. That one gauge is left out and counted ("speed-unknown"); the port's counters and oper_up go out.
     */
    @Test
    void shouldDropOnlyTheSpeedGaugeWhenNodeExporterSaysSpeedUnknown() throws IOException {
        final CollectingSink sink = parse(VIRTIO_HOST);

        assertThat(sink.rejections).isEmpty();
        final Sample eth0 = sink.only("dut", "eth0");
        assertThat(eth0.counters()).containsEntry("rx_bytes", 207_371_979L).containsEntry("rx_packets", 4_871L)
            .containsEntry("tx_bytes", 418_515L).containsEntry("tx_packets", 3_654L);
        assertThat(eth0.gauges()).containsEntry("oper_up", 1.0).doesNotContainKey("speed_bps");
        assertThat(sink.dropped).containsExactly(PrometheusTextAdapter.SPEED_UNKNOWN);
    }

    /**
     * node_exporter 1.5.0's ethtool collector on this machine's virtio_net NIC (Linux 6.18): rx0_drops is the queue's
     * share of the device's received_drops (rx_drops.q0; rx_drops the device total); the other per-queue series repeat
     * device totals and are counted as values dropped, not dropped silently.
     */
    @Test
    void shouldKeepVirtioQueueDropsFromNodeExporterAndCountTheOtherQueueSeries() throws IOException {
        final CollectingSink sink = parse(NE_ETHTOOL);

        assertThat(sink.rejections).isEmpty();
        final Sample eth0 = sink.only("dut", "eth0");
        assertThat(eth0.counters()).containsEntry("rx_drops", 0L).containsEntry("rx_drops.q0", 0L)
            .containsEntry("node_ethtool_received_kicks", 1_103L).doesNotContainKey("node_ethtool_rx0_kicks");
        // rx0_kicks, rx0_xdp_drops, rx0_xdp_packets, rx0_xdp_redirects, rx0_xdp_transmitted, tx0_kicks,
        // tx0_transmitted_timeouts, tx0_xdp_transmitted, tx0_xdp_transmitted_drops
        assertThat(sink.dropped).hasSize(9).containsOnly(CounterMapping.PER_QUEUE_STAT);
    }

    @Test
    void shouldReadRenamedEthtoolSeriesExactlyAndKeepUnmappedOnesUnderTheirNames() throws IOException {
        final CollectingSink sink = parse(ETHTOOL);

        assertThat(sink.records).isEqualTo(1);
        assertThat(sink.samples).hasSize(1);
        final Sample eth0 = sink.only("dut", "eth0");
        assertThat(eth0.source()).isEqualTo("prometheus");
        assertThat(eth0.ts()).isEqualTo(DEFAULT_TS);
        // 1.260062e+06 in the text, node_ethtool_received_packets_total <- ethtool rx_packets
        assertThat(eth0.counters()).containsEntry("rx_packets", 1_260_062L).containsEntry("tx_packets", 961_500L)
            .containsEntry("rx_drops", 12_028L) // node_ethtool_port_received_dropped <- port.rx_dropped
            .containsEntry("node_ethtool_received_missed", 401L)
            .containsEntry("node_ethtool_received_unicast", 1_230_297L);
        // attribute gauges (autonegotiate, pause capability, info, speed modes) are not counters
        assertThat(eth0.counters().keySet()).noneMatch(k -> k.contains("autonegotiate") || k.contains("info")
            || k.contains("speed"));
        assertThat(eth0.gauges()).isEmpty();
    }

    @Test
    void shouldGroupInfinibandSeriesByDeviceAndPortWithExactValuesAbove2To32() throws IOException {
        final CollectingSink sink = parse(E2E);

        final Sample p1 = sink.only("dut", "mlx4_0/1");
        assertThat(p1.counters()).containsEntry("rx_bytes", 18_527_668L).containsEntry("tx_bytes", 14_933_760L)
            .containsEntry("rx_packets", 6_825_908_347L).containsEntry("tx_packets", 6_235_865L)
            .containsEntry("tx_drops", 5L).containsEntry("fcs_errors", 0L)
            .containsEntry("node_infiniband_port_transmit_wait_total", 4_294_967_295L);
        assertThat(p1.gauges()).containsEntry("speed_bps", 40e9); // 5e+09 bytes/s
        assertThat(sink.only("dut", "mlx4_0/2").counters()).containsEntry("rx_bytes", 0L)
            .containsEntry("node_infiniband_legacy_data_received_bytes_total", 18_527_668L);
        assertThat(sink.only("dut", "i40iw0/1").gauges()).containsEntry("speed_bps", 10e9);
    }

    @Test
    void shouldMapNetworkSpeedAndOperStateAndIgnoreMetricsWithoutAPort() throws IOException {
        final CollectingSink sink = parse(E2E);

        assertThat(sink.rejections).isEmpty();
        assertThat(sink.records).isEqualTo(1);
        final Sample eth0 = sink.only("dut", "eth0");
        assertThat(eth0.gauges()).containsEntry("speed_bps", 1e9).containsEntry("oper_up", 1.0);
        // carrier_changes counts every carrier transition: the canonical link_flaps
        assertThat(eth0.counters()).containsEntry("link_flaps", 2L)
            .containsKeys("node_network_carrier_up_changes_total", "node_network_carrier_down_changes_total");
        assertThat(sink.only("dut", "lo").counters()).containsEntry("rx_drops", 0L).containsEntry("tx_drops", 0L);
        // node_cpu_*, node_disk_*{device="sda"}, node_filesystem_* ... make no samples
        assertThat(sink.samples).extracting(Sample::port)
            .containsExactlyInAnyOrder("bond0", "eth0", "lo", "mlx4_0/1", "mlx4_0/2", "i40iw0/1");
    }

    @Test
    void shouldParseCountersAbove2To53WithoutLosingPrecision() {
        final CollectingSink sink = parse("""
            # TYPE node_network_receive_bytes_total counter
            node_network_receive_bytes_total{device="eth1"} 9007199254740993
            node_network_transmit_bytes_total{device="eth1"} 18446744073709551615
            node_network_receive_packets_total{device="eth1"} 1.8446744073709552e+19
            node_network_transmit_packets_total{device="eth1"} 1.2345678901234567e+17
            """);

        assertThat(sink.rejections).isEmpty();
        final Sample s = sink.only("dut", "eth1");
        assertThat(s.counter("rx_bytes", 0)).isEqualTo(9_007_199_254_740_993L);
        assertThat(Long.toUnsignedString(s.counter("tx_bytes", 0))).isEqualTo("18446744073709551615");
        // Go prints 2^64-1 as 1.8446744073709552e+19 (= 2^64): clamped to 2^64-1, not wrapped to 0
        assertThat(Long.toUnsignedString(s.counter("rx_packets", 0))).isEqualTo("18446744073709551615");
        assertThat(s.counter("tx_packets", 0)).isEqualTo(123_456_789_012_345_670L);
    }

    @Test
    void shouldMapMlx5PerPriorityPfcAndPreferPhysicalPortCounters() {
        final CollectingSink sink = parse("""
            node_ethtool_received_prio3_pause{device="ens1f0"} 42
            node_ethtool_transmitted_prio3_pause{device="ens1f0"} 7
            node_ethtool_received_prio3_pause_duration{device="ens1f0"} 1500
            node_ethtool_received_bytes_total{device="ens1f0"} 100
            node_ethtool_received_bytes_phy{device="ens1f0"} 120
            node_ethtool_rx0_packets{device="ens1f0"} 9
            node_network_receive_bytes_total{device="ens1f0"} 101
            """);

        final Sample s = sink.only("dut", "ens1f0");
        assertThat(s.counters()).containsEntry("rx_pfc_pause.3", 42L).containsEntry("tx_pfc_pause.3", 7L)
            .containsEntry("rx_pause_duration_us.3", 1500L).containsEntry("rx_bytes", 120L)
            .containsEntry("node_ethtool_received_bytes_total", 100L)
            .containsEntry("node_network_receive_bytes_total", 101L)
            .doesNotContainKey("node_ethtool_rx0_packets").containsEntry("rx_packets.q0", 9L)
            .containsEntry("rx_packets", 9L); // summed from the queues: the scrape has no packet total
    }

    @Test
    void shouldKeepQueuesUnderQueueNamesMapDriverPfcSpellingsAndReadInstantValuesAsGauges() {
        // hand-written: node_exporter's renaming (rx_ -> received_) of ice, i40e and ixgbe ethtool names
        final CollectingSink sink = parse("""
            # TYPE node_ethtool_received_queue_0_bytes untyped
            node_ethtool_received_queue_0_bytes{device="eth0"} 10
            node_ethtool_received_queue_1_bytes{device="eth0"} 20
            node_ethtool_received_queue_20_bytes{device="eth0"} 5
            node_ethtool_received_queue_21_bytes{device="eth0"} 6
            node_ethtool_transmitted_queue_3_packets{device="eth0"} 4
            node_ethtool_received_queue_0_csum_err{device="eth0"} 1
            node_ethtool_port_received_priority_3_xoff_received{device="eth0"} 11
            node_ethtool_port_transmitted_priority_3_xoff_transmitted{device="eth0"} 12
            node_ethtool_received_pb_5_pxoff{device="eth0"} 13
            node_ethtool_received_buffer_watermark{device="eth0"} 4096
            node_ethtool_received_threshold_hit{device="eth0"} 2
            """);

        final Sample s = sink.only("dut", "eth0");
        assertThat(s.counters()).containsOnly(entry("rx_bytes", 41L), entry("tx_packets", 4L), entry("rx_bytes.q0", 10L),
            entry("rx_bytes.q1", 20L), entry("rx_bytes.qrest", 11L), entry("tx_packets.q3", 4L), entry("rx_pfc_pause.3", 11L),
            entry("tx_pfc_pause.3", 12L), entry("rx_pfc_pause.5", 13L), entry("node_ethtool_received_threshold_hit", 2L));
        assertThat(s.gauges()).containsOnly(entry("node_ethtool_received_buffer_watermark", 4096.0));
    }

    @Test
    void shouldUseAnExplicitTimestampAndSplitSamplesByIt() {
        final CollectingSink sink = parse("""
            node_network_receive_bytes_total{device="eth0"} 10 1735689600000
            node_network_transmit_bytes_total{device="eth0"} 20 1735689600000
            node_network_receive_bytes_total{device="eth1"} 30
            """);

        assertThat(sink.only("dut", "eth0").ts()).isEqualTo(1_735_689_600_000L);
        assertThat(sink.only("dut", "eth0").counters()).containsEntry("rx_bytes", 10L).containsEntry("tx_bytes", 20L);
        assertThat(sink.only("dut", "eth1").ts()).isEqualTo(DEFAULT_TS);
    }

    @Test
    void shouldRejectEachBadLineWithItsReasonAndStillSampleTheRestOfTheScrape() {
        final String input = String.join("\n",
            "# TYPE node_network_receive_bytes_total counter",
            "node_network_receive_bytes_total{device=\"eth0\"} -5",
            "node_network_transmit_bytes_total{device=\"eth0\"} lots",
            "node_network_receive_packets_total{device=\"eth0\"} NaN",
            "node_network_speed_bytes{device=\"eth0\"} +Inf",
            "node_network_receive_drop_total{device=\"eth0\"} 1.5",
            "node_network_transmit_packets_total{device=\"eth0\" 5",
            "node_network_receive_errs_total{device=\"eth0\"} 3 notatime",
            "node_network_transmit_drop_total{device=\"eth0\"} 4",
            "node_network_transmit_drop_total{device=\"eth0\"} 5",
            "node_network_up{device=\"eth0\"} 1");

        final CollectingSink sink = parse(input);

        assertThat(sink.records).isEqualTo(1);
        assertThat(sink.rejections).extracting(Rejection::reason).containsExactly(RejectReason.NEGATIVE_COUNTER,
            RejectReason.NON_NUMERIC, RejectReason.NOT_FINITE, RejectReason.NOT_FINITE, RejectReason.NON_NUMERIC,
            RejectReason.MALFORMED, RejectReason.MALFORMED);
        assertThat(sink.rejections.get(0).location()).isEqualTo("line 2");
        assertThat(new String(sink.rejections.get(0).raw(), StandardCharsets.UTF_8))
            .isEqualTo("node_network_receive_bytes_total{device=\"eth0\"} -5");
        assertThat(sink.rejections).allSatisfy(r -> assertThat(r.format()).isEqualTo("prometheus"));
        final Sample eth0 = sink.only("dut", "eth0");
        assertThat(eth0.counters()).containsOnlyKeys("tx_drops").containsEntry("tx_drops", 4L);
        assertThat(eth0.gauges()).containsEntry("oper_up", 1.0);
        // a series repeated is no bad line: the first value stands, the repeat is counted and named
        assertThat(sink.dropped).containsExactly(RepeatedKeys.DROPPED);
        assertThat(sink.warnings).containsExactly(RepeatedKeys.warning("node_network_transmit_drop_total"));
    }

    @Test
    void shouldRejectTheScrapeWithoutADevice() throws IOException {
        final CollectingSink sink = new CollectingSink();
        final ParseContext noDevice = ParseContext.defaults(CLOCK).withoutTimeWindow();
        adapter().parse(new ByteArrayInputStream(Files.readAllBytes(ETHTOOL)), noDevice, sink);

        assertThat(sink.records).isEqualTo(1);
        assertThat(sink.samples).isEmpty();
        assertThat(sink.rejections).singleElement().extracting(Rejection::reason).isEqualTo(RejectReason.MISSING_DEVICE);
    }

    @Test
    void shouldRejectAScrapeWithNoPortSeriesAndAnOversizedScrape() throws IOException {
        final CollectingSink cpuOnly = parse("# TYPE node_load1 gauge\nnode_load1 0.5\nnode_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} 1\n");
        assertThat(cpuOnly.rejections).singleElement().extracting(Rejection::reason).isEqualTo(RejectReason.NO_COUNTERS);

        final ParseContext small = new ParseContext("dut", null, DEFAULT_TS, CLOCK, Duration.ofDays(365_000),
            Duration.ofDays(365_000), 1024);
        final CollectingSink sink = new CollectingSink();
        adapter().parse(new ByteArrayInputStream(Files.readAllBytes(ETHTOOL)), small, sink);
        assertThat(sink.samples).isEmpty();
        assertThat(sink.rejections).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.OVERSIZED);
            assertThat(r.raw()).hasSize(1024);
        });
    }

    @Test
    void shouldTreatEachOpenMetricsEofAsTheEndOfOneScrape() {
        final CollectingSink sink = parse("node_network_up{device=\"eth0\"} 1\n# EOF\nnode_network_up{device=\"eth0\"} 0 1735689600000\n# EOF\n");

        assertThat(sink.records).isEqualTo(2);
        assertThat(sink.samples).extracting(s -> s.gauges().get("oper_up")).containsExactly(1.0, 0.0);
    }

    private static CollectingSink parseWithoutDevice(final byte[] input) throws IOException {
        final CollectingSink sink = new CollectingSink();
        new PrometheusTextAdapter().parse(new ByteArrayInputStream(input), ParseContext.defaults(CLOCK)
            .withDefaultTimestamp(DEFAULT_TS).withoutTimeWindow(), sink);
        return sink;
    }

    /**
     * infiniband_exporter 0.10.0's switch collector (its test's expected exposition, EDR fabric): every port of every
     * switch in one scrape, named by GUID and port. The switches are named by infiniband_switch_info as ibnetdiscover's
     * topology names them, no --device needed; the data counters are already bytes (the exporter multiplies the
     * 4-octet words by 4: perfquery's PortRcvData 39078804993378 words on this port would be 156315219973512 bytes).
     */
    @Test
    void shouldReadInfinibandExporterSwitchPortsUnderTheTopologysNames() throws IOException {
        final CollectingSink sink = parseWithoutDevice(Files.readAllBytes(IB_SWITCH));

        assertThat(sink.rejections).isEmpty();
        assertThat(sink.records).isEqualTo(1);
        final Sample p2 = sink.only("ib-i1l1s01", "2");
        assertThat(p2.counters()).containsEntry("rx_bytes", 156_315_219_973_512L).containsEntry("tx_bytes", 104_026_280_056_104L)
            .containsEntry("rx_packets", 93_660_802_641L).containsEntry("tx_packets", 122_978_948_297L)
            .containsEntry("tx_drops", 0L).containsEntry("fcs_errors", 0L)
            // PortXmitWait has no canonical counter: kept under its name, as perfquery's is
            .containsEntry("infiniband_switch_port_transmit_wait_total", 36_510_964L)
            .containsEntry("infiniband_switch_port_symbol_error_total", 0L);
        assertThat(sink.only("ib-i4l1s01", "1").counters()).containsEntry("tx_drops", 20_046L)
            .containsEntry("link_flaps", 2L); // LinkDownedCounter 1: one down, and its up
        // a cabled port the exporter gave no counters for: its rate only (1.25e+10 bytes/s = EDR 4x, 100 Gb/s)
        assertThat(sink.only("ib-i1l1s01", "10").gauges()).containsOnly(entry("speed_bps", 100e9));
        assertThat(sink.samples).extracting(Sample::device).containsOnly("ib-i1l1s01", "ib-i4l1s01");
        assertThat(sink.samples).hasSize(6);
    }

    /**
     * infiniband_exporter's HCA collector: an HCA "o0001 HCA-1" is host o0001, port HCA-1/1 (as ibnetdiscover names
     * it), and the HCA's rate, which has no port label, is its port's speed.
     */
    @Test
    void shouldReadInfinibandExporterHcaPortsAsHostAndHcaPort() throws IOException {
        final CollectingSink sink = parseWithoutDevice(Files.readAllBytes(IB_HCA));

        assertThat(sink.rejections).isEmpty();
        assertThat(sink.dropped).isEmpty();
        final Sample o1 = sink.only("o0001", "HCA-1/1");
        assertThat(o1.counters()).containsEntry("rx_bytes", 39_009_938_353_200L).containsEntry("tx_bytes", 36_198_369_975_904L)
            .containsEntry("rx_packets", 33_038_722_564L).containsEntry("tx_packets", 28_825_338_611L);
        assertThat(o1.gauges()).containsOnly(entry("speed_bps", 100e9));
        assertThat(sink.only("o0002", "HCA-1/1").counters()).containsEntry("rx_bytes", 148_901_607_811_540L);
        assertThat(sink.samples).hasSize(2);
    }

    @Test
    void shouldNameInfinibandNodesByGuidWithoutTheirInfoOrWhenTwoShareADescription() throws IOException {
        final CollectingSink sink = parseWithoutDevice("""
            infiniband_switch_info{guid="0x0000000000000001",lid="1",switch="MF0;switch:SX6036/U1"} 1
            infiniband_switch_info{guid="0x0000000000000002",lid="2",switch="MF0;switch:SX6036/U1"} 1
            infiniband_switch_port_receive_data_bytes_total{guid="0x0000000000000001",port="3"} 40
            infiniband_switch_port_receive_data_bytes_total{guid="0x0000000000000002",port="3"} 80
            infiniband_hca_port_receive_data_bytes_total{guid="0x00000000000000AB",port="1"} 120
            node_network_receive_bytes_total{device="eth0"} 7
            infiniband_switch_port_receive_data_bytes_total{guid="lid-12",port="1"} 5
            """.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.only("S-0000000000000001", "3").counters()).containsEntry("rx_bytes", 40L);
        assertThat(sink.only("S-0000000000000002", "3").counters()).containsEntry("rx_bytes", 80L);
        assertThat(sink.only("H-00000000000000ab", "1").counters()).containsEntry("rx_bytes", 120L);
        // node_exporter's series in the same scrape still need --device; a guid that is none is rejected naming both
        assertThat(sink.rejections).extracting(Rejection::reason)
            .containsExactlyInAnyOrder(RejectReason.MALFORMED, RejectReason.MISSING_DEVICE);
        assertThat(sink.rejections).extracting(Rejection::message).anySatisfy(m -> assertThat(m)
            .isEqualTo("infiniband_exporter series infiniband_switch_port_receive_data_bytes_total has guid \"lid-12\", "
                + "expected a GUID like 0x7cfe9003009ce5b0"));
    }
}
