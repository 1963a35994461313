package dev.fabrictwin.analyzer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.rates.PortInterval;

class PortIntervalSerdeTest {

    @Test
    void shouldCarryTheGapAndTheEstimatedMarksApart() {
        final List<PortInterval> intervals = List.of(
            new PortInterval("leaf-1", "eth4", 1_000, 2_000, Map.of("tx_bytes", 5L, "link_flaps", 2L),
                Map.of("tx_bps", 40.0), false, 0, false, true),
            new PortInterval("leaf-1", "eth4", 2_000, 9_000, Map.of("tx_bytes", 7L), Map.of(), true, 1, true, false));

        final List<PortInterval> back = PortIntervalSerde.readList(PortIntervalSerde.writeList(intervals));

        assertThat(back).isEqualTo(intervals);
        assertThat(back.get(0).estimated()).isTrue();
        assertThat(back.get(0).gap()).isFalse();
        assertThat(back.get(1).estimated()).isFalse();
        assertThat(back.get(1).gap()).isTrue();
    }
}
