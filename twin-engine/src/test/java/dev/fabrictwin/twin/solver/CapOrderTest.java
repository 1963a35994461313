package dev.fabrictwin.twin.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class CapOrderTest {

    private static final double INF = Double.POSITIVE_INFINITY;

    private static int[] order(final CapOrder caps) {
        return Arrays.copyOf(caps.order(), caps.size());
    }

    @Test
    void shouldListTheLiveCappedFlowsAscendingByCap() {
        final CapOrder caps = new CapOrder();
        caps.growFlows(5);

        caps.refresh(new boolean[] {true, true, false, true, true}, 5, new double[] {5e9, INF, 1e9, 2e9, 0});

        assertThat(order(caps)).containsExactly(4, 3, 0);
    }

    @Test
    void shouldKeepItsOrderUntilInvalidated() {
        final CapOrder caps = new CapOrder();
        caps.growFlows(2);
        final double[] demand = {2e9, 1e9};
        caps.refresh(new boolean[] {true, true}, 2, demand);

        demand[0] = 0.5e9;
        caps.refresh(new boolean[] {true, true}, 2, demand);
        assertThat(order(caps)).as("not invalidated").containsExactly(1, 0);

        caps.invalidate();
        caps.refresh(new boolean[] {true, true}, 2, demand);
        assertThat(order(caps)).containsExactly(0, 1);
    }
}
