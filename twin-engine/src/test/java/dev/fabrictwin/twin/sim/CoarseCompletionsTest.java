package dev.fabrictwin.twin.sim;

import static dev.fabrictwin.twin.TwinFixtures.scenario;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.ModelParams;

/**
 * {@link FluidSimulation#setCompletionGrid}: flows completing between solves leave their links at once, the bandwidth
 * they free is shared on the grid. What the analyzer compares, a port's counters over a tick, must stay what the
 * exact twin gives, with far fewer solves.
 */
class CoarseCompletionsTest {

    /**
     * Transfers of several sizes and start times sharing oversubscribed uplinks (8:1): a completion frees bandwidth
     * that flows still running take up (equal transfers started together never do: max-min finishes the fastest,
     * whose share nobody still running could use).
     */
    private static final String MIXED = """
        name: coarse
        seed: 5
        fabric: {kind: spine-leaf, spines: 1, leaves: 4, hostsPerLeaf: 8, nicsPerHost: 1, linkSpeed: 100G}
        jobs:
          - {id: ring, hosts: 8, pattern: ring-allreduce, bytesPerIteration: 2GB, iterationPeriod: 1s, commFraction: 0.4}
          - {id: a2a, hosts: 8, pattern: all-to-all, bytesPerIteration: 1GB, iterationPeriod: 1s, commFraction: 0.4}
          - {id: bg, hosts: 8, pattern: background, bytesPerIteration: 1GB, iterationPeriod: 1s}
          - {id: bg2, hosts: 8, pattern: background, bytesPerIteration: 300MB, iterationPeriod: 0.7s}
        """;
    private static final double GRID = 0.05;
    private static final int SECONDS = 10;

    /** Two hosts under each of two leaves, one spine: host-0 and host-1 share leaf-0's one uplink. */
    private static final String SHARED_UPLINK = """
        name: shared
        fabric: {kind: spine-leaf, spines: 1, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
        jobs: []
        """;

    @Test
    void aCompletingFlowLeavesAtOnceAndTheOtherTakesItsShareAtTheNextGridStep() {
        final Twin exact = Twin.healthy(scenario(SHARED_UPLINK), ModelParams.defaults());
        final Twin coarse = Twin.healthy(scenario(SHARED_UPLINK), ModelParams.defaults());
        coarse.simulation().setCompletionGrid(GRID);
        for (final Twin t : List.of(exact, coarse)) {
            // 1 GB and 3 GB over the shared uplink: the short one ends at ~0.16 s, then the long one runs alone
            t.simulation().addFlow(new FluidSimulation.ExplicitFlow("short", new PortRef("host-0", "nic0"),
                new PortRef("host-2", "nic0"), 1e9, 0, 0));
            t.simulation().addFlow(new FluidSimulation.ExplicitFlow("long", new PortRef("host-1", "nic0"),
                new PortRef("host-3", "nic0"), 3e9, 0, 0));
            t.simulation().runUntil(2);
        }
        final FlowCompletion shortExact = exact.simulation().flowCompletions().get(0);
        final FlowCompletion longExact = exact.simulation().flowCompletions().get(1);
        final FlowCompletion shortCoarse = coarse.simulation().flowCompletions().get(0);
        final FlowCompletion longCoarse = coarse.simulation().flowCompletions().get(1);

        assertThat(shortCoarse.end()).as("the short flow ends when its bytes are through").isEqualTo(shortExact.end());
        // the long one kept half the uplink until the grid step after the short one ended: late by half that wait
        final double wait = Math.ceil(shortExact.end() / GRID) * GRID - shortExact.end();
        assertThat(longCoarse.end() - longExact.end()).isCloseTo(wait / 2, within(1e-9)).isLessThanOrEqualTo(GRID / 2);
        // every byte is counted, on each sender and on the shared uplink
        final int leaf = exact.fabric().requireNode("leaf-0").index();
        final int spine = exact.fabric().requireNode("spine-0").index();
        final PortRef uplink = Arrays.stream(exact.fabric().linksOf(leaf)).mapToObj(exact.fabric()::link)
            .filter(l -> l.other(leaf) == spine).findFirst().orElseThrow().portOf(leaf);
        for (final PortRef p : List.of(new PortRef("host-0", "nic0"), new PortRef("host-1", "nic0"), uplink)) {
            assertThat(coarse.counters().expected(p, 0, 2).counter("tx_bytes")).as("bytes sent by %s", p)
                .isCloseTo(exact.counters().expected(p, 0, 2).counter("tx_bytes"), within(1.0)).isGreaterThan(1e9);
        }
    }

    /** {@link #MIXED} run for {@link #SECONDS} with this completion grid (0: exact). */
    private static Twin mixed(final double grid) {
        final Twin twin = Twin.healthy(scenario(MIXED), ModelParams.defaults());
        twin.simulation().setCompletionGrid(grid);
        twin.simulation().runUntil(SECONDS);
        return twin;
    }

    @Test
    void everyPortCountsPerTickWhatTheExactTwinCounts() {
        final Twin exact = mixed(0);
        final Twin coarse = mixed(GRID);

        double worst = 0;
        double busiestTick = 0;
        for (final Node n : exact.fabric().nodes()) {
            for (final int li : exact.fabric().linksOf(n.index())) {
                final PortRef p = exact.fabric().link(li).portOf(n.index());
                for (int t = 0; t < SECONDS; t++) {
                    final double e = exact.counters().expected(p, t, t + 1).counter("tx_bytes");
                    final double c = coarse.counters().expected(p, t, t + 1).counter("tx_bytes");
                    worst = Math.max(worst, Math.abs(c - e));
                    busiestTick = Math.max(busiestTick, e);
                }
            }
        }
        // a flow's freed share waits at most a grid step: off by a small part of a busy port's tick, never more
        assertThat(worst / busiestTick).as("largest per-port, per-tick difference in tx bytes, of the busiest tick")
            .isLessThan(0.02);
    }

    @Test
    void jobsIterateInStepWithTheExactTwin() {
        final Twin exact = mixed(0);
        final Twin coarse = mixed(GRID);

        for (final String job : List.of("ring", "a2a")) {
            final List<IterationRecord> e = exact.simulation().iterations().stream().filter(r -> r.job().equals(job)).toList();
            final List<IterationRecord> c = coarse.simulation().iterations().stream().filter(r -> r.job().equals(job)).toList();
            assertThat(c).as(job).hasSameSizeAs(e).isNotEmpty();
            for (int i = 0; i < e.size(); i++) {
                assertThat(c.get(i).commEnd()).as("%s iteration %d ends", job, i).isCloseTo(e.get(i).commEnd(), within(GRID));
            }
        }
    }

    /**
     * A link's reported state changes right after flows completed between two solves (any change re-routes every
     * flow): the completed flows must not be routed, and delivered, again — each did end its job's comm phase a second
     * time, the job's count of active flows went below zero and its comm phase never ended (a 6,144-port replica's
     * ring stuck for good after a link came back up).
     */
    @Test
    void aLinkChangingRightAfterCompletionsDeliversNothingTwice() {
        final String ring = """
            name: toggled
            seed: 5
            fabric: {kind: spine-leaf, spines: 2, leaves: 2, hostsPerLeaf: 4, nicsPerHost: 1, linkSpeed: 100G}
            jobs:
              - {id: ring, hosts: 6, pattern: ring-allreduce, bytesPerIteration: 2GB, iterationPeriod: 1s, commFraction: 0.4}
            """;
        final Twin steady = Twin.healthy(scenario(ring), ModelParams.defaults());
        steady.simulation().setCompletionGrid(GRID);
        steady.simulation().runUntil(SECONDS);
        final Twin toggled = Twin.healthy(scenario(ring), ModelParams.defaults());
        toggled.simulation().setCompletionGrid(GRID);
        // host-7 is in no job: its link going down and up moves no flow, but re-routes them all
        final int idle = toggled.fabric().requireLinkAt(new PortRef("host-7", "nic0")).index();
        for (int ms = 10; ms < SECONDS * 1000; ms += 10) {
            toggled.simulation().setLinkUp(idle, ms % 20 != 0, ms / 1000.0);
        }
        toggled.simulation().runUntil(SECONDS);

        final List<IterationRecord> e = steady.simulation().iterations();
        final List<IterationRecord> t = toggled.simulation().iterations();
        assertThat(t).as("iterations with the idle link toggling every 10 ms").hasSameSizeAs(e).hasSizeGreaterThan(SECONDS - 2);
        for (int i = 0; i < e.size(); i++) {
            assertThat(t.get(i).commEnd()).as("iteration %d ends", i).isCloseTo(e.get(i).commEnd(), within(GRID));
        }
    }

    @Test
    void switchesForwardEveryByteTheyReceive() {
        final Twin coarse = Twin.healthy(scenario(MIXED), ModelParams.defaults());
        coarse.simulation().setCompletionGrid(GRID);
        coarse.simulation().runUntil(SECONDS);

        for (final Node n : coarse.fabric().nodes()) {
            if (n.isHost()) {
                continue;
            }
            double in = 0;
            double out = 0;
            for (final int li : coarse.fabric().linksOf(n.index())) {
                final PortCounters c = coarse.counters().expected(coarse.fabric().link(li).portOf(n.index()), 0, SECONDS);
                in += c.counter("rx_bytes");
                out += c.counter("tx_bytes");
            }
            assertThat(out).as("bytes out of %s", n.name()).isCloseTo(in, within(1e-6 * Math.max(1, in)));
        }
    }

    @Test
    void aNegativeGridIsRefused() {
        final Twin twin = Twin.healthy(scenario(MIXED), ModelParams.defaults());
        Assertions.assertThatThrownBy(() -> twin.simulation().setCompletionGrid(-1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("completion grid");
    }
}
