package dev.fabrictwin.twin.solver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WaterFillTest {

    /** Flows over the given paths, each of weight 1 and with the given per-member demand cap. */
    private record Setup(FlowTable flows, FlowPaths paths, LinkFlows adjacency, WaterFill fill) {

        static Setup of(final int links, final double[] caps, final int[]... pathOf) {
            final FlowTable flows = new FlowTable();
            final FlowPaths paths = new FlowPaths();
            flows.grow(pathOf.length);
            paths.growFlows(pathOf.length);
            final int[] degree = new int[links];
            for (int f = 0; f < pathOf.length; f++) {
                flows.alive[f] = true;
                flows.active[f] = true;
                flows.weight[f] = 1;
                flows.demand[f] = caps[f];
                paths.add(f, pathOf[f], flows.alive, f + 1);
                for (final int l : pathOf[f]) {
                    degree[l]++;
                }
            }
            final LinkFlows adjacency = new LinkFlows(links);
            adjacency.rebuild(links, degree, flows.alive, pathOf.length, paths);
            final WaterFill fill = new WaterFill(links, flows, adjacency, paths);
            for (int l = 0; l < links; l++) {
                fill.set(l, 0, degree[l]);
                if (degree[l] > 0) {
                    fill.schedule(l, 10.0 / degree[l]);
                }
            }
            return new Setup(flows, paths, adjacency, fill);
        }
    }

    @Test
    void shouldFreezeEachFlowAtTheLevelOfItsFirstSaturatingLinkOrItsCap() {
        // links of capacity 10: flows 0 and 1 share link 0; flow 1 and 2 share link 1; flow 2 is capped at 2
        final double inf = Double.POSITIVE_INFINITY;
        final Setup s = Setup.of(2, new double[] {inf, inf, 2}, new int[] {0}, new int[] {0, 1}, new int[] {1});

        final int events = s.fill().drain(new int[] {2}, 1, new double[] {10, 10});

        assertThat(s.flows().rate).containsExactly(5, 5, 2);
        assertThat(s.flows().bottleneck).containsExactly(0, 0, -1);
        assertThat(s.flows().active).containsExactly(false, false, false);
        assertThat(s.fill().fixed(0)).isEqualTo(10);
        assertThat(s.fill().fixed(1)).isEqualTo(7);
        assertThat(events).as("the cap, then link 0").isEqualTo(2);
    }
}
