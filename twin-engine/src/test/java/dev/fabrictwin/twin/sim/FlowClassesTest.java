package dev.fabrictwin.twin.sim;

import static dev.fabrictwin.twin.TwinFixtures.scenario;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.workload.FlowClass;
import dev.fabrictwin.twin.workload.PlacedJob;
import dev.fabrictwin.twin.workload.Placement;

/**
 * Flow classes (docs/twin.md): an all-to-all aggregated per (source switch, destination switch) must move the bytes
 * and take the time the same all-to-all takes flow by flow where the two models mean the same thing (flows spread
 * evenly over the equal-cost links: packet spraying), with (switches)² flows instead of N².
 */
class FlowClassesTest {

    private static final String A2A = """
        name: classes
        seed: 3
        routing: spray
        fabric: {kind: spine-leaf, spines: 4, leaves: 8, hostsPerLeaf: 8, nicsPerHost: 2, linkSpeed: 100G}
        jobs:
          - {id: a2a, hosts: 64, pattern: all-to-all, bytesPerIteration: 4GB, iterationPeriod: 1s, commFraction: 0.5}
        """;

    @Test
    void anAggregatedAllToAllTakesTheTimeAndMovesTheBytesOfTheFlowByFlowOne() {
        final Twin flows = Twin.healthy(scenario(A2A), ModelParams.defaults());
        final Twin classes = aggregated(scenario(A2A), "");
        flows.simulation().runUntil(4);
        classes.simulation().runUntil(4);

        final PlacedJob job = classes.jobs().get(0);
        assertThat(job.transfers()).isEmpty();
        assertThat(job.classes()).as("one class per pair of leaves").hasSize(64);
        assertThat(job.fabricFlows()).isEqualTo(flows.jobs().get(0).transfers().size()).isEqualTo(128 * 126);

        final List<IterationRecord> perFlow = flows.simulation().iterations();
        final List<IterationRecord> perClass = classes.simulation().iterations();
        assertThat(perClass).hasSameSizeAs(perFlow).hasSizeGreaterThanOrEqualTo(2);
        for (int i = 0; i < perFlow.size(); i++) {
            assertThat(perClass.get(i).commSeconds()).as("comm time of iteration %d", i)
                .isCloseTo(perFlow.get(i).commSeconds(), within(perFlow.get(i).commSeconds() * 0.005));
        }
        final Fabric fabric = flows.fabric();
        for (final PortRef port : List.of(new PortRef("host-0", "nic0"), new PortRef("host-63", "nic1"),
            fabric.txPort(fabric.rxLink(new PortRef("host-9", "nic0"))), uplink(fabric, "leaf-2", "spine-1"),
            uplink(fabric, "spine-3", "leaf-5"))) {
            for (final String counter : List.of("tx_bytes", "rx_bytes")) {
                final double expected = flows.counters().expected(port, 0, 4).counter(counter);
                assertThat(classes.counters().expected(port, 0, 4).counter(counter)).as("%s of %s", counter, port)
                    .isCloseTo(expected, within(expected * 0.005)).isGreaterThan(1e9);
            }
        }
    }

    @Test
    void aDegradedUplinkHoldsBackTheWholeCollectiveAndTheBytesStillArrive() {
        final String degraded = "faults:\n  - {type: LINK_DEGRADED, target: {device: leaf-2, peer: spine-1}, start: 0s, "
            + "end: 10s, capacity: 0.25}\n";
        final Twin healthy = aggregated(scenario(A2A), "");
        final Twin slow = aggregated(scenario(A2A + degraded), degraded);
        healthy.simulation().runUntil(6);
        slow.simulation().runUntil(6);
        final double before = healthy.simulation().iterations().get(0).commSeconds();
        final double after = slow.simulation().iterations().get(0).commSeconds();
        // leaf-2 sends 7/8 of its NICs' bytes up over 4 uplinks; one at a quarter binds all of them (even spread)
        assertThat(after).as("comm with leaf-2's uplink at 25%%").isGreaterThan(1.5 * before);
        double sent = 0;
        double received = 0;
        for (int h = 0; h < 64; h++) {
            for (final String nic : List.of("nic0", "nic1")) {
                final var c = slow.counters().expected(new PortRef("host-" + h, nic), 0, 6);
                sent += c.counter("tx_bytes");
                received += c.counter("rx_bytes");
            }
        }
        assertThat(received).as("every byte sent arrives").isCloseTo(sent, within(sent * 1e-9)).isGreaterThan(1e11);
        final PortRef up = uplink(slow.fabric(), "leaf-2", "spine-1");
        assertThat(slow.counters().expected(up, 0.5, 0.5 + after).counter("tx_bytes") * 8 / after)
            .as("the degraded uplink's rate").isLessThanOrEqualTo(0.25 * 100e9 * (1 + 1e-9)).isGreaterThan(0.2 * 100e9);
    }

    private static PortRef uplink(final Fabric fabric, final String from, final String to) {
        final int a = fabric.requireNode(from).index();
        final int b = fabric.requireNode(to).index();
        return Arrays.stream(fabric.linksOf(a)).mapToObj(fabric::link).filter(l -> l.other(a) == b)
            .findFirst().orElseThrow().portOf(a);
    }

    /** The scenario's twin with its all-to-all placed as flow classes whatever its size. */
    private static Twin aggregated(final Scenario scenario, final String faults) {
        final Fabric fabric = scenario.fabric().build(scenario.name());
        final PlacedJob placed = Placement.place(fabric, scenario.jobs(), scenario.seed()).get(0);
        final List<FlowClass> classes = Placement.allToAllClasses(fabric, placed.spec(), placed.ranks(), 2);
        final List<PlacedJob> jobs = List.of(new PlacedJob(placed.spec(), placed.hosts(), placed.ranks(), List.of(), classes));
        final FluidSimulation sim = new FluidSimulation(fabric, jobs, scenario.routing(),
            faults.isEmpty() ? List.of() : scenario.faults(), ModelParams.defaults(), scenario.seed());
        return new Twin(scenario, fabric, jobs, sim);
    }
}
