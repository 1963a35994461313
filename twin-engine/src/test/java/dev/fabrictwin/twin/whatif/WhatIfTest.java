package dev.fabrictwin.twin.whatif;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.TwinFixtures;
import dev.fabrictwin.twin.scenario.ScenarioParser;

class WhatIfTest {

    @Test
    void shouldPredictABandwidthBoundRingCommunicatesFourTimesFasterOn400GThan100G() {
        final var file = TwinFixtures.shipped("whatif-1k-ring.yaml");
        final List<WhatIf.Row> rows = WhatIf.run(ScenarioParser.tree(file), file.getParent(), "hostLinkSpeed",
            List.of("100G", "400G"));

        assertThat(rows).hasSize(2);
        final WhatIf.Row slow = rows.get(0);
        final WhatIf.Row fast = rows.get(1);
        assertThat(slow.setting()).isEqualTo("hostLinkSpeed=100G");
        // 1,024 ranks each send 2(N-1)/N * 8 GB = 15.98 GB: 1,278.75 ms at 100 Gb/s, a quarter at 400 Gb/s
        assertThat(slow.commTimeMs()).isCloseTo(2.0 * 1023 / 1024 * 8e9 * 8 / 100e9 * 1e3, within(1e-6));
        assertThat(slow.commTimeMs() / fast.commTimeMs()).isCloseTo(4.0, within(1e-9));
        // compute stays 1.3 s: step = 1.3 s + comm, utilization = compute / step
        assertThat(fast.stepTimeMs()).isCloseTo(1300 + fast.commTimeMs(), within(1e-9));
        assertThat(fast.gpuUtilization()).isCloseTo(1300 / fast.stepTimeMs(), within(1e-12));
        assertThat(fast.gpuUtilization()).isGreaterThan(slow.gpuUtilization());
    }

    @Test
    void shouldRefuseASettingItCannotVary() {
        final var file = TwinFixtures.shipped("whatif-1k-ring.yaml");
        org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                WhatIf.run(ScenarioParser.tree(file), file.getParent(), "colour", List.of("red")))
            .hasMessageStartingWith("cannot vary 'colour'");
    }
}
