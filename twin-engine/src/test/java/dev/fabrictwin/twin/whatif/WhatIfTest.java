package dev.fabrictwin.twin.whatif;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.TwinFixtures;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.fabric.Transport;
import dev.fabrictwin.twin.scenario.Routing;
import dev.fabrictwin.twin.scenario.ScenarioParser;

class WhatIfTest {

    @Test
    void shouldPredictABandwidthBoundRingCommunicatesFourTimesFasterOn400GThan100G() {
        final var file = TwinFixtures.shipped("whatif-1k-ring.yaml");
        final List<WhatIf.Row> rows = WhatIf.run(ScenarioParser.tree(file), file.getParent(), "hostLinkSpeed",
            List.of("100G", "400G"));

        assertThat(rows).hasSize(2);
        final WhatIf.Row slow = rows.get(0);
        final WhatIf.Row fast = rows.get(1);
        assertThat(slow.setting()).isEqualTo("hostLinkSpeed=100G");
        // 1,024 ranks each send 2(N-1)/N * 8 GB = 15.98 GB: 1,278.75 ms at 100 Gb/s plus the headers on the wire, a
        // quarter at 400 Gb/s
        final var roce = Technology.ROCE_V2;
        assertThat(slow.commTimeMs()).isCloseTo(2.0 * 1023 / 1024 * 8e9 * 8 / 100e9 * 1e3 * roce.wirePerPayload(),
            within(1e-6));
        assertThat(slow.commTimeMs() / fast.commTimeMs()).isCloseTo(4.0, within(1e-9));
        // compute stays 1.3 s: step = 1.3 s + comm, utilization = compute / step
        assertThat(fast.stepTimeMs()).isCloseTo(1300 + fast.commTimeMs(), within(1e-9));
        assertThat(fast.gpuUtilization()).isCloseTo(1300 / fast.stepTimeMs(), within(1e-12));
        assertThat(fast.gpuUtilization()).isGreaterThan(slow.gpuUtilization());
    }

    @Test
    void shouldRefuseASettingItCannotVary() {
        final var file = TwinFixtures.shipped("whatif-1k-ring.yaml");
        Assertions.assertThatThrownBy(() ->
                WhatIf.run(ScenarioParser.tree(file), file.getParent(), "colour", List.of("red")))
            .hasMessageStartingWith("cannot vary 'colour'");
    }

    @Test
    void shouldWeighAFaultAgainstTheHealthyFabricAndNameTheLinkThatBinds() {
        final var scenario = ScenarioParser.parse(ScenarioParser.tree(crossLeafRing("ring")), null);

        final WhatIf.Impact slowed = WhatIf.impacts(scenario, "as declared",
            List.of(WhatIfFault.parse("degrade:host-0~leaf-0=10%")), 1).get(0);

        // the lock-step ring runs at its slowest link's pace: host-0's, at a tenth of 100G, below any hash collision's
        // share; each rank sends 2(N-1)/N * 1 GB
        assertThat(slowed.faulted().commTimeMs()).isCloseTo(2.0 * 31 / 32 * 1e9 * 8 / 10e9 * 1e3
            * dev.fabrictwin.twin.fabric.Technology.ROCE_V2.wirePerPayload(), within(1e-6));
        assertThat(slowed.slowdown()).isGreaterThan(1.2);
        assertThat(slowed.slowdown()).isCloseTo(slowed.faulted().stepTimeMs() / slowed.healthy().stepTimeMs(), within(1e-12));
        assertThat(slowed.hurt()).isTrue();
        assertThat(slowed.binding()).containsAnyOf("host-0→leaf-0", "leaf-0→host-0")
            .allSatisfy(l -> assertThat(l).contains("host-0"));

        final WhatIf.Impact untouched = WhatIf.impacts(scenario, "as declared",
            List.of(WhatIfFault.parse("down:host-0~leaf-0")), 1).get(0);
        assertThat(untouched.slowdown()).isInfinite(); // its rank on host-0 has no route: the ring stalls
        assertThat(untouched.hurt()).isTrue();
    }

    @Test
    void shouldRefuseAFaultOnADeviceOrLinkTheFabricLacks() {
        final var fabric = ScenarioParser.parse(ScenarioParser.tree(crossLeafRing("ring")), null).fabric().build("f");

        Assertions.assertThatThrownBy(() -> WhatIfFault.parse("drain:spine-7").toFault(fabric))
            .hasMessageStartingWith("--fault 'drain:spine-7': no device 'spine-7' in the fabric");
        Assertions.assertThatThrownBy(() -> WhatIfFault.parse("down:host-0~leaf-1").toFault(fabric))
            .hasMessageStartingWith("--fault 'down:host-0~leaf-1': host-0 and leaf-1 are not linked");
        assertThat(WhatIfFault.parse("degrade:leaf-1~spine-0=25G").toFault(fabric).param("capacity")).isEqualTo(0.25);
    }

    /** 32 hosts on 4 leaves, every leaf's 8 flows crossing to the next leaf over 4 spines: the hash decides. */
    private static String crossLeafRing(final String jobId) {
        return """
            name: cross-leaf
            seed: 3
            duration: 30s
            fabric: {kind: spine-leaf, spines: 4, leaves: 4, hostsPerLeaf: 8, nicsPerHost: 1, linkSpeed: 100G}
            jobs:
              - {id: %s, hosts: 32, hostList: [%s], pattern: ring-allreduce, bytesPerIteration: 1GB,
                 iterationPeriod: 2s, commFraction: 0.5}
            """.formatted(jobId, java.util.stream.IntStream.range(0, 32)
                .mapToObj(i -> "host-" + (i % 4 * 8 + i / 4)).collect(Collectors.joining(", ")));
    }

    @Test
    void aPredictionOverHashSeedsGivesItsMedianAndP90AndIgnoresTheJobsName() {
        final var one = WhatIf.evaluate(TwinFixtures.scenario(crossLeafRing("llm-a")), "base", 1);
        final var renamed = WhatIf.evaluate(TwinFixtures.scenario(crossLeafRing("renamed")), "base", 1);
        final var over = WhatIf.evaluate(TwinFixtures.scenario(crossLeafRing("llm-a")), "base", 15);

        // the hash sees the flows' ends, never a label
        assertThat(renamed.get(0).commTimeMs()).isEqualTo(one.get(0).commTimeMs());
        final WhatIf.Row r = over.get(0);
        assertThat(r.seeds()).isEqualTo(15);
        assertThat(r.commP90Ms()).isGreaterThanOrEqualTo(r.commTimeMs());
        // collisions differ from seed to seed: over 15 seeds, some ring is slower or faster than the scenario's own
        final var routing = TwinFixtures.scenario(crossLeafRing("llm-a")).routing();
        assertThat(IntStream.range(1, 15).mapToDouble(k -> WhatIf.evaluate(TwinFixtures.scenario(
                crossLeafRing("llm-a")).withRouting(new Routing(routing.mode(),
                routing.hashSeed() + k, false)), "k").get(0).commTimeMs()).boxed().toList())
            .anyMatch(ms -> Math.abs(ms - one.get(0).commTimeMs()) > 1);
        // the ring can never beat line rate: 2(N-1)/N * 1 GB at 100 Gb/s plus headers
        assertThat(r.commTimeMs()).isGreaterThanOrEqualTo(2.0 * 31 / 32 * 8e9 / 100e9 * 1e3 * 0.999);
        // identical iterations: the twin stops once two steady ones agree instead of simulating six
        assertThat(one.get(0).iterations()).isEqualTo(2);
    }

    /**
     * Without congestion control every overload pauses the links that feed it, so colliding cross-leaf rings pay
     * head-of-line blocking they do not pay with ECN: the PFC-only prediction is never faster.
     */
    @Test
    void aPfcOnlyTransportIsNeverFasterThanEcn() {
        final var ecn = WhatIf.evaluate(TwinFixtures.scenario(crossLeafRing("a")), "ecn", 5).get(0);
        final var pfc = WhatIf.evaluate(TwinFixtures.scenario(crossLeafRing("a") + "transport: pfc\n"), "pfc", 5).get(0);

        assertThat(TwinFixtures.scenario(crossLeafRing("a") + "transport: pfc\n").transport())
            .isEqualTo(Transport.PFC);
        assertThat(pfc.commTimeMs()).isGreaterThanOrEqualTo(ecn.commTimeMs() * (1 - 1e-9));
        Assertions.assertThatThrownBy(() -> TwinFixtures.scenario(crossLeafRing("a") + "transport: tcp\n"))
            .hasMessageContaining("unknown transport 'tcp' (expected ecn or pfc)");
    }

    @Test
    void shouldOrderDrainsSoThatTheOneThatHurtsNoJobComesFirstAndTheOneThatStallsAJobLast() {
        // a shift across leaves 0 and 1 (every flow crosses the spines, sprayed: a spine less is a quarter less
        // capacity, not another hash collision), nothing on leaf 2
        final var scenario = TwinFixtures.scenario("""
            name: window
            seed: 3
            duration: 20s
            routing: spray
            fabric: {kind: spine-leaf, spines: 4, leaves: 3, hostsPerLeaf: 4, nicsPerHost: 1, linkSpeed: 100G}
            jobs:
              - {id: shift-a, hosts: 8, hostList: [host-0, host-1, host-2, host-3, host-4, host-5, host-6, host-7],
                 pattern: shift, offset: 4, bytesPerIteration: 8GB, iterationPeriod: 1s, commFraction: 0.3}
            """);

        final List<WhatIf.DrainStep> order = WhatIf.drainOrder(scenario, "as declared",
            List.of(WhatIfFault.parse("drain:leaf-0"), WhatIfFault.parse("drain:spine-1"), WhatIfFault.parse("drain:leaf-2")), 1);

        assertThat(order).extracting(WhatIf.DrainStep::device).containsExactly("leaf-2", "spine-1", "leaf-0");
        assertThat(order.get(0).hurt()).isEmpty();
        assertThat(order.get(0).worstSlowdown()).isCloseTo(1.0, within(1e-9));
        // three spines of four carry the shift's cross-leaf flows: its comm phase takes 4/3 as long, not forever
        assertThat(order.get(1).hurt()).extracting(i -> i.healthy().job()).containsExactly("shift-a");
        final WhatIf.Impact shift = order.get(1).impacts().get(0);
        assertThat(shift.faulted().commTimeMs()).isCloseTo(shift.healthy().commTimeMs() * 4 / 3, within(1.0));
        // leaf-0's hosts lose their only links: the shift stalls
        assertThat(order.get(2).worstSlowdown()).isInfinite();
        // each step is that drain alone, as impacts gives it
        assertThat(order.get(1).impacts().get(0).slowdown()).isEqualTo(WhatIf.impacts(scenario, "as declared",
            List.of(WhatIfFault.parse("drain:spine-1")), 1).get(0).slowdown());
    }

    @Test
    void shouldRefuseADrainOrderOfAnythingButDrains() {
        final var scenario = TwinFixtures.scenario(crossLeafRing("ring"));
        Assertions.assertThatThrownBy(() -> WhatIf.drainOrder(scenario, "as declared",
                List.of(WhatIfFault.parse("down:leaf-1")), 1))
            .hasMessage("a drain order takes drains only, not down:leaf-1");
    }
}
