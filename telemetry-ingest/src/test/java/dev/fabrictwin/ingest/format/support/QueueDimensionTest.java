package dev.fabrictwin.ingest.format.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class QueueDimensionTest {

    @Test
    void shouldNameQueuesAfterTheNameAndFoldThoseBeyondTheBound() {
        assertThat(QueueDimension.name("rx_bytes", "3")).isEqualTo("rx_bytes.q3");
        assertThat(QueueDimension.name("rx_bytes", "007")).isEqualTo("rx_bytes.q7");
        assertThat(QueueDimension.name("rx_bytes", "15")).isEqualTo("rx_bytes.q15");
        assertThat(QueueDimension.name("rx_bytes", "16")).isEqualTo("rx_bytes.qrest");
        assertThat(QueueDimension.name("rx_bytes", "123456789")).isEqualTo("rx_bytes.qrest");
        assertThat(QueueDimension.name("tx_bytes", "BE 1")).isEqualTo("tx_bytes.qbe_1");
        assertThat(QueueDimension.name("tx_bytes", "\"2\"")).isEqualTo("tx_bytes.q2");
        assertThat(QueueDimension.bound("tx_packets.q40")).isEqualTo("tx_packets.qrest");
        assertThat(QueueDimension.bound("tx_packets.q4")).isEqualTo("tx_packets.q4");
        assertThat(QueueDimension.bound("rx_pfc_pause.3")).isEqualTo("rx_pfc_pause.3");
        assertThat(QueueDimension.base("buffer_watermark_bytes.q6")).isEqualTo("buffer_watermark_bytes");
        assertThat(QueueDimension.isPerQueue("rx_pfc_pause.3")).isFalse();
        assertThat(QueueDimension.isFolded("rx_bytes.qrest")).isTrue();
    }

    @Test
    void shouldSumPortTotalsOnlyForCanonicalCountersTheUnitLacks() {
        final Map<String, Long> in = new LinkedHashMap<>();
        in.put("rx_bytes.q0", 10L);
        in.put("rx_bytes.q1", 5L);
        in.put("rx_bytes.qrest", 1L);
        in.put("tx_bytes", 99L);
        in.put("tx_bytes.q0", 7L);
        in.put("csum_err.q0", 3L);
        in.put("rx_bytes.q2", -1L); // 2^64-1: the sum wraps like a 64-bit counter

        assertThat(QueueDimension.withTotals(in)).containsEntry("rx_bytes", 15L).containsEntry("tx_bytes", 99L)
            .doesNotContainKey("csum_err").hasSize(in.size() + 1);
        assertThat(QueueDimension.withGaugeTotals(Map.of("queue_depth_bytes.q0", 2.0, "queue_depth_bytes.q1", 3.0,
            "buffer_watermark_bytes.q0", 7.0, "buffer_watermark_bytes.q5", 9.0)))
            .containsEntry("queue_depth_bytes", 5.0).containsEntry("buffer_watermark_bytes", 9.0);
        assertThat(QueueDimension.withTotals(Map.of("rx_bytes", 1L))).containsOnly(entry("rx_bytes", 1L));
    }

    @Test
    void shouldTellInstantValuesFromCountersByName() {
        assertThat(InstantValues.isInstant("egress/peak_buffer_occupancy_bytes")).isTrue();
        assertThat(InstantValues.isInstant("SAI_QUEUE_STAT_CURR_OCCUPANCY_LEVEL")).isTrue();
        assertThat(InstantValues.isInstant("max-queue-len")).isTrue();
        assertThat(InstantValues.isInstant("rx_buffer_watermark")).isTrue();
        assertThat(InstantValues.isInstant("rx_threshold_hit")).isFalse();
        assertThat(InstantValues.isInstant("tx_pause_storm_warning_events")).isFalse();
        assertThat(InstantValues.isInstant("mbuf_lwm_thresh_hit")).isFalse();
        assertThat(InstantValues.isInstant("rx_bytes")).isFalse();
        assertThat(InstantValues.isGaugeName("buffer_watermark_bytes.q3")).isTrue();
        assertThat(InstantValues.isGaugeName("rx_bytes.q3")).isFalse();

        final InstantValues.Split split = InstantValues.split(Map.of("rx_bytes", 5L, "peak_depth", 7L, "queue_depth_bytes", -1L));
        assertThat(split.counters()).containsOnly(entry("rx_bytes", 5L));
        assertThat(split.gauges()).containsOnly(entry("peak_depth", 7.0), entry("queue_depth_bytes", 18446744073709551615.0));
    }

    @Test
    void shouldRemoveQuotesAndBackslashesAroundListKeys() {
        assertThat(ListKeys.unquote("\"1\"")).isEqualTo("1");
        assertThat(ListKeys.unquote("\\\"1\\")).isEqualTo("1");
        assertThat(ListKeys.unquote(" 'et-0/0/0' ")).isEqualTo("et-0/0/0");
        assertThat(ListKeys.unquote("Ethernet1")).isEqualTo("Ethernet1");
        assertThat(ListKeys.unquote("\"\"")).isEmpty();
    }
}
