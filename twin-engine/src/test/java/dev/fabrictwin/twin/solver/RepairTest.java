package dev.fabrictwin.twin.solver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RepairTest {

    private static final double INF = Double.POSITIVE_INFINITY;

    @Test
    void shouldRepairTheRatesACapacityCutMovesAndOnlyThose() {
        // links of capacity 10: flows 0 and 1 share link 0, flows 1 and 2 link 1; flow 3 runs alone on link 2
        final SolverParts s = SolverParts.of(new double[] {10, 10, 10}, new double[] {INF, INF, INF, INF},
            new int[] {0}, new int[] {0, 1}, new int[] {1}, new int[] {2});
        final double[] load = s.fillAll();
        assertThat(s.flows().rate).containsExactly(5, 5, 5, 10);
        final ChangeSet dirty = new ChangeSet(3);
        final Repair repair = new Repair(3, s.flows(), s.paths(), s.adjacency(), s.fill(), dirty, new ChangeSet(4));
        repair.growFlows(4);

        final double[] cut = {10, 4, 10};
        dirty.mark(1);
        final int events = repair.run(cut, load, 3, 4);

        // link 1 now holds flows 1 and 2 at 2 each, and flow 0 takes what flow 1 left on link 0
        assertThat(events).isPositive();
        assertThat(s.flows().rate).containsExactly(8, 2, 2, 10);
        assertThat(load).containsExactly(10, 4, 10);
        assertThat(repair.resolvedFlows()).as("flow 3 was never re-solved").isEqualTo(3);
        assertThat(repair.maxRate(0)).isEqualTo(8);
    }

    @Test
    void shouldReSolveOnlyTheFlowsOfALinkWhoseCapacityRose() {
        final SolverParts s = SolverParts.of(new double[] {10, 10}, new double[] {INF, INF},
            new int[] {0}, new int[] {1});
        final double[] load = s.fillAll();
        final ChangeSet dirty = new ChangeSet(2);
        final Repair repair = new Repair(2, s.flows(), s.paths(), s.adjacency(), s.fill(), dirty, new ChangeSet(2));
        repair.growFlows(2);

        dirty.mark(1); // link 1 raised: its flow, held by it, rises; flow 0 on link 0 is not touched
        assertThat(repair.run(new double[] {10, 20}, load, 2, 2)).isPositive();
        assertThat(s.flows().rate).containsExactly(10, 20);
        assertThat(repair.resolvedFlows()).as("flow 0 stays").isEqualTo(1);
    }
}
