package dev.fabrictwin.twin.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class LinkFlowsTest {

    private static int[] flowsOn(final LinkFlows adjacency, final int link) {
        return Arrays.copyOfRange(adjacency.flows, adjacency.start[link], adjacency.start[link + 1]);
    }

    @Test
    void shouldListTheLiveFlowsOfEachLinkInAscendingIdWithTheirPathOffsets() {
        final FlowPaths paths = new FlowPaths();
        paths.growFlows(3);
        final boolean[] alive = {true, false, true};
        paths.add(0, new int[] {2, 0}, alive, 1);
        paths.add(1, new int[] {0, 1}, alive, 2);
        paths.add(2, new int[] {0, 2}, alive, 3);
        final int[] degree = {2, 0, 2}; // flow 1 is gone
        final LinkFlows adjacency = new LinkFlows(3);

        adjacency.rebuild(3, degree, alive, 3, paths);

        assertThat(flowsOn(adjacency, 0)).containsExactly(0, 2);
        assertThat(flowsOn(adjacency, 1)).isEmpty();
        assertThat(flowsOn(adjacency, 2)).containsExactly(0, 2);
        assertThat(adjacency.total(3)).isEqualTo(4);
        assertThat(adjacency.pathAt[adjacency.start[2] + 1]).isEqualTo(paths.at[2]);
    }

    @Test
    void shouldRebuildOnlyWhenInvalidated() {
        final FlowPaths paths = new FlowPaths();
        paths.growFlows(2);
        final boolean[] alive = {true, false};
        paths.add(0, new int[] {0}, alive, 1);
        final LinkFlows adjacency = new LinkFlows(1);
        adjacency.rebuild(1, new int[] {1}, alive, 1, paths);

        alive[1] = true;
        paths.add(1, new int[] {0}, alive, 2);
        adjacency.rebuild(1, new int[] {2}, alive, 2, paths);
        assertThat(flowsOn(adjacency, 0)).as("not invalidated: as it was").containsExactly(0);

        adjacency.invalidate();
        adjacency.rebuild(1, new int[] {2}, alive, 2, paths);
        assertThat(flowsOn(adjacency, 0)).containsExactly(0, 1);
    }

    @Test
    void shouldStartAnAppendedLinkEmpty() {
        final FlowPaths paths = new FlowPaths();
        paths.growFlows(1);
        final boolean[] alive = {true};
        paths.add(0, new int[] {0}, alive, 1);
        final LinkFlows adjacency = new LinkFlows(1);
        adjacency.rebuild(1, new int[] {1}, alive, 1, paths);

        adjacency.growLinks(2);
        adjacency.added(1);

        assertThat(flowsOn(adjacency, 1)).isEmpty();
        adjacency.rebuild(2, new int[] {1, 0}, alive, 1, paths);
        assertThat(flowsOn(adjacency, 0)).containsExactly(0);
        assertThat(adjacency.total(2)).isEqualTo(1);
    }
}
