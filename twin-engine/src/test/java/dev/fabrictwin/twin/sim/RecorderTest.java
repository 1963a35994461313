package dev.fabrictwin.twin.sim;

import static dev.fabrictwin.twin.sim.SimParts.nic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.model.LinkState;

class RecorderTest {

    private final SimParts parts = new SimParts(1);

    @Test
    void shouldRecordWhatTheWireCarriesOnEveryLinkOfAFlow() {
        final SimFlow f = parts.flow(0, 2, 1e9);
        solve();

        parts.recorder.record(parts.pfc.offeredLoad(), 0.5);

        for (final int d : f.routes[0].links()) {
            final LinkState s = parts.timeline.at(d, 0.5);
            assertThat(s.start()).isEqualTo(0.5);
            assertThat(s.rateBps()).isCloseTo(100e9, within(1.0)); // the payload with its headers: the line rate
            assertThat(s.flows()).isEqualTo(1);
            assertThat(s.up()).isTrue();
        }
        final LinkState idle = parts.timeline.at(parts.fabric.txLink(nic(1)), 0.5);
        assertThat(idle.rateBps()).isZero();
        assertThat(idle.flows()).isZero();
    }

    @Test
    void shouldTakeACoarselyCompletedFlowOffItsLinksAtOnce() {
        final SimFlow f = parts.flow(0, 2, 1e9);
        solve();
        parts.recorder.record(parts.pfc.offeredLoad(), 0);

        parts.recorder.lessFlow(f, 0.3);

        final LinkState s = parts.timeline.at(parts.fabric.txLink(nic(0)), 0.3);
        assertThat(s.start()).isEqualTo(0.3);
        assertThat(s.rateBps()).isCloseTo(0, within(1e-3));
        assertThat(s.flows()).isZero();
    }

    @Test
    void shouldKeepNoStateOnceStopped() {
        parts.flow(0, 2, 1e9);
        solve();

        parts.recorder.stop();
        parts.recorder.record(parts.pfc.offeredLoad(), 0);

        assertThat(parts.timeline.stateCount()).isZero();
    }

    private void solve() {
        parts.table.flatten(parts.flows);
        parts.allocator.resolve();
    }
}
