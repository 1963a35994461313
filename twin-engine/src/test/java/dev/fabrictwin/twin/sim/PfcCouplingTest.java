package dev.fabrictwin.twin.sim;

import static dev.fabrictwin.twin.sim.SimParts.nic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class PfcCouplingTest {

    @Test
    void shouldOverloadOnlyTheLinkWhereElephantsCollideNotTheLinksBehindIt() {
        final SimParts parts = twoOntoOne();
        final double line = 100e9 / parts.wire; // each NIC offers its line rate of payload

        final double[] offered = parts.pfc.offeredLoad();

        assertThat(offered[parts.fabric.txLink(nic(0))]).isCloseTo(line, within(1.0));
        assertThat(offered[parts.link("leaf-0", "spine-0")]).isCloseTo(2 * line, within(1.0));
        assertThat(offered[parts.link("spine-0", "leaf-1")]).isCloseTo(line, within(1.0));
        assertThat(offered[parts.fabric.rxLink(nic(2))]).isCloseTo(line, within(1.0));
    }

    @Test
    void shouldPauseTheLinksFeedingAnOverloadedEgressOnly() {
        final SimParts parts = twoOntoOne();
        withoutEcn(parts);
        final double[] offered = parts.pfc.offeredLoad();

        assertThat(parts.pfc.updatePauses(offered)).isTrue();

        // leaf-0's uplink is offered twice its capacity and no ECN holds it: paused half the time, its feeders too
        assertThat(parts.pfc.pausedFraction(parts.fabric.txLink(nic(0)))).isCloseTo(0.5, within(1e-9));
        assertThat(parts.pfc.pausedFraction(parts.fabric.txLink(nic(1)))).isCloseTo(0.5, within(1e-9));
        assertThat(parts.pfc.pausedFraction(parts.link("leaf-0", "spine-0"))).isZero();
        assertThat(parts.pfc.updatePauses(offered)).isFalse(); // nothing new to pause
    }

    @Test
    void shouldPauseEachIngressPortBeyondItsShareWithoutCongestionControl() {
        final SimParts parts = new SimParts(1);
        withoutEcn(parts);
        parts.pfc.withoutCongestionControl(true);
        parts.flow(0, 2, 1e9);
        parts.flow(0, 3, 1e9); // host-0's NIC shares its line rate between two flows
        parts.flow(1, 2, 1e9);
        parts.table.flatten(parts.flows);
        parts.pfc.pushNicShares();
        parts.allocator.resolve();

        parts.pfc.updatePauses(parts.pfc.offeredLoad());

        // both ingress ports offer the uplink a line rate: each gets half of it and is paused half the time
        assertThat(parts.pfc.pausedFraction(parts.fabric.txLink(nic(0)))).isCloseTo(0.5, within(1e-9));
        assertThat(parts.pfc.pausedFraction(parts.fabric.txLink(nic(1)))).isCloseTo(0.5, within(1e-9));
        assertThat(parts.flows.get(0).demand()).isCloseTo(100e9 / parts.wire / 2, within(1.0));
    }

    @Test
    void shouldPushPausedCapacitiesToTheSolverInPayload() {
        final SimParts parts = twoOntoOne();
        parts.pfc.updatePauses(parts.pfc.offeredLoad());
        final int feeder = parts.fabric.txLink(nic(0));

        parts.pfc.pushCapacities();

        assertThat(parts.allocator.capacity(feeder))
            .isCloseTo(100e9 / parts.wire * (1 - parts.pfc.pausedFraction(feeder)), within(1e-3));
    }

    private static void withoutEcn(final SimParts parts) {
        parts.conditions.ecnByDefault = false;
        parts.conditions.reset();
    }

    /** host-0 and host-1 (leaf-0) both send to host-2 (leaf-1) over leaf-0's one uplink, solved. */
    private static SimParts twoOntoOne() {
        final SimParts parts = new SimParts(1);
        parts.flow(0, 2, 1e9);
        parts.flow(1, 2, 1e9);
        parts.table.flatten(parts.flows);
        parts.allocator.resolve();
        return parts;
    }
}
