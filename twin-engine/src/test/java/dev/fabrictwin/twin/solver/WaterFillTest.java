package dev.fabrictwin.twin.solver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WaterFillTest {

    private static final double INF = Double.POSITIVE_INFINITY;

    @Test
    void shouldFreezeEachFlowAtTheLevelOfItsFirstSaturatingLinkOrItsCap() {
        // links of capacity 10: flows 0 and 1 share link 0; flows 1 and 2 share link 1; flow 2 is capped at 2
        final SolverParts s = SolverParts.of(new double[] {10, 10}, new double[] {INF, INF, 2},
            new int[] {0}, new int[] {0, 1}, new int[] {1});

        final double[] load = s.fillAll(2);

        assertThat(s.flows().rate).containsExactly(5, 5, 2);
        assertThat(s.flows().bottleneck).containsExactly(0, 0, -1);
        assertThat(s.flows().active).containsExactly(false, false, false);
        assertThat(load).containsExactly(10, 7);
    }

    @Test
    void shouldSettleAFlowOverNoLinkAtItsCapOrZero() {
        final SolverParts s = SolverParts.of(new double[] {10}, new double[] {3, INF}, new int[] {}, new int[] {});

        s.fillAll(0);

        assertThat(s.flows().rate).containsExactly(3, 0);
        assertThat(s.flows().active).containsExactly(false, false);
    }
}
