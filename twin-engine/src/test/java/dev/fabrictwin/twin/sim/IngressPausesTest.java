package dev.fabrictwin.twin.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class IngressPausesTest {

    @Test
    void oneCongestedEgressIsSharedMaxMinAmongItsIngressPorts() {
        // 10 fits; the two others share the remaining 50 at a level of 25 each and are paused for their excess
        final double[] share = IngressPauses.unpausedShares(new double[][] {{10, 30, 0, 60}}, new double[] {60},
            new double[1], 4);

        assertThat(share).containsExactly(new double[] {1, 25.0 / 30, 1, 25.0 / 60}, within(1e-9));
    }

    @Test
    void aPortFeedingTwoCongestedEgressesLeavesNeitherIdleWhileOthersArePausedForIt() {
        // port A feeds both egresses; B only e1 (capacity 60); D and E only e2 (capacity 40).
        final double[][] offered = {{60, 60, 0, 0}, {40, 0, 30, 30}};
        final double[] capacity = {60, 40};

        final double[] f = IngressPauses.unpausedShares(offered, capacity, new double[2], 4);

        // the worse egress alone would pause A to 1/3 and B to 1/2, and e1 would carry 50 of its 60; here each
        // congested egress sends at its capacity, as a queue that never empties makes it
        assertThat(60 * f[0] + 60 * f[1]).isCloseTo(60, within(1e-6));
        assertThat(40 * f[0] + 30 * f[2] + 30 * f[3]).isCloseTo(40, within(1e-6));
        assertThat(f[1]).isGreaterThan(0.5);
        // every paused port sits at XOFF: 1/f is the sum of the prices of what it feeds, so B's and D's prices give A's
        final double w1 = 1 / (f[1] * 60);
        final double w2 = 1 / (f[2] * 30);
        assertThat(1 / f[0]).isCloseTo(w1 * 60 + w2 * 40, within(1e-6));
        assertThat(f[2]).isCloseTo(f[3], within(1e-12));
    }

    @Test
    void aWarmStartFindsTheSameShares() {
        final double[][] offered = {{60, 60, 0, 0}, {40, 0, 30, 30}};
        final double[] price = new double[2];
        final double[] cold = IngressPauses.unpausedShares(offered, new double[] {60, 40}, price, 4);

        final double[] warm = IngressPauses.unpausedShares(offered, new double[] {60, 40}, price.clone(), 4);

        assertThat(warm).containsExactly(cold, within(1e-9));
    }

    @Test
    void anEgressOfferedNoMoreThanItsCapacityPausesNoOne() {
        final double[] price = {5};

        final double[] share = IngressPauses.unpausedShares(new double[][] {{10, 20}}, new double[] {60}, price, 2);

        assertThat(share).containsExactly(1, 1);
        assertThat(price[0]).isZero();
    }

    @Test
    void anEgressThatSendsNothingStopsItsPortsAndTheOthersShareWithoutThem() {
        // e1 is stopped (capacity 0): port A, which feeds it, is paused for good and offers e2 nothing; B alone fits e2
        final double[][] offered = {{50, 0}, {50, 50}};

        final double[] share = IngressPauses.unpausedShares(offered, new double[] {0, 60}, new double[2], 2);

        assertThat(share).containsExactly(0, 1);
    }

    @Test
    void aPriceTakenBackOutThatRoundsBelowZeroStillLeavesThePortUnpausedAtZero() {
        // Σ w·o minus one egress's w·o can round to -1e-18: the port is then unpaused, not a huge negative load
        final double w = IngressPauses.price(new double[] {50, 50}, new double[] {-1e-18, 0}, 60, 0);

        assertThat(w).isCloseTo(1.0 / 30, within(1e-9)); // each port sends 1/(w·50)·50 = 30
    }
}
