package dev.fabrictwin.twin.sim;

import static dev.fabrictwin.twin.TwinFixtures.scenario;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.scenario.ScenarioException;
import dev.fabrictwin.twin.whatif.WhatIf;

/** A scenario's explicit {@code flows:} and {@code pins:} on the twin (docs/contracts.md). */
class ScenarioTrafficTest {

    /** 16 hosts on 2 leaves of 8, 4 spines, 100G everywhere, PFC only (as the reference cases). */
    private static final String FABRIC = """
        name: traffic
        seed: 3
        fabric: {kind: spine-leaf, spines: 4, leaves: 2, hostsPerLeaf: 8, nicsPerHost: 1, linkSpeed: 100G}
        transport: pfc
        """;
    private static final double WIRE = Technology.ROCE_V2.wirePerPayload();
    private static final double MIB64 = 64.0 * (1 << 20);
    /** One 64 MiB flow alone at 100 Gb/s, headers included. */
    private static final double ALONE_MS = MIB64 * 8 * WIRE / 100e9 * 1e3;

    private static WhatIf.Row flowsRow(final String yaml) {
        return WhatIf.evaluate(scenario(yaml), "x").stream().filter(r -> r.job().equals(WhatIf.FLOWS)).findFirst()
            .orElseThrow();
    }

    @Test
    void aScenarioOfOnlyFlowsRunsThemOnceAndWhatIfReportsTheirMakespan() {
        final WhatIf.Row row = flowsRow(FABRIC + """
            flows:
              - {src: host-0/nic0, dst: host-8/nic0, bytes: 64MiB, start: 0s}
              - {id: late, src: host-1, dst: host-9, bytes: 64MiB, start: 10ms}
            """);
        // the second flow starts 10 ms after the first and runs alone: first start to last end = 10 ms + one flow
        assertThat(row.commTimeMs()).isCloseTo(10 + ALONE_MS, within(1e-6));
        assertThat(row.stepTimeMs()).isNaN();
        assertThat(row.gpuUtilization()).isNaN();
    }

    @Test
    void anIncastDeclaredAsFlowsTakesAsLongAsPatternIncast() {
        final StringBuilder flows = new StringBuilder(FABRIC + "flows:\n");
        for (int h = 1; h < 8; h++) {
            flows.append("  - {src: host-").append(h).append("/nic0, dst: host-0/nic0, bytes: 16MiB}\n");
        }
        final double asFlows = flowsRow(flows.toString()).commTimeMs();
        final double asJob = WhatIf.evaluate(scenario(FABRIC + """
            jobs:
              - {id: incast, hosts: 8, pattern: incast, bytesPerIteration: 16MiB, iterationPeriod: 1s, commFraction: 0.5}
            """), "x").get(0).commTimeMs();
        assertThat(asFlows).isCloseTo(asJob, within(1e-9 * asJob));
        assertThat(asFlows).isCloseTo(7 * 16.0 * (1 << 20) * 8 * WIRE / 100e9 * 1e3, within(1e-6)); // host-0's NIC, 7 flows
    }

    @Test
    void aFlowShowsInTheCountersUntilItEndsAndRepeatsEveryPeriod() {
        final Twin twin = Twin.healthy(scenario(FABRIC + """
            flows:
              - {id: bulk, src: host-2, dst: host-3, bytes: 64MiB, start: 100ms, repeat: 1s}
            """), ModelParams.defaults());
        twin.simulation().runUntil(2.5);
        assertThat(twin.simulation().flowCompletions()).extracting(FlowCompletion::round).containsExactly(0, 1, 2);
        final FlowCompletion first = twin.simulation().flowCompletions().get(0);
        assertThat(first.start()).isCloseTo(0.1, within(1e-12));
        assertThat(first.seconds() * 1e3).isCloseTo(ALONE_MS, within(1e-6));
        final PortRef src = new PortRef("host-2", "nic0");
        assertThat(twin.counters().expected(src, 0, first.end()).counter("tx_bytes")).isCloseTo(MIB64 * WIRE, within(1.0));
        assertThat(twin.counters().expected(src, first.end(), 1.09).counter("tx_bytes")).isZero(); // ended
        assertThat(twin.counters().expected(new PortRef("host-3", "nic0"), 0, 2.5).counter("rx_bytes"))
            .isCloseTo(3 * MIB64 * WIRE, within(3.0));
    }

    @Test
    void aFlowAddedWhileTheSimulationRunsStartsNowIfItsStartHasPassed() {
        final Twin twin = Twin.healthy(scenario(FABRIC), ModelParams.defaults());
        twin.simulation().runUntil(1);
        twin.simulation().addFlow(new FluidSimulation.ExplicitFlow("late", new PortRef("host-0", "nic0"),
            new PortRef("host-9", "nic0"), MIB64, 0.2, 1));
        twin.simulation().runUntil(2.5);
        assertThat(twin.simulation().flowCompletions()).extracting(FlowCompletion::round).containsExactly(0, 1);
        assertThat(twin.simulation().flowCompletions()).extracting(FlowCompletion::start).containsExactly(1.0, 2.0);
    }

    @Test
    void aFlowPinnedViaASpineCrossesItsLinks() {
        final Twin twin = Twin.healthy(scenario(FABRIC + """
            flows:
              - {src: host-0, dst: host-8, bytes: 64MiB, via: spine-3}
            """), ModelParams.defaults());
        twin.simulation().runUntil(1);
        // spine-j's eth0 faces leaf-0 and eth1 leaf-1: the flow comes in on one and leaves on the other
        for (int spine = 0; spine < 4; spine++) {
            final double in = twin.counters().expected(new PortRef("spine-" + spine, "eth0"), 0, 1).counter("rx_bytes");
            final double out = twin.counters().expected(new PortRef("spine-" + spine, "eth1"), 0, 1).counter("tx_bytes");
            assertThat(in).as("spine-%d in", spine).isCloseTo(spine == 3 ? MIB64 * WIRE : 0, within(1.0));
            assertThat(out).as("spine-%d out", spine).isCloseTo(spine == 3 ? MIB64 * WIRE : 0, within(1.0));
        }
    }

    /**
     * A ringx over 8 hosts on 2 leaves of 4 with 4 spines (host h → host h+4: every flow leaves its leaf, one per
     * uplink when spread), every flow pinned: host h via spine-(h mod 4), host-1 via {@code viaOfHost1}.
     */
    private static double pinnedRingxMs(final String viaOfHost1) {
        final StringBuilder yaml = new StringBuilder("""
            name: ringx-pinned
            fabric: {kind: spine-leaf, spines: 4, leaves: 2, hostsPerLeaf: 4, nicsPerHost: 1, linkSpeed: 100G}
            transport: pfc
            jobs:
              - {id: ringx, hosts: 8, pattern: shift, offset: 4, bytesPerIteration: 64MiB, iterationPeriod: 1s, commFraction: 0.5}
            pins:
            """);
        for (int h = 0; h < 8; h++) {
            yaml.append("  - {src: host-").append(h).append("/nic0, dst: host-").append((h + 4) % 8).append("/nic0, via: ")
                .append(h == 1 ? viaOfHost1 : "spine-" + h % 4).append("}\n");
        }
        return WhatIf.evaluate(scenario(yaml.toString()), "x").get(0).commTimeMs();
    }

    @Test
    void twoRingxFlowsPinnedOntoOneUplinkTakeTwiceAsLongAsPinnedApart() {
        final double apart = pinnedRingxMs("spine-1");
        final double together = pinnedRingxMs("spine-0"); // host-0 and host-1 share leaf-0's uplink to spine-0
        assertThat(apart).isCloseTo(ALONE_MS, within(1e-6));
        assertThat(together).isCloseTo(2 * apart, within(1e-6));
    }

    /**
     * PFC without congestion control (docs/twin.md): host-0 puts two flows on leaf-0's uplink to spine-0 and one on a
     * free path to host-2, host-1 one flow on that uplink. Each NIC offers 1/k of its line rate per flow, so the uplink
     * is offered 2/3 by host-0's port and 1 by host-1's: shared between the two ingress ports at 1/2 each, host-0 is
     * paused 1/4 of the time and host-1 1/2. host-0's FIFO sends its three queue pairs in turn, so the flow to host-2
     * (nothing in its way) runs at 1/4 like the two held at the uplink — head-of-line blocking — and host-1's lone
     * flow gets 1/2, not the 1/3 per flow of max-min. host-1's flow ends at 2T (T: one flow alone); host-0's three have
     * half their bytes left then and run alone at 1/3 each: 3.5T.
     */
    @Test
    void withoutCongestionControlAPausedNicHoldsBackAllItsFlowsAndEgressesAreSharedPerIngressPort() {
        final Twin twin = Twin.healthy(scenario(FABRIC + """
            flows:
              - {id: a1, src: host-0, dst: host-8, bytes: 16MiB, via: spine-0}
              - {id: a2, src: host-0, dst: host-9, bytes: 16MiB, via: spine-0}
              - {id: b, src: host-0, dst: host-2, bytes: 16MiB}
              - {id: c, src: host-1, dst: host-10, bytes: 16MiB, via: spine-0}
            """), ModelParams.defaults());
        twin.simulation().runUntil(1);
        final double alone = ALONE_MS / 4; // 16 MiB
        final Map<String, Double> ms = new HashMap<>();
        twin.simulation().flowCompletions().forEach(f -> ms.put(f.flow(), f.seconds() * 1e3));
        assertThat(ms.get("c")).isCloseTo(2 * alone, within(1e-6));
        for (final String id : new String[] {"a1", "a2", "b"}) {
            assertThat(ms.get(id)).as(id).isCloseTo(3.5 * alone, within(1e-6));
        }
    }

    @Test
    void aBadFlowOrPinIsAOneLineErrorNamingIt() {
        assertError("""
            flows:
              - {id: bulk, src: host-0/nic7, dst: host-8, bytes: 1MB}
            """, "flows[0] (bulk).src: 'host-0/nic7' is not a NIC of host-0 (its NICs: nic0)");
        assertError("""
            flows:
              - {src: host-0, dst: spine-1, bytes: 1MB}
            """, "flows[0] (flow-0).dst: 'spine-1' is not a host of the fabric (hosts are named like host-0)");
        assertError("""
            flows:
              - {src: host-0, dst: host-0/nic0, bytes: 1MB}
            """, "flows[0] (flow-0): src host-0/nic0 and dst host-0/nic0 are the same port");
        assertError("""
            flows:
              - {src: host-0, dst: host-8, bytes: 1MB, via: leaf-1}
            """, "flows[0] (flow-0).via: 'leaf-1' is not a next hop of leaf-0 towards host-8/nic0 (its choices: spine-0, "
            + "spine-1, spine-2, spine-3)");
        assertError("""
            pins:
              - {src: host-0, dst: host-1, via: spine-0}
            """, "pins[0].via: 'spine-0' is not a next hop of leaf-0 towards host-1/nic0 (both ends hang off leaf-0: there "
            + "is no choice to pin)");
        assertError("""
            pins:
              - {src: host-0, dst: host-8, via: spine-0}
              - {src: host-0, dst: host-8, via: spine-1}
            """, "pins[1].via: host-0/nic0 → host-8/nic0 is already pinned via spine-0, cannot also go via spine-1");
    }

    @Test
    void aFlowBetweenTwoNicsOfOneHostIsRefused() {
        assertThatThrownBy(() -> Twin.healthy(scenario("""
            fabric: {kind: spine-leaf, spines: 2, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 2}
            flows: [{src: host-1/nic0, dst: host-1/nic1, bytes: 1MB}]
            """), ModelParams.defaults())).isInstanceOf(ScenarioException.class)
            .hasMessage("flows[0] (flow-0): src host-1/nic0 and dst host-1/nic1 are on one host (that traffic never touches "
                + "the fabric)");
    }

    private static void assertError(final String yaml, final String message) {
        assertThatThrownBy(() -> Twin.healthy(scenario(FABRIC + yaml), ModelParams.defaults()))
            .isInstanceOf(ScenarioException.class).hasMessage(message);
    }
}
