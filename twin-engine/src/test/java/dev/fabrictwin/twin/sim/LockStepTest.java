package dev.fabrictwin.twin.sim;

import static dev.fabrictwin.twin.TwinFixtures.scenario;
import static dev.fabrictwin.twin.sim.SimParts.nic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.routing.Router;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.workload.Placement;

class LockStepTest {

    private final SimParts parts = new SimParts(1);
    private final JobClock clock = new JobClock(new EventQueue(), 1);
    private final LockStep lockStep = new LockStep(parts.flows, parts.allocator, parts.table, clock);

    @Test
    void shouldHoldEveryFlowOfALockStepJobToItsSlowest() {
        final Scenario s = scenario("""
            name: ring
            fabric: {kind: spine-leaf, spines: 1, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
            jobs:
              - {id: ring, hosts: 4, pattern: ring-allreduce, bytesPerIteration: 1GB, iterationPeriod: 1s}
            """);
        final JobState ring = clock.register(Placement.place(parts.fabric, s.jobs(), 1).get(0));
        final SimFlow a = lockStepFlow(ring, 0, 2);
        final SimFlow b = lockStepFlow(ring, 1, 2); // a and b share host-2's NIC: half a line each
        final SimFlow alone = lockStepFlow(ring, 3, 1);
        parts.table.flatten(parts.flows);

        lockStep.solve();

        final double half = 100e9 / parts.wire / 2;
        assertThat(a.rate(parts.allocator)).isCloseTo(half, within(1.0));
        assertThat(b.rate(parts.allocator)).isCloseTo(half, within(1.0));
        assertThat(alone.rate(parts.allocator)).isCloseTo(half, within(1.0)); // could run at a full line
        assertThat(alone.capped).isTrue();
        assertThat(ring.minRate).isCloseTo(half, within(1.0));
    }

    private SimFlow lockStepFlow(final JobState job, final int from, final int to) {
        final SimFlow f = new SimFlow(job, nic(from), nic(to), 1e9, Double.POSITIVE_INFINITY, -1,
            Router.flowKey(nic(from), nic(to), 0), true, parts.fabric.txLink(nic(from)));
        parts.table.route(f);
        parts.flows.add(f);
        return f;
    }
}
