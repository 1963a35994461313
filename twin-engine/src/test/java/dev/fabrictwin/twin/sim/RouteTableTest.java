package dev.fabrictwin.twin.sim;

import static dev.fabrictwin.twin.sim.SimParts.nic;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.sim.FluidSimulation.Pin;

class RouteTableTest {

    @Test
    void shouldFlattenEveryFlowsRouteInOrderWithItsNicAndAllocatorId() {
        final SimParts parts = new SimParts(1);
        final SimFlow a = parts.flow(0, 2, 1e9);
        final SimFlow b = parts.flow(3, 1, 1e9);
        final RouteTable t = parts.table;

        t.flatten(parts.flows);

        assertThat(t.routeCount).isEqualTo(2);
        assertThat(t.longestRoute).isEqualTo(4); // NIC, leaf up, spine down, leaf to NIC
        assertThat(Arrays.copyOfRange(t.hops, 0, t.routeEnd[1]))
            .containsExactly(concat(a.routes[0].links(), b.routes[0].links()));
        assertThat(t.routeEnd[0]).isEqualTo(4);
        assertThat(t.routeFlow[0]).isSameAs(a);
        assertThat(t.routeFlow[1]).isSameAs(b);
        assertThat(t.routeId[1]).isEqualTo(b.ids[0]);
        assertThat(t.routeNic[0]).isEqualTo(parts.fabric.txLink(nic(0)));
        assertThat(t.routeFirst[1]).isTrue();
        assertThat(t.anyLockStep).isFalse();
    }

    @Test
    void shouldDropTheRoutesOfReleasedFlowsKeepingTheOthersInOrder() {
        final SimParts parts = new SimParts(1);
        final SimFlow a = parts.flow(0, 2, 1e9);
        final SimFlow b = parts.flow(3, 1, 1e9);
        final SimFlow c = parts.flow(1, 3, 1e9);
        parts.table.flatten(parts.flows);

        a.release(parts.allocator);
        parts.table.flatten(parts.flows);

        final RouteTable t = parts.table;
        assertThat(t.routeCount).isEqualTo(2);
        assertThat(t.routeFlow[0]).isSameAs(b);
        assertThat(t.routeFlow[1]).isSameAs(c);
        assertThat(t.routeFlow[2]).isNull();
        assertThat(Arrays.copyOfRange(t.hops, 0, t.routeEnd[1]))
            .containsExactly(concat(b.routes[0].links(), c.routes[0].links()));
    }

    @Test
    void shouldMoveARunningFlowOntoItsPinnedUplinkAndSayWhetherAPinChanged() {
        final SimParts parts = new SimParts(2);
        final SimFlow f = parts.flow(0, 2, 1e9);
        final int leaf = parts.fabric.requireNode("leaf-0").index();
        final int taken = f.routes[0].links()[1];
        final int other = taken == parts.link("leaf-0", "spine-0") ? parts.link("leaf-0", "spine-1")
            : parts.link("leaf-0", "spine-0");
        final List<Pin> pins = List.of(new Pin(nic(0), nic(2), leaf, other / 2));

        assertThat(parts.table.applyPins(pins, parts.flows)).isTrue();
        assertThat(f.routes[0].links()[1]).isEqualTo(other);
        assertThat(parts.table.applyPins(pins, parts.flows)).isFalse(); // already pinned there
    }

    @Test
    void shouldKeepPinsForTheEventTheyWaitFor() {
        final SimParts parts = new SimParts(2);
        final Pin pin = new Pin(nic(0), nic(2), 0, -1);
        parts.table.pinAt(7, List.of(pin));

        assertThat(parts.table.pendingAt(7)).containsExactly(pin);
        assertThat(parts.table.pendingAt(7)).isNull();
    }

    private static int[] concat(final int[] a, final int[] b) {
        final int[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
