package dev.fabrictwin.contract.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.telemetry.Sample;

/** The codec's share of the one rule for keys: a repeated key keeps its first value; names are bounded. */
class SampleJsonKeysTest {

    private static byte[] bytes(final String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aRepeatedKeyKeepsItsFirstValueAndIsReportedOnBothPaths() throws SampleFormatException {
        final byte[] json = bytes("{\"ts\":1735689600000,\"device\":\"leaf-1\",\"port\":\"eth0\",\"device\":\"leaf-9\","
            + "\"counters\":{\"tx_bytes\":5,\"rx_bytes\":10,\"rx_bytes\":-20},\"gauges\":{\"oper_up\":1,\"oper_up\":\"x\"}}");
        final List<String> repeated = new ArrayList<>();

        final Sample s = SampleJson.read(json, 0, json.length, repeated::add);

        assertThat(s.device()).isEqualTo("leaf-1");
        assertThat(s.counters()).isEqualTo(Map.of("tx_bytes", 5L, "rx_bytes", 10L)); // the repeat is not even read
        assertThat(s.gauges()).isEqualTo(Map.of("oper_up", 1.0));
        assertThat(repeated).containsExactly("device", "rx_bytes", "oper_up");
        assertThat(CanonicalFastPath.tryParse(json, 0, json.length)).as("the fast path defers").isNull();
        assertThat(SampleJson.read(json)).as("a reader that does not ask gets the same sample").isEqualTo(s);
    }

    @Test
    void aNameLongerThanTheLimitIsNameTooLongWithItsFieldAndLength() throws SampleFormatException {
        final String limit = "n".repeat(SampleNames.MAX_LENGTH);
        assertThat(SampleJson.read(bytes(line("leaf-1", "eth0", limit))).counters()).containsOnlyKeys(limit);
        // 256 two-byte characters: longer than the limit in bytes only, so the fast path defers and Jackson accepts it
        final String wide = "ü".repeat(SampleNames.MAX_LENGTH);
        assertThat(SampleJson.read(bytes(line("leaf-1", wide, "rx_bytes"))).port()).isEqualTo(wide);

        assertRefused(line("leaf-1", "eth0", "c".repeat(100_000)), "counter name '" + "c".repeat(80)
            + "…' (100000 chars) is longer than the 256 characters allowed");
        assertRefused(line("leaf-1", "p".repeat(257), "rx_bytes"), "port '" + "p".repeat(80)
            + "…' (257 chars) is longer than the 256 characters allowed");
        assertRefused("{\"ts\":1735689600000,\"device\":\"d\",\"port\":\"p\",\"gauges\":{\"" + "g".repeat(300) + "\":1}}",
            "gauge name '" + "g".repeat(80) + "…' (300 chars) is longer than the 256 characters allowed");
        // beyond what the reader reads at all: still the name's reason, not the JSON library's limit
        assertRefused(line("x".repeat(2 << 20), "eth0", "rx_bytes"),
            "device of more than 1048576 characters is longer than the 256 characters allowed");
        assertRefused(line("leaf-1", "eth0", "x".repeat(2 << 20)),
            "counter name of more than 1048576 characters is longer than the 256 characters allowed");
    }

    private static String line(final String device, final String port, final String counter) {
        return "{\"ts\":1735689600000,\"device\":\"" + device + "\",\"port\":\"" + port + "\",\"counters\":{\"" + counter + "\":1}}";
    }

    private static void assertRefused(final String json, final String message) {
        assertThatThrownBy(() -> SampleJson.read(bytes(json))).isInstanceOfSatisfying(SampleFormatException.class, e -> {
            assertThat(e.reason()).isEqualTo(RejectReason.NAME_TOO_LONG);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }
}
