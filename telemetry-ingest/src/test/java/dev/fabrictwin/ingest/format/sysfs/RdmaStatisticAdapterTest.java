package dev.fabrictwin.ingest.format.sysfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.ingest.Formats;
import dev.fabrictwin.ingest.format.AdapterContract;
import dev.fabrictwin.ingest.format.CollectingSink;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.twin.telemetry.Sample;

class RdmaStatisticAdapterTest extends AdapterContract {

    /** {@code rdma statistic -j} of an mlx5 SR-IOV port, as spiderpool's RDMA exporter reads it. */
    private static final Path MLX5 = refdata("spiderpool-rdma-statistic/metrics_test.go.TestProcessNetNS.sriov.L561-597.json");

    @Override
    protected FormatAdapter adapter() {
        return Formats.adapter("rdma");
    }

    @Override
    protected List<Path> fixtures() {
        return List.of(MLX5);
    }

    private CollectingSink parse(final String json) {
        return parse(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldReadEachPortOfTheRealOutputAsHcaSlashPortWithEveryHardwareCounter() throws IOException {
        final CollectingSink sink = parse(MLX5);

        assertThat(sink.records).isEqualTo(1);
        final Sample s = sink.only("dut", "mlx5_1/1");
        assertThat(s.source()).isEqualTo("rdma");
        assertThat(s.ts()).isEqualTo(1_700_000_000_000L);
        assertThat(s.counters()).hasSize(31).containsEntry("rx_write_requests", 2_331_678L)
            .containsEntry("rx_read_requests", 1_161_608L).containsEntry("rp_cnp_ignored", 0L)
            .containsEntry("rx_icrc_encapsulated", 0L).containsEntry("cnp_sent", 0L).containsEntry("cnp_handled", 0L)
            .containsEntry("ecn_marked", 0L).doesNotContainKeys("ifname", "port", "np_cnp_sent", "rp_cnp_handled");
        assertThat(s.gauges()).isEmpty();
    }

    @Test
    void shouldNameRoceCongestionCountersAsTheSysfsReaderDoes() {
        final CollectingSink sink = parse("[{\"ifindex\":3,\"ifname\":\"mlx5_2\",\"port\":1,\"np_cnp_sent\":1234,"
            + "\"rp_cnp_handled\":567,\"np_ecn_marked_roce_packets\":89,\"out_of_sequence\":7}]");

        assertThat(sink.rejections).isEmpty();
        assertThat(sink.only("dut", "mlx5_2/1").counters()).containsOnly(Map.entry("cnp_sent", 1234L),
            Map.entry("cnp_handled", 567L), Map.entry("ecn_marked", 89L),
            Map.entry("out_of_sequence", 7L));
        // the same names as hw_counters/ files give through the sysfs mapping
        assertThat(SysfsPorts.counter("np_cnp_sent").name()).isEqualTo("cnp_sent");
    }

    @Test
    void shouldRejectABadPortAloneAndReadTheOthers() {
        final CollectingSink sink = parse("[{\"ifname\":\"mlx5_0\",\"port\":1,\"np_cnp_sent\":-5},"
            + "{\"ifname\":\"mlx5_1\",\"port\":1,\"np_cnp_sent\":18446744073709551615},"
            + "{\"ifname\":\"mlx5_3\",\"port\":1,\"np_cnp_sent\":\"lots\"}]");

        assertThat(sink.records).isEqualTo(3);
        assertThat(sink.rejections).extracting(Rejection::reason)
            .containsExactly(RejectReason.NEGATIVE_COUNTER, RejectReason.NON_NUMERIC);
        assertThat(sink.only("dut", "mlx5_1/1").counters()).containsEntry("cnp_sent", -1L); // 2^64-1 read as unsigned
    }

    @Test
    void shouldRefuseOtherRdmaOutputsNamingWhatTheyAre() {
        final CollectingSink sink = parse("[{\"ifindex\":0,\"ifname\":\"mlx5_0\",\"port\":1,\"cntn\":4,\"qp-type\":\"RC\","
            + "\"pid\":46231,\"comm\":\"ib_write_bw\",\"rx_write_requests\":0,\"lqpn\":[813,816]}]\n"
            + "[{\"ifindex\":0,\"ifname\":\"mlx5_0\",\"port\":1,\"state\":\"ACTIVE\",\"physical_state\":\"LINK_UP\","
            + "\"netdev\":\"ens1f0np0\"}]\n"
            + "link mlx5_0/1 rx_write_requests 0 np_cnp_sent 0\n"
            + "[{\"rx_write_requests\":0}]");

        assertThat(sink.samples).isEmpty();
        assertThat(sink.rejections).extracting(Rejection::message).satisfiesExactly(
            m -> assertThat(m).contains("QP counter of 'rdma statistic qp show -j' (cntn 4)", "read 'rdma statistic show -j'"),
            m -> assertThat(m).isEqualTo("'rdma link -j' output (\"state\": a port's state, no counters): read 'rdma statistic show -j'"),
            m -> assertThat(m).startsWith("not JSON: 'link mlx5_0/1"),
            m -> assertThat(m).contains("expected \"ifname\" (the RDMA device) and a numbered \"port\", found keys rx_write_requests"));
    }

    @Test
    void shouldRejectEveryPortWithoutADevice() throws IOException {
        final CollectingSink sink = new CollectingSink();
        adapter().parse(new ByteArrayInputStream(Files.readAllBytes(MLX5)),
            ParseContext.defaults(CLOCK).withDefaultTimestamp(1_700_000_000_000L).withoutTimeWindow(), sink);

        assertThat(sink.samples).isEmpty();
        assertThat(sink.rejections).extracting(Rejection::reason).containsExactly(RejectReason.MISSING_DEVICE);
    }
}
