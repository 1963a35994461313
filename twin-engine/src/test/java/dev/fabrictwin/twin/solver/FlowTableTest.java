package dev.fabrictwin.twin.solver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FlowTableTest {

    @Test
    void shouldKeepEveryFlowsStateWhenItGrows() {
        final FlowTable flows = new FlowTable();
        flows.grow(1);
        flows.demand[0] = 3;
        flows.rate[0] = 2;
        flows.weight[0] = 4;
        flows.bottleneck[0] = 7;
        flows.alive[0] = true;

        flows.grow(8);

        assertThat(flows.size()).isEqualTo(8);
        assertThat(flows.demand[0]).isEqualTo(3);
        assertThat(flows.rate[0]).isEqualTo(2);
        assertThat(flows.weight[0]).isEqualTo(4);
        assertThat(flows.bottleneck[0]).isEqualTo(7);
        assertThat(flows.alive[0]).isTrue();
        assertThat(flows.alive[7]).isFalse();
        assertThat(flows.active[0]).isFalse();
    }
}
