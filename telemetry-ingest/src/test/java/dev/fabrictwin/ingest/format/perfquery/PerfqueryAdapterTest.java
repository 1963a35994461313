package dev.fabrictwin.ingest.format.perfquery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

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

class PerfqueryAdapterTest extends AdapterContract {

    private static final Path SWITCH = refdata("infiniband-perfquery/treydock/perfquery_0x506b4b03005c2740.out");
    /** {@code perfquery -E}: PortRcvErrorDetails blocks of one HCA's two ports. */
    private static final Path RCV_ERR_PORT1 = refdata("infiniband-perfquery/treydock/perfquery-rcv-error_0x7cfe9003009ce5b0-1.out");
    private static final Path RCV_ERR_PORT2 = refdata("infiniband-perfquery/treydock/perfquery-rcv-error_0x7cfe9003009ce5b0-2.out");

    @Override
    protected FormatAdapter adapter() {
        return new PerfqueryAdapter();
    }

    @Override
    protected List<Path> fixtures() {
        return List.of(SWITCH, refdata("infiniband-perfquery/treydock/perfquery_0x7cfe9003003b4b96.out"),
            refdata("infiniband-perfquery/treydock/perfquery_0x7cfe9003009ce5b0.out"), RCV_ERR_PORT1, RCV_ERR_PORT2,
            refdata("infiniband-perfquery/treydock/perfquery-rcv-error_0x7cfe9003003b4b96-1.out"));
    }

    @Test
    void shouldConvertFourByteWordsToBytesAndKeepIbSpecificCounters() throws IOException {
        final Sample s = parse(SWITCH).only("dut", "1");

        assertThat(s.counters()).containsEntry("tx_bytes", 178_791_657_177_235L * 4)
            .containsEntry("rx_bytes", 178_762_341_961_629L * 4)
            .containsEntry("tx_packets", 393_094_651_266L)
            .containsEntry("rx_packets", 387_654_829_341L)
            .containsEntry("tx_drops", 20_046L)
            .containsEntry("PortXmitWait", 41_864_608L)
            .containsEntry("link_flaps", 2L) // LinkDownedCounter 1 counts the down; the flap is a down and an up
            .doesNotContainKeys("PortSelect", "CounterSelect");
        assertThat(s.source()).isEqualTo("perfquery");
    }

    @Test
    void shouldReadEveryPortBlockOfAMultiPortDump() throws IOException {
        final CollectingSink sink = parse(refdata("infiniband-perfquery/treydock/perfquery_0x7cfe9003009ce5b0.out"));

        assertThat(sink.records).isEqualTo(sink.samples.size());
        assertThat(sink.samples).extracting(Sample::port).doesNotHaveDuplicates();
    }

    @Test
    void shouldNameTheDeviceByLidWhenNoDeviceIsGiven() throws IOException {
        final CollectingSink sink = new CollectingSink();
        adapter().parse(Files.newInputStream(SWITCH), context().withDevice(null), sink);

        assertThat(sink.samples).singleElement().satisfies(s -> assertThat(s.device()).isEqualTo("lid-2052"));
    }

    @Test
    void shouldRejectBadBlocksWithTheirReason() {
        final String input = String.join("\n",
            "# Port extended counters: Lid 7 port 1 (CapMask: 0x5300)", "PortXmitData:....-5",
            "# Port extended counters: Lid 7 port 2 (CapMask: 0x5300)", "PortXmitData:....lots",
            "# Port extended counters: Lid 7 port 3 (CapMask: 0x5300)", "this is not a counter line",
            "PortXmitData:....12");

        final CollectingSink sink = parse(input.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.records).isEqualTo(3);
        assertThat(sink.rejections).extracting(Rejection::reason).containsExactly(RejectReason.NEGATIVE_COUNTER,
            RejectReason.NON_NUMERIC, RejectReason.MALFORMED);
        assertThat(sink.rejections.get(1).location()).isEqualTo("line 3");
    }

    @Test
    void shouldReadPortRcvErrorDetailsBlocksWhoseHeaderNamesThePort() throws IOException {
        final CollectingSink sink = new CollectingSink();
        adapter().parse(Files.newInputStream(RCV_ERR_PORT2), context().withDevice(null), sink);

        assertThat(sink.rejections).isEmpty();
        final Sample s = sink.only("lid-1719", "2");
        assertThat(s.counters()).containsOnly(entry("PortLocalPhysicalErrors", 0L), entry("PortMalformedPktErrors", 0L),
            entry("PortBufferOverrunErrors", 0L), entry("PortDLIDMappingErrors", 0L), entry("PortVLMappingErrors", 0L),
            entry("PortLoopingErrors", 0L));
        assertThat(parse(RCV_ERR_PORT1).only("dut", "1").counters()).hasSize(6);
    }

    /** Found by fuzzing: a block of 3 MB was kept whole (memory grew with the input) and not rejected as oversized. */
    @Test
    void shouldRejectABlockLargerThanTheRecordLimitAndKeepOnlyItsFirstMegabyte() {
        final String input = "# Port extended counters: Lid 7 port 1 (CapMask: 0x5300)\n"
            + "PortXmitData:....12\n".repeat(150_000);

        final CollectingSink sink = parse(input.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.records).isEqualTo(1);
        assertThat(sink.rejections).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.OVERSIZED);
            assertThat(r.message()).isEqualTo("block of 3000057 bytes is larger than 1048576 bytes");
            assertThat(r.raw()).hasSize(ParseContext.DEFAULT_MAX_RECORD_BYTES);
        });
    }
}
