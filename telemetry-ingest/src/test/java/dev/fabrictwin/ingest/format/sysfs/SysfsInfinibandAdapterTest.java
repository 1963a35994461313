package dev.fabrictwin.ingest.format.sysfs;

import static org.assertj.core.api.Assertions.assertThat;

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
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.twin.telemetry.Sample;

class SysfsInfinibandAdapterTest extends AdapterContract {

    private static final Path TTAR = refdata("procfs-sysfs-infiniband/fixtures.ttar.sys_class_infiniband.excerpt.ttar");
    private static final String SEP = "# ttar - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -\n";

    @Override
    protected FormatAdapter adapter() {
        return new SysfsInfinibandAdapter();
    }

    @Override
    protected List<Path> fixtures() {
        return List.of(TTAR);
    }

    private static String file(final String path, final String value) {
        return "Path: fixtures/sys/class/infiniband/" + path + "\nLines: 1\n" + value + "\nMode: 644\n" + SEP;
    }

    private CollectingSink parse(final String text) {
        return parse(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldMakeOneSamplePerPortNamedDeviceSlashPort() throws IOException {
        final CollectingSink sink = parse(TTAR);

        assertThat(sink.records).isEqualTo(4);
        assertThat(sink.samples).extracting(Sample::port).containsExactly("hfi1_0/1", "mlx4_0/1", "mlx4_0/2", "mlx5_0/1");
        assertThat(sink.samples).allSatisfy(s -> {
            assertThat(s.device()).isEqualTo("dut");
            assertThat(s.source()).isEqualTo("sysfs");
            assertThat(s.ts()).isEqualTo(1_700_000_000_000L);
        });
    }

    @Test
    void shouldConvertFourByteWordsToBytes() throws IOException {
        final CollectingSink sink = parse(TTAR);

        final Sample mlx5 = sink.only("dut", "mlx5_0/1");
        assertThat(mlx5.counters()).containsEntry("tx_bytes", 2_880_761_508_848L * 4)
            .containsEntry("rx_bytes", 18_126_345_378L * 4).containsEntry("tx_packets", 10_907_922_116L)
            .containsEntry("rx_packets", 541_889_824L).containsEntry("fcs_errors", 0L).containsEntry("tx_drops", 0L);
        assertThat(sink.only("dut", "mlx4_0/2").counters()).containsEntry("rx_bytes", 2_460_436_784L * 4)
            .containsEntry("tx_bytes", 26_540_356_890L * 4).containsEntry("port_xmit_wait", 3846L);
        assertThat(sink.only("dut", "hfi1_0/1").counters()).containsEntry("rx_bytes", 345_091_702_026L * 4);
    }

    @Test
    void shouldKeepHwCountersAndReadStateAndRateAsGauges() throws IOException {
        final CollectingSink sink = parse(TTAR);

        final Sample mlx5 = sink.only("dut", "mlx5_0/1");
        assertThat(mlx5.counters()).containsEntry("out_of_sequence", 1L).containsEntry("roce_slow_restart_cnps", 131L)
            .containsEntry("rx_read_requests", 175_528_982L).containsEntry("unicast_xmit_packets", 10_907_922_116L);
        assertThat(mlx5.gauges()).containsEntry("oper_up", 1.0).containsEntry("speed_bps", 25e9);
        assertThat(sink.only("dut", "mlx4_0/1").gauges()).containsEntry("speed_bps", 40e9);
        assertThat(sink.only("dut", "hfi1_0/1").gauges()).containsEntry("speed_bps", 100e9).containsEntry("oper_up", 1.0);
    }

    @Test
    void shouldMapRoceCongestionCountersAndKeepSaturatedLegacyCounters() {
        final CollectingSink sink = parse(SEP
            + file("mlx5_1/ports/1/hw_counters/np_cnp_sent", "1234")
            + file("mlx5_1/ports/1/hw_counters/rp_cnp_handled", "567")
            + file("mlx5_1/ports/1/hw_counters/np_ecn_marked_roce_packets", "89")
            + file("mlx5_1/ports/1/hw_counters/rx_icrc_encapsulated", "0")
            + file("mlx5_1/ports/1/counters/port_xmit_data", "4294967295")
            + file("mlx5_1/ports/1/state", "1: DOWN")
            + "Path: fixtures/sys/class/infiniband/mlx5_1/ports/1/counters/port_rcv_packets\nLines: 1\n77EOF\nMode: 644\n");

        assertThat(sink.rejections).isEmpty();
        final Sample s = sink.only("dut", "mlx5_1/1");
        assertThat(s.counters()).containsEntry("cnp_sent", 1234L).containsEntry("cnp_handled", 567L)
            .containsEntry("ecn_marked", 89L).containsEntry("rx_icrc_encapsulated", 0L)
            .containsEntry("tx_bytes", 4_294_967_295L * 4).containsEntry("rx_packets", 77L);
        assertThat(s.gauges()).containsEntry("oper_up", 0.0);
    }

    @Test
    void shouldRejectABadCounterFileAloneAndKeepThePortsOtherCounters() {
        final CollectingSink sink = parse(SEP
            + file("mlx5_0/ports/1/counters/port_xmit_data", "-5")
            + file("mlx5_0/ports/1/counters/port_rcv_data", "lots")
            + file("mlx5_0/ports/1/counters/port_xmit_packets", "NaN")
            + file("mlx5_0/ports/1/counters/port_rcv_packets", "12")
            + "Path: fixtures/sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error\nLines: x\n"
            + file("mlx5_0/ports/1/rate", "fast"));

        assertThat(sink.records).isEqualTo(1);
        assertThat(sink.rejections).extracting(Rejection::reason).containsExactly(RejectReason.NEGATIVE_COUNTER,
            RejectReason.NON_NUMERIC, RejectReason.NOT_FINITE, RejectReason.MALFORMED, RejectReason.NON_NUMERIC);
        assertThat(new String(sink.rejections.get(0).raw(), StandardCharsets.UTF_8))
            .isEqualTo("Path: fixtures/sys/class/infiniband/mlx5_0/ports/1/counters/port_xmit_data\nLines: 1\n-5");
        assertThat(sink.rejections.get(0).location()).isEqualTo("line 2");
        assertThat(sink.only("dut", "mlx5_0/1").counters()).containsOnlyKeys("rx_packets").containsEntry("rx_packets", 12L);
    }

    @Test
    void shouldRejectEveryPortWithoutADeviceAndAnArchiveWithoutPorts() throws IOException {
        final CollectingSink sink = new CollectingSink();
        adapter().parse(new ByteArrayInputStream(Files.readAllBytes(TTAR)), ParseContext.defaults(CLOCK).withoutTimeWindow(),
            sink);
        assertThat(sink.samples).isEmpty();
        assertThat(sink.rejections).hasSize(4).extracting(Rejection::reason).containsOnly(RejectReason.MISSING_DEVICE);

        final CollectingSink net = parse(refdata("procfs-sysfs-infiniband/fixtures.ttar.sys_class_net.excerpt.ttar"));
        assertThat(net.records).isEqualTo(1);
        assertThat(net.rejections).singleElement().extracting(Rejection::reason).isEqualTo(RejectReason.NO_COUNTERS);
    }

    @Test
    void shouldRejectAnArchiveThatEndsInsideAnEntry() {
        final CollectingSink sink = parse(SEP + file("mlx5_0/ports/1/counters/port_rcv_packets", "12")
            + "Path: fixtures/sys/class/infiniband/mlx5_0/ports/1/counters/port_xmit_packets\nLines: 1\n");

        assertThat(sink.rejections).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.MALFORMED);
            assertThat(r.message()).contains("ends inside");
        });
        assertThat(sink.only("dut", "mlx5_0/1").counters()).containsEntry("rx_packets", 12L);
    }
}
