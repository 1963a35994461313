package dev.fabrictwin.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.contract.sample.RejectReason;


class CanonicalAdapterTest extends AdapterContract {

    private static final Path fixture = Path.of("src/test/resources/canonical/samples.jsonl");

    @Override
    protected FormatAdapter adapter() {
        return new CanonicalAdapter();
    }

    @Override
    protected List<Path> fixtures() {
        return List.of(fixture);
    }

    @Test
    void shouldReadCanonicalLinesWithUnsigned64BitCounters() throws IOException {
        final CollectingSink sink = parse(fixture);

        assertThat(sink.only("leaf-2", "eth5").counters()).containsEntry("tx_bytes", 123L).containsEntry("rx_pfc_pause.3", 7L);
        assertThat(sink.only("leaf-2", "eth5").gauges()).containsEntry("oper_up", 1.0);
        assertThat(Long.toUnsignedString(sink.only("host-0", "nic0").counter("tx_bytes", 0))).isEqualTo("18446744073709551615");
    }

    @Test
    void shouldRejectEachBadLineWithItsReasonAndKeepGoing() {
        final String input = String.join("\n",
            "{\"ts\":1735689601000,\"device\":\"a\",\"port\":\"p\",\"counters\":{\"tx_bytes\":-5}}",
            "{\"ts\":1735689601000,\"device\":\"a\",\"port\":\"p\",\"counters\":{\"tx_bytes\":\"lots\"}}",
            "{\"ts\":1735689601000,\"port\":\"p\",\"counters\":{\"tx_bytes\":1}}",
            "{\"ts\":1735689601000,\"device\":\"a\",\"port\":\"p\",\"gauges\":{\"latency_p99_us\":\"NaN\"}}",
            "not json at all",
            "{\"ts\":1735689601000,\"device\":\"a\",\"port\":\"p\",\"counters\":{\"tx_bytes\":1}}");

        final CollectingSink sink = parse(input.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.records).isEqualTo(6);
        assertThat(sink.samples).hasSize(1);
        assertThat(sink.rejections).extracting(Rejection::reason).containsExactly(RejectReason.NEGATIVE_COUNTER,
            RejectReason.NON_NUMERIC, RejectReason.MISSING_DEVICE, RejectReason.NOT_FINITE, RejectReason.MALFORMED);
        assertThat(sink.rejections.get(0).location()).isEqualTo("line 1");
        assertThat(new String(sink.rejections.get(4).raw(), StandardCharsets.UTF_8)).isEqualTo("not json at all");
    }

    @Test
    void shouldRejectACanonicalGaugeBelowZeroButKeepTheSignOfOthers() {
        final String input = String.join("\n",
            "{\"ts\":1735689601000,\"device\":\"a\",\"port\":\"p\",\"gauges\":{\"queue_depth_bytes.q3\":-1}}",
            "{\"ts\":1735689601000,\"device\":\"a\",\"port\":\"p\",\"gauges\":{\"latency_p99_us\":-2.5}}",
            "{\"ts\":1735689601000,\"device\":\"a\",\"port\":\"p\",\"gauges\":{\"rx_power_dbm\":-3.2,\"oper_up\":1}}");

        final CollectingSink sink = parse(input.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.rejections).extracting(Rejection::reason).containsExactly(RejectReason.NEGATIVE_GAUGE,
            RejectReason.NEGATIVE_GAUGE);
        assertThat(sink.rejections.get(0).message()).isEqualTo(
            "gauge queue_depth_bytes.q3 of a/p is -1.0: it cannot be below zero");
        assertThat(sink.samples).singleElement().satisfies(x -> assertThat(x.gauges()).containsEntry("rx_power_dbm", -3.2));
    }

    @Test
    void shouldRejectTimestampsFarFromNowAndOversizedLines() {
        final ParseContext strict = ParseContext.defaults(CLOCK);
        final CollectingSink sink = new CollectingSink();
        final String far = "{\"ts\":4102444800000,\"device\":\"a\",\"port\":\"p\",\"counters\":{\"tx_bytes\":1}}\n"
            + "{\"ts\":1,\"device\":\"a\",\"port\":\"p\",\"counters\":{\"tx_bytes\":1}}\n"
            + "{\"ts\":1735689601000,\"device\":\"" + "x".repeat(2_000_000) + "\"}\n";
        try {
            adapter().parse(new ByteArrayInputStream(far.getBytes(StandardCharsets.UTF_8)), strict, sink);
        } catch (IOException e) {
            throw new AssertionError(e);
        }

        assertThat(sink.rejections).extracting(Rejection::reason).containsExactly(RejectReason.TIMESTAMP_OUT_OF_RANGE,
            RejectReason.TIMESTAMP_OUT_OF_RANGE, RejectReason.OVERSIZED);
        assertThat(sink.rejections.get(2).raw()).hasSize(ParseContext.DEFAULT_MAX_RECORD_BYTES);
    }
}
