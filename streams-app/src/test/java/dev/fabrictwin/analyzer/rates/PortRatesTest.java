package dev.fabrictwin.analyzer.rates;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.telemetry.Sample;

class PortRatesTest {

    private static Sample sample(final long ts, final long txBytes, final long pauses, final double operUp) {
        return new Sample(ts, "leaf-1", "eth4", "t", Map.of("tx_bytes", txBytes, "rx_pfc_pause.3", pauses),
            Map.of("speed_bps", 400e9, "oper_up", operUp));
    }

    @Test
    void shouldTurnConsecutiveSamplesIntoIncreasesOverTheExactInterval() {
        final PortRates.Step step = PortRates.next(sample(1_000, 100, 5, 1), sample(2_013, 25_000_000_100L, 9, 1), 1_000);

        final PortInterval i = step.interval().orElseThrow();
        assertThat(i.t0()).isEqualTo(1_000);
        assertThat(i.t1()).isEqualTo(2_013);
        assertThat(i.increases()).containsEntry("tx_bytes", 25_000_000_000L).containsEntry("rx_pfc_pause.3", 4L);
        assertThat(i.rate("tx_bytes")).isEqualTo(25e9 / 1.013);
        assertThat(i.reset()).isFalse();
        assertThat(i.gap()).isFalse();
    }

    @Test
    void shouldMatchCountersByNameWhateverOrderEachSampleListsThem() {
        final Map<String, Long> before = new LinkedHashMap<>();
        before.put("tx_bytes", 100L);
        before.put("gone", 1L);
        before.put("rx_bytes", 200L);
        before.put("ecn_marked", 7L);
        final Map<String, Long> after = new LinkedHashMap<>();
        after.put("ecn_marked", 9L);
        after.put("rx_bytes", 260L);
        after.put("new_counter", 3L);
        after.put(new String("tx_bytes".toCharArray()), 150L); // equal, not the same instance

        final PortInterval i = PortRates.next(new Sample(1_000, "leaf-1", "eth4", "t", before, Map.of()),
            new Sample(2_000, "leaf-1", "eth4", "t", after, Map.of()), 1_000).interval().orElseThrow();

        assertThat(i.increases()).containsExactly(Map.entry("ecn_marked", 2L), Map.entry("rx_bytes", 60L),
            Map.entry("tx_bytes", 50L));
    }

    @Test
    void shouldTakeAByteIncreaseFromTheRateGaugeAtTheIntervalsEndWhereNoCounterGivesOneAndMarkItEstimated() {
        final Sample before = new Sample(1_000, "leaf-1", "eth4", "t", Map.of(), Map.of("tx_bps", 8e9, "oper_up", 1.0));
        final Sample after = new Sample(3_000, "leaf-1", "eth4", "t", Map.of("tx_bytes", 700L),
            Map.of("tx_bps", 80e9, "rx_bps", 40e9, "oper_up", 1.0));

        final PortInterval i = PortRates.next(before, after, 1_000).interval().orElseThrow();

        assertThat(i.increases()).containsEntry("tx_bytes", 20_000_000_000L).containsEntry("rx_bytes", 10_000_000_000L);
        assertThat(i.estimated()).isTrue();
        assertThat(i.reset()).isFalse();
        assertThat(i.gap()).isFalse();
    }

    @Test
    void shouldPreferTheByteCounterToTheRate() {
        final Map<String, Double> rates = Map.of("tx_bps", 80e9, "rx_bps", 40e9);
        final PortInterval i = PortRates.next(new Sample(1_000, "leaf-1", "eth4", "t",
                Map.of("tx_bytes", 100L, "rx_bytes", 10L), rates),
            new Sample(2_000, "leaf-1", "eth4", "t", Map.of("tx_bytes", 600L, "rx_bytes", 20L), rates), 1_000)
            .interval().orElseThrow();

        assertThat(i.increases()).containsEntry("tx_bytes", 500L).containsEntry("rx_bytes", 10L);
        assertThat(i.estimated()).isFalse();
    }

    @Test
    void shouldIgnoreLateAndDuplicateSamples() {
        final PortRates.Step late = PortRates.next(sample(2_000, 200, 5, 1), sample(1_500, 150, 5, 1), 1_000);
        final PortRates.Step duplicate = PortRates.next(sample(2_000, 200, 5, 1), sample(2_000, 200, 5, 1), 1_000);

        assertThat(late.late()).isTrue();
        assertThat(late.interval()).isEmpty();
        assertThat(duplicate.late()).isTrue();
    }

    @Test
    void shouldMarkARebootAsResetNotAsASpike() {
        final PortInterval i = PortRates.next(sample(1_000, 9_000_000_000_000L, 500, 1), sample(2_000, 1_000, 0, 1), 1_000)
            .interval().orElseThrow();

        assertThat(i.reset()).isTrue();
        assertThat(i.increases().get("tx_bytes")).isEqualTo(1_000L);
    }

    @Test
    void shouldResolveA32BitWrapAndMarkGapsOverLostSamples() {
        final PortInterval wrapped = PortRates.next(sample(1_000, 0xFFFF_0000L, 0, 1), sample(2_000, 0x0001_0000L, 0, 1), 1_000)
            .interval().orElseThrow();
        final PortInterval gap = PortRates.next(sample(1_000, 0, 0, 1), sample(6_000, 10, 0, 1), 1_000).interval().orElseThrow();

        assertThat(wrapped.increases()).containsEntry("tx_bytes", 0x2_0000L);
        assertThat(wrapped.wraps()).isEqualTo(1);
        assertThat(wrapped.reset()).isFalse();
        assertThat(gap.gap()).isTrue();
    }
}
