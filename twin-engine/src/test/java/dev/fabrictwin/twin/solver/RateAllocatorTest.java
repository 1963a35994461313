package dev.fabrictwin.twin.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Hand-computed allocations; rates in Gbit/s scaled to bit/s. */
class RateAllocatorTest {

    private static final double G = 1e9;
    private static final double INF = Double.POSITIVE_INFINITY;
    /** 1 bit/s: far below anything a link model distinguishes, far above double rounding at these magnitudes. */
    private static final double TOL = 1.0;

    @Test
    void shouldSplitOneLinkEquallyBetweenTwoFlows() {
        final RateAllocator allocator = new RateAllocator(new double[] {100 * G});
        final int f1 = allocator.addFlow(new int[] {0}, INF);
        final int f2 = allocator.addFlow(new int[] {0}, INF);

        allocator.solve();

        assertThat(allocator.rate(f1)).isCloseTo(50 * G, within(TOL));
        assertThat(allocator.rate(f2)).isCloseTo(50 * G, within(TOL));
        assertThat(allocator.load(0)).isCloseTo(100 * G, within(TOL));
        assertThat(allocator.isSaturated(0)).isTrue();
        assertThat(allocator.bottleneck(f1)).isEqualTo(0);
    }

    @Test
    void shouldGiveADemandCappedFlowItsCapAndShareTheRest() {
        final RateAllocator allocator = new RateAllocator(new double[] {100 * G});
        final int capped = allocator.addFlow(new int[] {0}, 10 * G);
        final int f2 = allocator.addFlow(new int[] {0}, INF);
        final int f3 = allocator.addFlow(new int[] {0}, INF);

        allocator.solve();

        assertThat(allocator.rate(capped)).isEqualTo(10 * G);
        assertThat(allocator.rate(f2)).isCloseTo(45 * G, within(TOL));
        assertThat(allocator.rate(f3)).isCloseTo(45 * G, within(TOL));
        assertThat(allocator.bottleneck(capped)).isEqualTo(-1);
        assertThat(allocator.bottleneck(f2)).isEqualTo(0);
    }

    @Test
    void shouldSolveTheClassicTwoLinkExample() {
        final ClassicNetwork net = new ClassicNetwork();

        net.allocator.solve();

        net.assertRates(5 * G, 5 * G, 95 * G);
        assertThat(net.allocator.bottleneck(net.f1)).isEqualTo(ClassicNetwork.A);
        assertThat(net.allocator.bottleneck(net.f2)).isEqualTo(ClassicNetwork.A);
        assertThat(net.allocator.bottleneck(net.f3)).isEqualTo(ClassicNetwork.B);
        assertThat(net.allocator.isSaturated(ClassicNetwork.B)).isTrue();
        assertThat(net.allocator.load(ClassicNetwork.B)).isCloseTo(100 * G, within(TOL));
    }

    @Test
    void shouldFillAParkingLotLevelByLevel() {
        // Link 0 (10G): long, a. Link 1 (20G): long, b. Link 2 (40G): long, c, d.
        // Link 0 saturates first at 5 (long, a); link 1 then leaves b 15; link 2 leaves c, d (40-5)/2 = 17.5.
        final RateAllocator allocator = new RateAllocator(new double[] {10 * G, 20 * G, 40 * G});
        final int longFlow = allocator.addFlow(new int[] {0, 1, 2}, INF);
        final int a = allocator.addFlow(new int[] {0}, INF);
        final int b = allocator.addFlow(new int[] {1}, INF);
        final int c = allocator.addFlow(new int[] {2}, INF);
        final int d = allocator.addFlow(new int[] {2}, INF);

        allocator.solve();

        assertThat(allocator.rate(longFlow)).isCloseTo(5 * G, within(TOL));
        assertThat(allocator.rate(a)).isCloseTo(5 * G, within(TOL));
        assertThat(allocator.rate(b)).isCloseTo(15 * G, within(TOL));
        assertThat(allocator.rate(c)).isCloseTo(17.5 * G, within(TOL));
        assertThat(allocator.rate(d)).isCloseTo(17.5 * G, within(TOL));
        assertThat(allocator.bottleneck(b)).isEqualTo(1);
    }

    @Test
    void shouldGiveFlowsOnADownLinkZeroAndFreeTheirShareForOthers() {
        // Link 0 is down; f1 crosses it and link 1, f2 only link 1.
        final RateAllocator allocator = new RateAllocator(new double[] {0, 100 * G});
        final int f1 = allocator.addFlow(new int[] {0, 1}, INF);
        final int f2 = allocator.addFlow(new int[] {1}, INF);

        allocator.solve();

        assertThat(allocator.rate(f1)).isZero();
        assertThat(allocator.rate(f2)).isCloseTo(100 * G, within(TOL));
        assertThat(allocator.bottleneck(f1)).isEqualTo(0);
        assertThat(allocator.isSaturated(0)).isTrue();
    }

    @Test
    void shouldMoveTrafficOffALinkTakenDownBeforeResolve() {
        final RateAllocator allocator = new RateAllocator(new double[] {100 * G, 100 * G});
        final int f1 = allocator.addFlow(new int[] {0, 1}, INF);
        final int f2 = allocator.addFlow(new int[] {1}, INF);
        allocator.solve();
        assertThat(allocator.rate(f1)).isCloseTo(50 * G, within(TOL));

        allocator.setCapacity(0, 0);
        allocator.resolve();

        assertThat(allocator.rate(f1)).isZero();
        assertThat(allocator.rate(f2)).isCloseTo(100 * G, within(TOL));
        assertThat(allocator.load(0)).isZero();
    }

    @Test
    void shouldMatchHandComputedRatesAfterHalvingTheSharedBottleneck() {
        final ClassicNetwork net = new ClassicNetwork();
        net.allocator.solve();

        net.allocator.setCapacity(ClassicNetwork.A, 5 * G);
        final SolveStats stats = net.allocator.resolve();

        net.assertRates(2.5 * G, 2.5 * G, 97.5 * G);
        assertThat(stats.flowsSolved()).isBetween(1, 3);
        assertThat(net.allocator.capacity(ClassicNetwork.A)).isEqualTo(5 * G);
    }

    @Test
    void shouldMatchHandComputedRatesAfterHalvingTheWideLink() {
        final ClassicNetwork net = new ClassicNetwork();
        net.allocator.solve();

        net.allocator.setCapacity(ClassicNetwork.B, 50 * G);
        net.allocator.resolve();

        net.assertRates(5 * G, 5 * G, 45 * G);
    }

    @Test
    void shouldRedistributeAfterRemoveFlow() {
        final RateAllocator allocator = new RateAllocator(new double[] {90 * G});
        final int f1 = allocator.addFlow(new int[] {0}, INF);
        final int f2 = allocator.addFlow(new int[] {0}, INF);
        final int f3 = allocator.addFlow(new int[] {0}, INF);
        allocator.solve();
        assertThat(allocator.rate(f1)).isCloseTo(30 * G, within(TOL));

        allocator.removeFlow(f3);
        allocator.resolve();

        assertThat(allocator.flowCount()).isEqualTo(2);
        assertThat(allocator.rate(f1)).isCloseTo(45 * G, within(TOL));
        assertThat(allocator.rate(f2)).isCloseTo(45 * G, within(TOL));
        assertThat(allocator.load(0)).isCloseTo(90 * G, within(TOL));
    }

    @Test
    void shouldShareWithAFlowAddedBeforeResolve() {
        final ClassicNetwork net = new ClassicNetwork();
        net.allocator.solve();

        // A fourth flow on B: f3 and f4 split B's remaining 95.
        final int f4 = net.allocator.addFlow(new int[] {ClassicNetwork.B}, INF);
        assertThat(net.allocator.rate(f4)).isZero();
        net.allocator.resolve();

        net.assertRates(5 * G, 5 * G, 47.5 * G);
        assertThat(net.allocator.rate(f4)).isCloseTo(47.5 * G, within(TOL));
    }

    @Test
    void shouldHandCapacityToOthersWhenADemandIsLowered() {
        final ClassicNetwork net = new ClassicNetwork();
        net.allocator.solve();

        // f2 now wants 1G: f1 gets the other 9G of A, f3 gets 99G of B.
        net.allocator.setDemand(net.f2, 1 * G);
        net.allocator.resolve();

        net.assertRates(9 * G, 1 * G, 99 * G);
        assertThat(net.allocator.bottleneck(net.f2)).isEqualTo(-1);
    }

    @Test
    void shouldGiveAnEmptyPathItsFiniteDemandOrZero() {
        final RateAllocator allocator = new RateAllocator(new double[] {10 * G});
        final int finite = allocator.addFlow(new int[0], 7 * G);
        final int unbounded = allocator.addFlow(new int[0], INF);

        allocator.solve();

        assertThat(allocator.rate(finite)).isEqualTo(7 * G);
        assertThat(allocator.rate(unbounded)).isZero();
        assertThat(allocator.bottleneck(finite)).isEqualTo(-1);
        assertThat(allocator.load(0)).isZero();
    }

    @Test
    void shouldNotCallALinkWithSlackOrWithoutFlowsSaturated() {
        final RateAllocator allocator = new RateAllocator(new double[] {100 * G, 0, 100 * G});
        allocator.addFlow(new int[] {0}, 30 * G);

        allocator.solve();

        assertThat(allocator.isSaturated(0)).isFalse();
        assertThat(allocator.isSaturated(1)).isFalse();
        assertThat(allocator.isSaturated(2)).isFalse();
        assertThat(allocator.load(0)).isEqualTo(30 * G);
    }

    @Test
    void shouldResolveOnlyTheComponentThatChanged() {
        // Two disjoint islands: links 0-1 carry f0..f2, links 2-3 carry g0..g2.
        final RateAllocator allocator = new RateAllocator(new double[] {30 * G, 60 * G, 30 * G, 60 * G});
        final int f0 = allocator.addFlow(new int[] {0, 1}, INF);
        final int f1 = allocator.addFlow(new int[] {0}, INF);
        final int f2 = allocator.addFlow(new int[] {1}, INF);
        final int g0 = allocator.addFlow(new int[] {2, 3}, INF);
        allocator.addFlow(new int[] {2}, INF);
        allocator.addFlow(new int[] {3}, INF);
        allocator.solve();
        assertThat(allocator.rate(g0)).isCloseTo(15 * G, within(TOL));

        allocator.setCapacity(0, 10 * G);
        final SolveStats stats = allocator.resolve();

        assertThat(stats.flowsSolved()).isBetween(1, 3);
        assertThat(allocator.rate(f0)).isCloseTo(5 * G, within(TOL));
        assertThat(allocator.rate(f1)).isCloseTo(5 * G, within(TOL));
        assertThat(allocator.rate(f2)).isCloseTo(55 * G, within(TOL));
        assertThat(allocator.rate(g0)).isCloseTo(15 * G, within(TOL));
    }

    @Test
    void shouldPullAFasterFixedFlowIntoTheRepairWhenAThrottledFlowIsReleased() {
        // g crosses link 0 (10G) and link 1 (100G), h only link 1: g=10, h=90. A third flow sits on link 2.
        final RateAllocator allocator = new RateAllocator(new double[] {10 * G, 100 * G, 100 * G});
        final int g = allocator.addFlow(new int[] {0, 1}, INF);
        final int h = allocator.addFlow(new int[] {1}, INF);
        allocator.addFlow(new int[] {2}, INF);
        allocator.solve();
        assertThat(allocator.rate(h)).isCloseTo(90 * G, within(TOL));

        // Re-solving g alone leaves it 10G behind h on link 1, so h must be re-solved with it, not everything.
        allocator.setCapacity(0, 1000 * G);
        final SolveStats stats = allocator.resolve();

        assertThat(allocator.rate(g)).isCloseTo(50 * G, within(TOL));
        assertThat(allocator.rate(h)).isCloseTo(50 * G, within(TOL));
        assertThat(allocator.bottleneck(g)).isEqualTo(1);
        assertThat(stats.flowsSolved()).isEqualTo(2);
    }

    @Test
    void shouldSolveNothingWhenResolvingWithoutChanges() {
        final ClassicNetwork net = new ClassicNetwork();
        net.allocator.solve();

        final SolveStats stats = net.allocator.resolve();

        assertThat(stats.flowsSolved()).isZero();
        assertThat(stats.iterations()).isZero();
        net.assertRates(5 * G, 5 * G, 95 * G);
    }

    @Test
    void shouldSolveEverythingWhenResolvingBeforeTheFirstSolve() {
        final ClassicNetwork net = new ClassicNetwork();

        final SolveStats stats = net.allocator.resolve();

        assertThat(stats.flowsSolved()).isEqualTo(3);
        assertThat(stats.linksTouched()).isEqualTo(2);
        net.assertRates(5 * G, 5 * G, 95 * G);
    }

    @Test
    void shouldCountOneIterationPerSaturatedLinkAndCappedFlow() {
        final RateAllocator allocator = new RateAllocator(new double[] {100 * G});
        allocator.addFlow(new int[] {0}, 10 * G);
        allocator.addFlow(new int[] {0}, INF);
        allocator.addFlow(new int[] {0}, INF);

        final SolveStats stats = allocator.solve();

        assertThat(stats.iterations()).isEqualTo(2);
        assertThat(stats.flowsSolved()).isEqualTo(3);
        assertThat(stats.linksTouched()).isEqualTo(1);
    }

    @Test
    void shouldKeepRatesRightThroughHeavyChurn() {
        final RateAllocator allocator = new RateAllocator(new double[] {100 * G, 100 * G, 100 * G});
        // Removed paths pile up in the path pool until it compacts; the first one moves steady's path.
        allocator.removeFlow(allocator.addFlow(new int[] {2}, INF));
        final int steady = allocator.addFlow(new int[] {0, 1}, INF);
        allocator.solve();
        for (int i = 0; i < 2_000; i++) {
            final int churn = allocator.addFlow(new int[] {0, 2}, i % 3 == 0 ? 10 * G : INF);
            if (i % 7 == 0) {
                allocator.resolve();
            }
            allocator.removeFlow(churn);
        }
        final int last = allocator.addFlow(new int[] {1, 2}, INF);

        allocator.resolve();

        assertThat(allocator.flowCount()).isEqualTo(2);
        assertThat(allocator.rate(steady)).isCloseTo(50 * G, within(TOL));
        assertThat(allocator.rate(last)).isCloseTo(50 * G, within(TOL));
        assertThat(allocator.load(0)).isCloseTo(50 * G, within(TOL));
        assertThat(allocator.load(2)).isCloseTo(50 * G, within(TOL));
    }

    @Test
    void shouldReuseTheIdOfARemovedFlow() {
        final RateAllocator allocator = new RateAllocator(new double[] {100 * G});
        allocator.addFlow(new int[] {0}, INF);
        final int removed = allocator.addFlow(new int[] {0}, INF);
        allocator.removeFlow(removed);

        final int reused = allocator.addFlow(new int[] {0}, 20 * G);
        allocator.resolve();

        assertThat(reused).isEqualTo(removed);
        assertThat(allocator.rate(reused)).isEqualTo(20 * G);
        assertThat(allocator.flowCount()).isEqualTo(2);
    }

    @Test
    void shouldCopyTheCapacityArray() {
        final double[] capacities = {100 * G};
        final RateAllocator allocator = new RateAllocator(capacities);
        final int f = allocator.addFlow(new int[] {0}, INF);

        capacities[0] = 1 * G;
        allocator.solve();

        assertThat(allocator.linkCount()).isEqualTo(1);
        assertThat(allocator.rate(f)).isEqualTo(100 * G);
    }

    @Test
    void shouldRejectInvalidInputWithAOneLineReason() {
        final RateAllocator allocator = new RateAllocator(new double[] {100 * G, 100 * G});
        final int f = allocator.addFlow(new int[] {0}, INF);
        allocator.removeFlow(f);

        assertThatThrownBy(() -> allocator.addFlow(new int[] {2}, INF))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("link 2 out of range [0, 2)");
        assertThatThrownBy(() -> allocator.addFlow(new int[] {0, 1, 0}, INF))
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("path crosses link 0 twice");
        assertThatThrownBy(() -> allocator.addFlow(new int[] {0}, -1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("demand cap must be >= 0");
        assertThatThrownBy(() -> allocator.addFlow(new int[] {0}, Double.NaN))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("demand cap must be >= 0");
        assertThatThrownBy(() -> allocator.setCapacity(0, INF))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finite and >= 0");
        assertThatThrownBy(() -> allocator.setCapacity(-1, G))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("link -1 out of range [0, 2)");
        assertThatThrownBy(() -> allocator.rate(f))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("unknown flow " + f);
        assertThatThrownBy(() -> allocator.removeFlow(f))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("unknown flow " + f);
        assertThatThrownBy(() -> new RateAllocator(new double[] {-1}))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finite and >= 0");
        assertThat(allocator.flowCount()).isZero();
    }

    /** Link A (10G) shared by f1 and f2; link B (100G) shared by f2 and f3. */
    private static final class ClassicNetwork {
        static final int A = 0;
        static final int B = 1;

        final RateAllocator allocator = new RateAllocator(new double[] {10 * G, 100 * G});
        final int f1 = allocator.addFlow(new int[] {A}, INF);
        final int f2 = allocator.addFlow(new int[] {A, B}, INF);
        final int f3 = allocator.addFlow(new int[] {B}, INF);

        void assertRates(final double r1, final double r2, final double r3) {
            assertThat(allocator.rate(f1)).isCloseTo(r1, within(TOL));
            assertThat(allocator.rate(f2)).isCloseTo(r2, within(TOL));
            assertThat(allocator.rate(f3)).isCloseTo(r3, within(TOL));
        }
    }
}
