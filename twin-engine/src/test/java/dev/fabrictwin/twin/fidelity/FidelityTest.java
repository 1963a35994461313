package dev.fabrictwin.twin.fidelity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.scenario.Routing;

/**
 * The twin against packet-level reference runs (docs/fidelity.md, where the tolerances are explained).
 */
class FidelityTest {

    private static final int SEEDS = 801;

    private static ReferenceCase reference(final String name) {
        return ReferenceCase.all().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /** Flows that never share a link run at line rate less the headers and the reverse direction's ACKs. */
    @Test
    void uncongestedRingsAndAnIncastAreNicBoundWithin2Percent() {
        for (final String name : new String[] {"ring 64M", "ring 256M", "incast 16M"}) {
            final ReferenceCase c = reference(name);
            final double ratio = Fidelity.run(c, 1, Routing.Mode.ECMP).makespanMs() / c.referenceMs();
            assertThat(ratio).as(name).isCloseTo(1.0, within(0.02));
        }
    }

    /**
     * Cross-leaf rings: the makespan is set by the busiest uplink's collisions, which depend on the hash. The twin's
     * median over 801 seeds is within 5 % of the median of the reference's five and their ranges overlap (both medians
     * Harrell–Davis: makespans come in steps of one flow's time, see {@link ReferenceCase#median}). Before the offered load
     * followed what links deliver, colliding flows paused the uplink feeding them and these came out 2.5–3× slow.
     */
    @Test
    void crossLeafRingsMatchTheReferenceOverHashSeeds() {
        for (final String name : new String[] {"ringx 64M 1:1", "ringx 64M 2:1"}) {
            final Fidelity.Sweep s = Fidelity.sweep(reference(name), SEEDS);
            assertThat(s.ratio()).as(name + " twin median / reference median").isCloseTo(1.0, within(0.05));
            assertThat(s.rangesOverlap()).as(name + " ranges overlap").isTrue();
        }
    }

    /**
     * All-to-all: the makespan is a tail of NICs held back by PFC's head-of-line blocking (docs/fidelity.md). With no
     * congestion control a congested egress is shared among its ingress ports and pauses each port for what it offers
     * beyond its share, which stops every queue pair of the NIC behind it (one FIFO); the NICs that crowd a hot uplink
     * finish last. The twin's median over five seeds (under 0.1 s each) is within 5 % of the reference's and the ranges
     * overlap (6.74–7.97 ms against 7.0–7.5). Before the per-ingress pauses it sat at 0.87.
     */
    @Test
    void allToAllMatchesTheReferenceOverHashSeeds() {
        final Fidelity.Sweep s = Fidelity.sweep(reference("a2a 64M 1:1"), 5);
        assertThat(s.ratio()).as("a2a twin median / reference median").isCloseTo(1.0, within(0.05));
        assertThat(s.rangesOverlap()).as("a2a ranges overlap").isTrue();
    }

    /** Spraying splits every flow over all uplinks: no collisions, so no seed matters and a ringx runs at line rate. */
    @Test
    void sprayedCrossLeafRingRunsAtLineRate() {
        final ReferenceCase c = reference("ringx 64M 1:1");
        final double sprayed = Fidelity.run(c, 1, Routing.Mode.SPRAY).makespanMs();
        assertThat(sprayed / 5.545).isCloseTo(1.0, within(0.02)); // reference with spraying: 5.545 ms
        assertThat(Fidelity.run(c, 2, Routing.Mode.SPRAY).makespanMs()).isCloseTo(sprayed, within(1e-9));
    }
}
