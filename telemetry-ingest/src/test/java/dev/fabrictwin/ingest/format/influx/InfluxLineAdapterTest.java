package dev.fabrictwin.ingest.format.influx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.ingest.format.AdapterContract;
import dev.fabrictwin.ingest.format.CollectingSink;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.ingest.format.gnmi.GnmiProtoJsonAdapter;
import dev.fabrictwin.twin.telemetry.Sample;

class InfluxLineAdapterTest extends AdapterContract {

    private static final Path ETHTOOL = refdata("telegraf-readme-examples/ethtool.README.L107-108.text");
    private static final Path INFINIBAND = refdata("telegraf-readme-examples/infiniband.README.L109-110.text");
    private static final Path NET = refdata("telegraf-readme-examples/net.README.L79-80.text");
    private static final Path GNMI = refdata("telegraf-readme-examples/gnmi.README.L219-220.text");
    private static final Path GNMI_14063 = refdata("telegraf-gnmi/issue_14063.expected.out");

    @Override
    protected FormatAdapter adapter() {
        return new InfluxLineAdapter();
    }

    @Override
    protected List<Path> fixtures() {
        return List.of(ETHTOOL, INFINIBAND, NET, refdata("telegraf-readme-examples/net.README.L73-73.text"), GNMI,
            GNMI_14063, refdata("telegraf-gnmi/issue_14530.expected.out"), refdata("telegraf-gnmi/issue_16476.expected.out"));
    }

    @Test
    void shouldMapEthtoolFieldsAndDropPerQueueCounters() throws IOException {
        final CollectingSink sink = parse(ETHTOOL);

        final Sample s = sink.only("test01", "mgmt0");
        assertThat(s.ts()).isEqualTo(1_564_658_080_000L);
        assertThat(s.source()).isEqualTo("influx");
        assertThat(s.counters()).containsEntry("tx_bytes", 427_527_435L).containsEntry("rx_bytes", 2_480_280_632L)
            .containsEntry("rx_packets", 25_926_536L).containsEntry("tx_packets", 1_257_017L)
            .containsEntry("tx_drops", 0L).containsEntry("fcs_errors", 0L)
            .containsEntry("rx_long_byte_count", 2_480_280_632L) // unknown, kept under its name
            .doesNotContainKeys("rx_queue_5_csum_err", "tx_queue_1_bytes", "interface_up", "duplex", "autoneg", "link", "speed");
        assertThat(s.counters().keySet()).noneMatch(k -> k.matches("(rx|tx)_queue_\\d+_.*"));
        assertThat(s.gauges()).containsEntry("oper_up", 1.0).containsEntry("speed_bps", 1e9);
        // test02 reports interface_up=0 but link=1: oper state follows the carrier
        assertThat(sink.only("test02", "mgmt0").gauges()).containsEntry("oper_up", 1.0);
        assertThat(sink.only("test02", "mgmt0").counters()).containsEntry("tx_bytes", 427_575_843L);
    }

    @Test
    void shouldJoinInfinibandDeviceAndPortAndConvertFourByteWords() throws IOException {
        final CollectingSink sink = parse(INFINIBAND);

        // two lines (counters/ and hw_counters/) of one port and time: one sample, as docs/contracts.md wants
        assertThat(sink.records).isEqualTo(2);
        final Sample s = sink.only("hop-r640-12", "mlx5_bond_0/1");
        assertThat(s.ts()).isEqualTo(1_737_652_060_000L);
        assertThat(s.counters())
            .containsEntry("tx_bytes", 85_378_896_588L * 4) // port_xmit_data counts 4-byte words
            .containsEntry("rx_bytes", 34_600_185_253L * 4)
            .containsEntry("tx_packets", 82_002_535L).containsEntry("rx_packets", 34_914_071L)
            .containsEntry("tx_drops", 0L).containsEntry("unicast_xmit_packets", 82_002_535L)
            .doesNotContainKeys("port_xmit_data", "port_rcv_data")
            .containsEntry("cnp_sent", 0L).containsEntry("cnp_handled", 0L).containsEntry("ecn_marked", 0L)
            .containsEntry("rx_read_requests", 6_000L).containsEntry("rx_write_requests", 19_000L)
            .doesNotContainKeys("np_cnp_sent", "rp_cnp_handled", "lifespan");
    }

    @Test
    void shouldReadNetPluginInterfacesAndKeepProtocolCountersWithoutSettings() throws IOException {
        final CollectingSink sink = parse(NET);

        final Sample eth0 = sink.only("HOST", "eth0");
        assertThat(eth0.ts()).isEqualTo(1_492_834_180_000L);
        assertThat(eth0.counters()).containsEntry("tx_bytes", 451_838_509L).containsEntry("rx_bytes", 3_284_081_640L)
            .containsEntry("tx_packets", 2_663_590L).containsEntry("rx_packets", 3_585_442L)
            .containsEntry("rx_drops", 4L).containsEntry("tx_drops", 0L).containsEntry("err_in", 0L);
        final Sample all = sink.only("HOST", "all");
        assertThat(all.ts()).isEqualTo(1_492_831_540_000L);
        assertThat(all.counters()).containsEntry("tcp_retranssegs", 14_669L)
            .doesNotContainKeys("tcp_maxconn", "tcp_rtomin", "ip_defaultttl", "tcp_currestab");
    }

    @Test
    void shouldTakeTheGnmiSourceAsDeviceAndTheNameKeyAsPort() throws IOException {
        final CollectingSink sink = parse(GNMI);

        // host=linux is the Telegraf machine; source is the router
        final Sample mgmt = sink.only("10.49.234.115", "MgmtEth0/RP0/CPU0/0");
        assertThat(mgmt.ts()).isEqualTo(1_559_145_777_425L);
        assertThat(mgmt.counters()).containsEntry("rx_bytes", 0L).containsEntry("tx_drops", 0L)
            .containsEntry("rx_packets", 0L) // in-unicast-pkts standing in: this device sends no in-pkts
            .containsEntry("in-unknown-protos", 0L).doesNotContainKeys("last-clear", "in-unicast-pkts");
        assertThat(sink.only("10.49.234.115", "GigabitEthernet0/0/0/0").counters()).containsEntry("tx_bytes", 0L);
    }

    @Test
    void shouldTakeThePortFromTheNameFieldWhenTelegrafHadNoKey() throws IOException {
        final CollectingSink sink = parse(GNMI_14063);

        // name="\\\"1\\" in line protocol is the string \"1\ : Ciena's quoted key, the quotes are no part of the port
        final Sample s = sink.only("127.0.0.1", "1");
        assertThat(s.ts()).isEqualTo(1_696_617_695_101L);
        assertThat(s.counters()).containsEntry("rx_bytes", 0L).containsEntry("fcs_errors", 0L)
            .containsEntry("in_1024_to_1518_octet_pkts", 0L).doesNotContainKeys("last_clear", "name");
    }

    @Test
    void shouldMapPerPriorityPfcAndUnescapeTagsAndFields() {
        final String input = String.join("\n",
            "ethtool,driver=mlx5_core,host=gpu-node-1,interface=eth\\ 2 rx_prio3_pause=7i,tx_prio3_pause=9u,"
                + "rx_prio3_pause_duration=120i,rx_prio3_pause_transition=3i,rx_queue_1_bytes=5i,ch3_events=4i,rx12_packets=1i,"
                + "tx_pfc_ena_frames_pri5=11i 1700000000123456789",
            "my\\,meas,host=h\\=1,interface=p\\,1 rx_bytes=18446744073709551615u,note=\"a \\\"quoted\\\" , value\" 1700000000000000000");

        final CollectingSink sink = parse(input.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.rejections).isEmpty();
        final Sample pfc = sink.only("gpu-node-1", "eth 2");
        assertThat(pfc.ts()).isEqualTo(1_700_000_000_123L);
        assertThat(pfc.counters()).containsEntry("rx_pfc_pause.3", 7L).containsEntry("tx_pfc_pause.3", 9L)
            .containsEntry("rx_pause_duration_us.3", 120L).containsEntry("rx_prio3_pause_transition", 3L)
            .containsEntry("tx_pfc_pause.5", 11L)
            .doesNotContainKeys("rx_queue_1_bytes", "ch3_events", "rx12_packets");
        assertThat(Long.toUnsignedString(sink.only("h=1", "p,1").counter("rx_bytes", 0))).isEqualTo("18446744073709551615");
    }

    /** IOS-XR's data rates (kbit/s) and carrier transitions through Telegraf's cisco_telemetry_mdt. */
    @Test
    void shouldMapMdtDataRatesToBitsPerSecondAndCarrierTransitionsToLinkFlaps() {
        final String input = String.join("\n",
            "Cisco-IOS-XR-pfi-im-cmd-oper:interfaces/interface-xr/interface,source=leaf4,interface_name=HundredGigE0/0/0/4 "
                + "data_rates/output_data_rate=2500000i,data_rates/input_data_rate=17i,data_rates/peak_output_data_rate=9000000i "
                + "1700000000000000000",
            "Cisco-IOS-XR-infra-statsd-oper:infra-statistics/interfaces/interface/latest/generic-counters,source=leaf4,"
                + "interface_name=HundredGigE0/0/0/5 carrier-transitions=14i,bytes-received=5i 1700000000000000000");

        final CollectingSink sink = parse(input.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.rejections).isEmpty();
        assertThat(sink.only("leaf4", "HundredGigE0/0/0/4").gauges()).containsEntry("tx_bps", 2.5e9).containsEntry("rx_bps", 17e3);
        assertThat(sink.only("leaf4", "HundredGigE0/0/0/5").counters()).containsEntry("link_flaps", 14L);
    }

    @Test
    void shouldKeepWholeFloatsAsCountersFractionalGaugesAsGaugesAndUseDefaults() {
        final String input = String.join("\n",
            "net,interface=eth0 bytes_recv=12.0,latency_p99_us=1.5,tcp_rtt=2.25,up=true,oper_status=\"UP\"",
            "net,host=h,interface=eth0 bytes_recv=1.5 1700000000000000000");

        final CollectingSink sink = parse(input.getBytes(StandardCharsets.UTF_8));

        // no host tag: the context device; no timestamp: the context's default
        final Sample s = sink.only("dut", "eth0");
        assertThat(s.ts()).isEqualTo(1_700_000_000_000L);
        assertThat(s.counters()).containsOnlyKeys("rx_bytes").containsEntry("rx_bytes", 12L);
        assertThat(s.gauges()).containsEntry("latency_p99_us", 1.5).containsEntry("tcp_rtt", 2.25).containsEntry("oper_up", 1.0)
            .doesNotContainKey("up");
        // a counter cannot count half a packet
        assertThat(sink.rejections).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.NON_NUMERIC);
            assertThat(r.location()).isEqualTo("line 2");
        });
    }

    @Test
    void shouldRejectEachBadLineWithItsReasonAndRawBytesAndKeepGoing() {
        final List<String> lines = List.of(
            "net,host=h,interface=eth0 bytes_recv=-5i 1700000000000000000",
            "net,host=h,interface=eth0 bytes_recv=\"lots\" 1700000000000000000",
            "net,host=h,interface=eth0 bytes_recv=lots 1700000000000000000",
            "net,host=h,interface=eth0 bytes_recv=NaN 1700000000000000000",
            "net,host=h,interface=eth0 bytes_recv=18446744073709551616u 1700000000000000000",
            "cpu,host=h usage_idle=99.5 1700000000000000000",
            "net,host=h,interface=eth0 1700000000000000000",
            "net,host=h,interface=eth0 bytes_recv=1i 17000000000000000000000",
            "net,host=h,interface=eth0 bytes_recv=1i -5",
            "net,host=h,interface=eth0 bytes_recv=1i 1700000000000000000 trailing",
            "ethtool,driver=igb,host=test01,interface=mgmt0 tx_queue_1_packets=280782i,rx_queue_5_csum_err=0i,tx_mult", // cut off
            "# a comment",
            "",
            "net,host=h,interface=eth0 bytes_recv=1i 1700000000000000000");

        final CollectingSink sink = parse(String.join("\n", lines).getBytes(StandardCharsets.UTF_8));

        assertThat(sink.records).isEqualTo(12);
        assertThat(sink.samples).singleElement().satisfies(s -> assertThat(s.counters()).containsEntry("rx_bytes", 1L));
        assertThat(sink.rejections).extracting(Rejection::reason).containsExactly(RejectReason.NEGATIVE_COUNTER,
            RejectReason.NON_NUMERIC, RejectReason.NON_NUMERIC, RejectReason.NOT_FINITE, RejectReason.NON_NUMERIC,
            RejectReason.MISSING_PORT, RejectReason.MALFORMED, RejectReason.TIMESTAMP_OUT_OF_RANGE,
            RejectReason.TIMESTAMP_OUT_OF_RANGE, RejectReason.MALFORMED, RejectReason.MALFORMED);
        assertThat(sink.rejections).extracting(Rejection::location).startsWith("line 1", "line 2");
        assertThat(sink.rejections.get(10).message()).contains("tx_mult");
        assertThat(new String(sink.rejections.get(0).raw(), StandardCharsets.UTF_8)).isEqualTo(lines.get(0));
        assertThat(sink.rejections).allSatisfy(r -> assertThat(r.format()).isEqualTo("influx"));
    }

    @Test
    void shouldRejectOversizedLinesAndMissingDevicesWithoutAContextDevice() {
        final ParseContext tight = new ParseContext(null, null, 1, CLOCK, Duration.ofDays(365L * 100), Duration.ofDays(365L * 100), 100);
        final String input = "net,host=h,interface=eth0 bytes_recv=1i,x=\"" + "y".repeat(200) + "\" 1700000000000000000\n"
            + "net,interface=eth0 bytes_recv=1i 1700000000000000000\n"
            + "net,host=h,interface=eth0 bytes_recv=2i 1700000000000000000\n";
        final CollectingSink sink = new CollectingSink();
        try {
            adapter().parse(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), tight, sink);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }

        assertThat(sink.rejections).extracting(Rejection::reason).containsExactly(RejectReason.OVERSIZED, RejectReason.MISSING_DEVICE);
        assertThat(sink.rejections.get(0).raw()).hasSize(100);
        assertThat(sink.only("h", "eth0").counters()).containsEntry("rx_bytes", 2L);
    }

    private CollectingSink parse(final String text) {
        return parse(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldPutQueueTaggedLinesOfOnePortAndTimeIntoOneSampleUnderQueueNames() throws IOException {
        final CollectingSink sink = parse(refdata("telegraf-gnmi/issue_16515.expected.out"));

        // 11 lines: the first carries only state (parent_ae_name=""), the other ten one queue_number each
        assertThat(sink.records).isEqualTo(11);
        assertThat(sink.rejections).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.NO_COUNTERS);
            assertThat(r.location()).isEqualTo("line 1");
        });
        final Sample s = sink.only("127.0.0.1", "xe-0/0/0:0");
        assertThat(s.ts()).isEqualTo(1_739_811_071_353L);
        assertThat(s.counters()).containsEntry("tx_bytes.q0", 25_084_650_213L).containsEntry("tx_packets.q2", 105_352_268L)
            .containsEntry("tx_bytes.q9", 16_919_364_168L).containsEntry("tx_drops.q5", 0L)
            .containsEntry("egress/red_drop_packets_color_1.q8", 0L)
            .doesNotContainKeys("tx_bytes", "tx_packets"); // a switch's queues are not summed into the port
        assertThat(s.gauges()).containsEntry("buffer_watermark_bytes.q6", 624.0)
            .containsEntry("egress/peak_buffer_occupancy_percent.q0", 0.0);
        assertThat(s.counters()).hasSize(10 * 12);
    }

    @Test
    void shouldAgreeWithTheGnmiRouteOnJunosQueues() throws IOException {
        final Sample line = parse(refdata("telegraf-gnmi/issue_16515.expected.out")).only("127.0.0.1", "xe-0/0/0:0");
        final CollectingSink gnmi = new CollectingSink();
        new GnmiProtoJsonAdapter().parse(Files.newInputStream(refdata("telegraf-gnmi/issue_16515.responses.json")), context(), gnmi);
        final Sample proto = gnmi.only("dut", "xe-0/0/0:0");

        for (final String name : List.of("tx_bytes", "tx_packets", "tx_drops")) {
            for (int q = 0; q < 10; q++) {
                assertThat(line.counters().get(name + ".q" + q)).as(name + ".q" + q).isEqualTo(proto.counters().get(name + ".q" + q));
            }
        }
    }

    @Test
    void shouldStripCienaQuotesAndSumQueueFieldsIntoMissingTotals() throws IOException {
        assertThat(parse(refdata("telegraf-gnmi/issue_16476.expected.out")).only("127.0.0.1", "1").counters())
            .containsEntry("rx_bytes", 95_890_972_327_359L).containsEntry("rx_drops", 236L);

        // hand-written: Telegraf's ethtool plugin writes a virtio_net NIC's fields, which hold no port totals
        final Sample nic = parse("ethtool,driver=virtio_net,host=h1,interface=eth0 rx_queue_0_bytes=10i,rx_queue_1_bytes=5i,"
            + "rx_queue_0_packets=2i,rx_queue_17_bytes=1i,rx_queue_18_bytes=2i,rx_queue_0_xdp_drops=0i 1700000000000000000")
            .only("h1", "eth0");
        assertThat(nic.counters()).containsOnly(entry("rx_bytes", 18L), entry("rx_packets", 2L), entry("rx_bytes.q0", 10L),
            entry("rx_bytes.q1", 5L), entry("rx_packets.q0", 2L), entry("rx_bytes.qrest", 3L));
        // and be2net's "rxq1: rx_bytes" after Telegraf's key normalisation, with its checksum counters dropped
        assertThat(parse("ethtool,driver=be2net,host=h2,interface=eth1 rxq1:_rx_bytes=7i,rxq1__rx_pkts=3i,rxq1:_rx_compl_err=0i "
            + "1700000000000000000").only("h2", "eth1").counters())
            .containsOnly(entry("rx_bytes.q1", 7L), entry("rx_packets.q1", 3L), entry("rx_bytes", 7L), entry("rx_packets", 3L));
    }

    @Test
    void shouldPutAPriorityTagOnPfcCountersAndKeepRepeatedNamesInSeparateSamples() {
        // hand-written: a priority-tagged PFC line, and the same port and time written twice
        final CollectingSink sink = parse(String.join("\n",
            "pfc,host=sw1,interface=Ethernet4,priority=3 rx_pfc_pause=12i,tx_pfc_pause=4i,rx_bytes=100i 1700000000000000000",
            "pfc,host=sw1,interface=Ethernet4,priority=4 rx_pfc_pause=0i 1700000000000000000",
            "net,host=sw1,interface=Ethernet4 rx_pfc_pause.3=99i 1700000000000000000"));

        assertThat(sink.records).isEqualTo(3);
        assertThat(sink.samples).hasSize(2);
        assertThat(sink.samples.get(0).counters()).containsOnly(entry("rx_pfc_pause.3", 12L), entry("tx_pfc_pause.3", 4L),
            entry("rx_bytes.q3", 100L), entry("rx_pfc_pause.4", 0L));
        assertThat(sink.samples.get(1).counters()).containsOnly(entry("rx_pfc_pause.3", 99L));
    }
}
