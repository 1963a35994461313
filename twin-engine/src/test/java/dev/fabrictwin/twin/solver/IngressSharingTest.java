package dev.fabrictwin.twin.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * Per-ingress sharing on a hand-computed fabric: ingress links 0 (one flow) and 1 (three flows) feed egress 2 of
 * 100 b/s.
 */
class IngressSharingTest {

    private static double[] solve(final double ingress0Capacity) {
        final RateAllocator a = new RateAllocator(new double[] {ingress0Capacity, 100, 100});
        final IngressSharing sharing = new IngressSharing(3);
        final int lone = a.addFlow(sharing.expand(new int[] {0, 2}, a), Double.POSITIVE_INFINITY);
        final int[] crowd = new int[3];
        for (int i = 0; i < crowd.length; i++) {
            crowd[i] = a.addFlow(sharing.expand(new int[] {1, 2}, a), Double.POSITIVE_INFINITY);
        }
        a.resolve();
        int rounds = 0;
        while (sharing.update(a)) {
            a.resolve();
            assertThat(++rounds).as("rounds to converge").isLessThan(5);
        }
        return new double[] {a.rate(lone), a.rate(crowd[0]), a.rate(crowd[1]), a.rate(crowd[2]), a.load(2)};
    }

    /** Each ingress gets half the egress: the lone flow 50, the three others 50/3 each (per flow it would be 25 each). */
    @Test
    void aCongestedEgressIsSharedPerIngressThenPerFlow() {
        final double[] r = solve(100);
        assertThat(r[0]).isCloseTo(50, within(1e-6));
        for (int i = 1; i <= 3; i++) {
            assertThat(r[i]).isCloseTo(50.0 / 3, within(1e-6));
        }
        assertThat(r[4]).isCloseTo(100, within(1e-6));
    }

    /** An ingress limited upstream (10) leaves the rest of the egress to the other: 90/3 each, as per flow. */
    @Test
    void anIngressLimitedElsewhereLeavesItsShareToTheOthers() {
        final double[] r = solve(10);
        assertThat(r[0]).isCloseTo(10, within(1e-6));
        for (int i = 1; i <= 3; i++) {
            assertThat(r[i]).isCloseTo(30, within(1e-6));
        }
    }

    /** An egress fed by one ingress never gets a level: its flows share it per flow. */
    @Test
    void aSingleIngressSharesPerFlow() {
        final RateAllocator a = new RateAllocator(new double[] {100, 100});
        final IngressSharing sharing = new IngressSharing(2);
        final int f = a.addFlow(sharing.expand(new int[] {0, 1}, a), Double.POSITIVE_INFINITY);
        final int g = a.addFlow(sharing.expand(new int[] {0, 1}, a), 30);
        a.resolve();
        assertThat(sharing.update(a)).isFalse();
        assertThat(a.rate(f)).isCloseTo(70, within(1e-9));
        assertThat(a.rate(g)).isCloseTo(30, within(1e-9));
    }
}
