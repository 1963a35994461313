package dev.fabrictwin.twin.sim;

import static dev.fabrictwin.twin.TwinFixtures.scenario;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.LinkState;
import dev.fabrictwin.twin.model.ModelParams;

import org.assertj.core.api.Assertions;

/** Invariants of the twin over random fabrics, jobs, faults and seeds (STYLE habit 5). */
class TwinProperties {

    private static final String[] PATTERNS = {"ring-allreduce", "tree-allreduce", "hierarchical-allreduce", "all-to-all",
        "pipeline", "background"};
    private static final String[] FAULTS = {"LINK_DEGRADED", "STRAGGLER", "PFC_STORM", "UNEXPECTED_TRAFFIC", "LINK_DOWN",
        "ECMP_IMBALANCE"};

    /** A random small scenario; every choice derives from the arguments, so a failing case replays. */
    static Twin twin(final long seed, final int spines, final int leaves, final int hostsPerLeaf, final int nics,
                     final int pattern, final int fault) {
        final int hosts = leaves * hostsPerLeaf;
        final String yaml = String.format(Locale.ROOT, """
            name: prop
            seed: %d
            fabric: {kind: spine-leaf, spines: %d, leaves: %d, hostsPerLeaf: %d, nicsPerHost: %d, linkSpeed: 100G}
            jobs:
              - {id: a, hosts: %d, pattern: %s, bytesPerIteration: 2GB, iterationPeriod: 1s, commFraction: 0.4}
            faults:
              - {type: %s, target: {device: %s, %s}, start: 1s, end: 3s}
            """, seed, spines, leaves, hostsPerLeaf, nics, Math.max(2, hosts), PATTERNS[pattern], FAULTS[fault],
            FAULTS[fault].equals("ECMP_IMBALANCE") ? "leaf-0" : FAULTS[fault].startsWith("LINK") ? "leaf-0" : "host-1",
            FAULTS[fault].equals("ECMP_IMBALANCE") ? "port: eth0" : FAULTS[fault].startsWith("LINK") ? "peer: spine-0" : "port: nic0")
            .replace("{device: leaf-0, port: eth0}", "{device: leaf-0}");
        return Twin.withFaults(scenario(yaml), ModelParams.defaults());
    }

    @Property(tries = 40)
    void noLinkEverCarriesMoreThanItsCapacity(@ForAll @LongRange(min = 1, max = 1_000) final long seed,
                                              @ForAll @IntRange(min = 1, max = 3) final int spines,
                                              @ForAll @IntRange(min = 1, max = 3) final int leaves,
                                              @ForAll @IntRange(min = 1, max = 3) final int hostsPerLeaf,
                                              @ForAll @IntRange(min = 1, max = 2) final int nics,
                                              @ForAll @IntRange(min = 0, max = 5) final int pattern,
                                              @ForAll @IntRange(min = 0, max = 5) final int fault) {
        final Twin t = twin(seed, spines, leaves, Math.max(hostsPerLeaf, leaves == 1 ? 2 : 1), nics, pattern, fault);
        t.simulation().runUntil(4);

        for (int d = 0; d < t.fabric().directedLinkCount(); d++) {
            for (final LinkState s : t.simulation().timeline().states(d)) {
                assertThat(s.rateBps()).isLessThanOrEqualTo(s.capacityBps() * (1 + 1e-9) + 1e-6);
            }
        }
    }

    @Property(tries = 40)
    void everySwitchForwardsWhatItReceivesAndCountersOnlyGrow(
            @ForAll @LongRange(min = 1, max = 1_000) final long seed,
            @ForAll @IntRange(min = 1, max = 3) final int spines,
            @ForAll @IntRange(min = 2, max = 3) final int leaves,
            @ForAll @IntRange(min = 1, max = 3) final int hostsPerLeaf,
            @ForAll @IntRange(min = 0, max = 5) final int pattern,
            @ForAll @IntRange(min = 0, max = 5) final int fault,
            @ForAll @IntRange(min = 1, max = 350) final int cutCentis) {
        final Twin t = twin(seed, spines, leaves, hostsPerLeaf, 1, pattern, fault);
        t.simulation().runUntil(4);
        final CounterIntegrator counters = t.counters();
        final double cut = cutCentis / 100.0;

        for (final Node n : t.fabric().nodes()) {
            if (n.isHost()) {
                continue;
            }
            double in = 0;
            double out = 0;
            for (final int li : t.fabric().linksOf(n.index())) {
                final PortRef p = t.fabric().link(li).portOf(n.index());
                final PortCounters first = counters.expected(p, 0, cut);
                final PortCounters second = counters.expected(p, cut, 4);
                in += first.counter("rx_bytes") + second.counter("rx_bytes");
                out += first.counter("tx_bytes") + second.counter("tx_bytes");
                for (final PortCounters c : List.of(first, second)) {
                    assertThat(c.counters().values()).allSatisfy(v -> assertThat(v).isGreaterThanOrEqualTo(0.0));
                }
            }
            assertThat(out).as("bytes out of %s", n.name()).isCloseTo(in, Assertions.within(1e-6 * Math.max(1, in)));
        }
    }

    @Property(tries = 15)
    void theSameSeedGivesTheSameTwin(@ForAll @LongRange(min = 1, max = 1_000) final long seed,
                                     @ForAll @IntRange(min = 0, max = 5) final int pattern,
                                     @ForAll @IntRange(min = 0, max = 5) final int fault) {
        final Twin a = twin(seed, 2, 2, 2, 2, pattern, fault);
        final Twin b = twin(seed, 2, 2, 2, 2, pattern, fault);
        a.simulation().runUntil(4);
        b.simulation().runUntil(4);

        assertThat(a.simulation().iterations()).isEqualTo(b.simulation().iterations());
        for (int d = 0; d < a.fabric().directedLinkCount(); d++) {
            assertThat(a.simulation().timeline().states(d)).isEqualTo(b.simulation().timeline().states(d));
        }
    }
}
