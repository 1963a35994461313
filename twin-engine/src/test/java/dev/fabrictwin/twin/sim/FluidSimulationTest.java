package dev.fabrictwin.twin.sim;

import static dev.fabrictwin.twin.TwinFixtures.scenario;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.model.ModelParams;

class FluidSimulationTest {

    /** 4 hosts on 2 leaves, 1 NIC each, 100G everywhere; one ring over all 4. */
    private static final String RING4 = """
        name: ring4
        fabric: {kind: spine-leaf, spines: 2, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
        jobs:
          - {id: j, hosts: 4, pattern: ring-allreduce, bytesPerIteration: 1GB, iterationPeriod: 1s, commFraction: 0.5}
        """;

    /** Wire bytes per payload byte: the packets' headers. */
    private static final double WIRE = Technology.ROCE_V2.wirePerPayload();

    @Test
    void shouldRunARingAtLineRateAndTakeBytesOverRateToCommunicate() {
        final Twin twin = Twin.healthy(scenario(RING4), ModelParams.defaults());
        twin.simulation().runUntil(5);

        // each rank sends 2(N-1)/N * S = 1.5 GB to its successor at 100 Gb/s = 12.5 GB/s -> 0.12 s of payload; the
        // wire also carries 64 B of headers per 4 KiB packet
        final List<IterationRecord> its = twin.simulation().iterations();
        assertThat(its).isNotEmpty();
        assertThat(its.get(0).commSeconds()).isCloseTo(0.12 * WIRE, withinPercentage(0.05));
        assertThat(its.get(0).commStart()).isCloseTo(0.5, within(1e-9)); // compute phase = (1 - 0.5) * 1 s
        assertThat(its.get(1).computeStart()).isCloseTo(its.get(0).commEnd(), within(1e-12));
    }

    @Test
    void shouldCountExactlyTheBytesEachNicSends() {
        final Twin twin = Twin.healthy(scenario(RING4), ModelParams.defaults());
        twin.simulation().runUntil(3);
        final List<IterationRecord> done = twin.simulation().iterations();
        final int iterationsDone = done.size();
        final double end = done.get(done.size() - 1).commEnd() + 0.1; // inside the next compute phase

        // counters count the wire: the payload and its headers
        final PortCounters c = twin.counters().expected(new PortRef("host-0", "nic0"), 0, end);
        assertThat(c.counter("tx_bytes")).isCloseTo(iterationsDone * 1.5e9 * WIRE, withinPercentage(0.05));
        assertThat(c.counter("rx_bytes")).isCloseTo(iterationsDone * 1.5e9 * WIRE, withinPercentage(0.05));
    }

    @Test
    void shouldSlowTheWholeRingWhenOneLinkOnItsPathIsDegraded() {
        final Twin healthy = Twin.healthy(scenario(RING4), ModelParams.defaults());
        final Twin faulty = Twin.withFaults(scenario(RING4 + """
            faults:
              - {type: STRAGGLER, target: {device: host-2, port: nic0}, start: 0s, end: 100s, rateFactor: 0.25}
            """), ModelParams.defaults());
        healthy.simulation().runUntil(3);
        faulty.simulation().runUntil(3);

        // host-2 sends at 25 Gb/s; lock step holds every rank of the ring to that pace: 4x the comm time
        final double fast = healthy.simulation().iterations().get(0).commSeconds();
        final double slow = faulty.simulation().iterations().get(0).commSeconds();
        assertThat(slow / fast).isCloseTo(4.0, within(1e-6));
        final PortCounters other = faulty.counters().expected(new PortRef("host-0", "nic0"), 0.5, 0.5 + slow);
        assertThat(other.counter("tx_bytes") * 8 / slow).isCloseTo(25e9, withinPercentage(1e-6));
    }

    @Test
    void shouldAddUpOverAdjacentIntervalsSoUnalignedSamplesCompareExactly() {
        final Twin twin = Twin.healthy(scenario(RING4), ModelParams.defaults());
        twin.simulation().runUntil(4);
        final PortRef port = new PortRef("host-0", "nic0"); // a ring rank: busy whatever the hash

        final double whole = twin.counters().expected(port, 0.3, 3.7).counter("tx_bytes");
        final double parts = twin.counters().expected(port, 0.3, 1.234).counter("tx_bytes")
            + twin.counters().expected(port, 1.234, 2.5).counter("tx_bytes")
            + twin.counters().expected(port, 2.5, 3.7).counter("tx_bytes");
        assertThat(whole).isPositive();
        assertThat(parts).isCloseTo(whole, withinPercentage(1e-9));
    }

    @Test
    void shouldRerouteAroundADownLinkAndReportItDown() {
        final Twin twin = Twin.withFaults(scenario(RING4 + """
            faults:
              - {type: LINK_DOWN, target: {device: leaf-0, peer: spine-0}, start: 0s, end: 100s}
            """), ModelParams.defaults());
        twin.simulation().runUntil(3);

        final PortCounters down = twin.counters().expected(new PortRef("leaf-0", "eth2"), 0, 3);
        final PortCounters sibling = twin.counters().expected(new PortRef("leaf-0", "eth3"), 0, 3);
        assertThat(down.gauge("oper_up")).isZero();
        assertThat(down.counter("tx_bytes")).isZero();
        assertThat(sibling.counter("tx_bytes")).isPositive();
        assertThat(twin.simulation().iterations()).isNotEmpty();
    }

    @Test
    void shouldShowAPfcStormAtItsOriginAndPausesUpstreamOfIt() {
        final Twin twin = Twin.withFaults(scenario(RING4 + """
            faults:
              - {type: PFC_STORM, target: {device: host-1, port: nic0}, start: 0s, end: 100s}
            """), ModelParams.defaults());
        twin.simulation().runUntil(3);

        final PortCounters origin = twin.counters().expected(new PortRef("host-1", "nic0"), 0, 3);
        final PortCounters leafPortToOrigin = twin.counters().expected(new PortRef("leaf-0", "eth1"), 0, 3);
        assertThat(origin.counter("tx_pfc_pause.3")).isPositive();
        assertThat(leafPortToOrigin.counter("rx_pfc_pause.3")).isEqualTo(origin.counter("tx_pfc_pause.3"));
        assertThat(leafPortToOrigin.counter("rx_pause_duration_us.3")).isCloseTo(0.9 * 3e6, withinPercentage(1e-6));
        // host-0 feeds the paused port; the leaf pauses host-0 in turn: a victim upstream
        final PortCounters upstream = twin.counters().expected(new PortRef("host-0", "nic0"), 0, 3);
        assertThat(upstream.counter("rx_pfc_pause.3")).isPositive();
    }
}
