package dev.fabrictwin.twin.sim;

import static dev.fabrictwin.twin.TwinFixtures.scenario;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.scenario.Scenario;

class FaultStateTest {

    /** leaf-0's one uplink flaps from 1 s to 5 s: down 0.5 s of every 2 s. */
    private final Scenario flapping = scenario("""
        name: flap
        fabric: {kind: spine-leaf, spines: 1, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
        jobs: []
        faults:
          - {type: LINK_FLAP, target: {device: leaf-0, peer: spine-0}, start: 1s, end: 5s, period: 2, downSeconds: 0.5}
        """);
    private final SimParts parts = new SimParts(1);
    private final FaultState faults = new FaultState(parts.fabric, List.of(), flapping.faults(), parts.conditions,
        parts.router, 1);
    private final EventQueue events = new EventQueue();
    private final int uplink = parts.link("leaf-0", "spine-0") / 2;

    @Test
    void shouldTakeAFlappingLinkDownAndUpOnItsSchedule() {
        faults.scheduleAll(events);
        assertThat(events.pollDue(1.0).kind()).isEqualTo(EventKind.FAULT_START);

        assertThat(faults.start(0, events, 1.0)).isEmpty(); // no undeclared traffic
        assertThat(faults.apply()).isTrue(); // paths moved
        assertThat(parts.conditions.linkUp[uplink]).isFalse();
        assertThat(events.nextTime()).isCloseTo(1.5, within(1e-12));

        events.pollDue(1.5);
        assertThat(faults.flap(0, events, 1.5)).isTrue();
        faults.apply();
        assertThat(parts.conditions.linkUp[uplink]).isTrue();
        assertThat(events.nextTime()).isCloseTo(3.0, within(1e-12)); // up for the rest of the period

        faults.end(0);
        assertThat(faults.flap(0, events, 3.0)).isFalse();
    }

    @Test
    void shouldFollowReportedLinkStatesAndDropARepeatedReport() {
        assertThat(faults.request(uplink, false)).isTrue();
        assertThat(faults.request(uplink, false)).isFalse();
        assertThat(faults.linkRequestedUp(uplink)).isFalse();
        assertThat(faults.reported(uplink, true)).isTrue(); // requested, not yet in effect

        assertThat(faults.report(uplink, false)).isTrue();
        assertThat(faults.apply()).isTrue();
        assertThat(parts.conditions.linkUp[uplink]).isFalse();
        assertThat(faults.report(uplink, false)).isFalse();
        assertThat(faults.apply()).isFalse(); // nothing moved
    }
}
