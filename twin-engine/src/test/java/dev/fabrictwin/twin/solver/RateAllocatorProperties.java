package dev.fabrictwin.twin.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Random networks built from a seed (so a failure report's seed rebuilds the exact network): up to 300 links
 * and 300 flows of 0-6 links drawn from narrow windows so flows share links, a few down links, demand caps that
 * often tie with fair shares. Rates are compared relative to the larger value, floored at 1 Gbit/s, the
 * smallest non-zero capacity generated.
 */
class RateAllocatorProperties {

    private static final double G = 1e9;
    private static final double INF = Double.POSITIVE_INFINITY;
    private static final double REL = 1e-9;
    private static final double[] ROUND_CAPACITIES = {10 * G, 25 * G, 40 * G, 100 * G, 400 * G};
    private static final double[] ROUND_DEMANDS = {5 * G, 10 * G, 12.5 * G, 20 * G, 50 * G};

    @Property(tries = 300)
    void shouldNeverLoadALinkBeyondItsCapacity(@ForAll final long seed) {
        final Model model = Model.random(new Random(seed));
        final RateAllocator allocator = model.build();

        allocator.solve();

        for (int l = 0; l < model.capacities.length; l++) {
            assertThat(allocator.load(l)).as("load of link %d", l)
                .isLessThanOrEqualTo(model.capacities[l] * (1 + REL));
        }
        assertLoadsAreSumsOfRates(model, allocator);
    }

    @Property(tries = 300)
    void shouldLeaveEveryFlowAtItsCapOrAtTheTopOfASaturatedLink(@ForAll final long seed) {
        final Model model = Model.random(new Random(seed));
        final RateAllocator allocator = model.build();

        allocator.solve();

        assertMaxMinFair(model, allocator);
    }

    @Property(tries = 100)
    void shouldGiveTheSameRatesForTheSameInput(@ForAll final long seed) {
        final Model model = Model.random(new Random(seed));
        final RateAllocator first = model.build();
        final RateAllocator second = model.build();

        first.solve();
        second.solve();
        final double[] before = rates(model, first);
        first.solve();

        assertThat(rates(model, second)).containsExactly(before);
        assertThat(rates(model, first)).containsExactly(before);
        for (final int id : model.flows.keySet()) {
            assertThat(second.bottleneck(id)).isEqualTo(first.bottleneck(id));
        }
    }

    @Property(tries = 300)
    void shouldResolveToTheRatesOfAFreshSolveAfterAnySequenceOfChanges(@ForAll final long seed) {
        final Random random = new Random(seed);
        final Model model = Model.random(random);
        final RateAllocator allocator = model.build();
        allocator.solve();

        final int steps = 1 + random.nextInt(30);
        for (int step = 0; step < steps; step++) {
            model.applyRandomChange(random, allocator);
            if (random.nextInt(3) == 0) {
                resolveAndCompare(model, allocator);
            }
        }
        resolveAndCompare(model, allocator);
    }

    private static void resolveAndCompare(final Model model, final RateAllocator allocator) {
        allocator.resolve();
        final RateAllocator fresh = new RateAllocator(model.capacities);
        final Map<Integer, Integer> freshIds = new TreeMap<>();
        model.flows.forEach((id, flow) -> freshIds.put(id, fresh.addFlow(flow.path, flow.demand)));
        fresh.solve();

        assertThat(allocator.flowCount()).isEqualTo(model.flows.size());
        freshIds.forEach((id, freshId) -> assertClose("rate of flow " + id, allocator.rate(id), fresh.rate(freshId)));
        for (int l = 0; l < model.capacities.length; l++) {
            assertThat(allocator.capacity(l)).isEqualTo(model.capacities[l]);
            assertClose("load of link " + l, allocator.load(l), fresh.load(l));
        }
        assertMaxMinFair(model, allocator);
    }

    /** Feasible, and every flow is at its cap or has a saturated link where nobody is faster. */
    private static void assertMaxMinFair(final Model model, final RateAllocator allocator) {
        final double[] maxOnLink = new double[model.capacities.length];
        model.flows.forEach((id, flow) -> {
            for (final int l : flow.path) {
                maxOnLink[l] = Math.max(maxOnLink[l], allocator.rate(id));
            }
        });
        model.flows.forEach((id, flow) -> {
            final double rate = allocator.rate(id);
            assertThat(rate).as("rate of flow %d", id).isGreaterThanOrEqualTo(0).isLessThanOrEqualTo(flow.demand * (1 + REL));
            if (flow.path.length == 0) {
                assertThat(rate).isEqualTo(flow.demand == INF ? 0 : flow.demand);
                return;
            }
            final boolean atCap = rate >= flow.demand * (1 - REL);
            boolean topOfSaturatedLink = false;
            for (final int l : flow.path) {
                topOfSaturatedLink |= allocator.isSaturated(l) && rate >= maxOnLink[l] * (1 - REL);
            }
            assertThat(atCap || topOfSaturatedLink).as("flow %d at %s has neither cap nor bottleneck", id, rate).isTrue();
            final int bottleneck = allocator.bottleneck(id);
            if (bottleneck >= 0) {
                assertThat(flow.path).contains(bottleneck);
                assertThat(allocator.isSaturated(bottleneck)).as("bottleneck %d of flow %d", bottleneck, id).isTrue();
                assertThat(rate).isGreaterThanOrEqualTo(maxOnLink[bottleneck] * (1 - REL));
            } else {
                assertThat(atCap).as("flow %d reports no bottleneck but is below its cap", id).isTrue();
            }
        });
        for (int l = 0; l < model.capacities.length; l++) {
            assertThat(allocator.load(l)).isLessThanOrEqualTo(model.capacities[l] * (1 + REL));
        }
    }

    private static void assertLoadsAreSumsOfRates(final Model model, final RateAllocator allocator) {
        final double[] sums = new double[model.capacities.length];
        model.flows.forEach((id, flow) -> {
            for (final int l : flow.path) {
                sums[l] += allocator.rate(id);
            }
        });
        for (int l = 0; l < sums.length; l++) {
            assertClose("load of link " + l, allocator.load(l), sums[l]);
        }
    }

    /** A flow of w members is w identical flows: same total rate, same loads, after a solve and after resolves. */
    @Property(tries = 300)
    void shouldAllocateAWeightedFlowAsThatManyIdenticalFlows(@ForAll final long seed) {
        final Random random = new Random(seed);
        final Model model = Model.random(random);
        final RateAllocator weighted = new RateAllocator(model.capacities.clone());
        final RateAllocator copies = new RateAllocator(model.capacities.clone());
        final Map<Integer, int[]> copiesOf = new TreeMap<>();
        for (final Flow flow : model.initial) {
            final int members = 1 + random.nextInt(5);
            final int id = weighted.addFlow(flow.path, flow.demand * members, members);
            final int[] ids = new int[members];
            for (int m = 0; m < members; m++) {
                ids[m] = copies.addFlow(flow.path, flow.demand);
            }
            copiesOf.put(id, ids);
        }
        weighted.solve();
        for (int step = 0; step < 4; step++) {
            copies.solve();
            copiesOf.forEach((id, ids) -> {
                double sum = 0;
                for (final int c : ids) {
                    sum += copies.rate(c);
                }
                assertClose("rate of weighted flow " + id, weighted.rate(id), sum);
            });
            for (int l = 0; l < model.capacities.length; l++) {
                assertClose("load of link " + l, weighted.load(l), copies.load(l));
            }
            final int l = random.nextInt(model.capacities.length);
            final double next = random.nextBoolean() ? model.capacities[l] / 2 : Model.capacity(random);
            weighted.setCapacity(l, next);
            copies.setCapacity(l, next);
            weighted.resolve();
        }
    }

    private static void assertClose(final String what, final double actual, final double expected) {
        final double scale = Math.max(G, Math.max(Math.abs(actual), Math.abs(expected)));
        assertThat(Math.abs(actual - expected)).as("%s: %s vs %s", what, actual, expected).isLessThanOrEqualTo(REL * scale);
    }

    private static double[] rates(final Model model, final RateAllocator allocator) {
        return model.flows.keySet().stream().mapToDouble(allocator::rate).toArray();
    }

    private record Flow(int[] path, double demand) {
    }

    /** The test's own record of the network, mirrored into allocators. */
    private static final class Model {
        final double[] capacities;
        final Map<Integer, Flow> flows = new TreeMap<>();
        private final List<Flow> initial = new ArrayList<>();

        private Model(final double[] capacities) {
            this.capacities = capacities;
        }

        static Model random(final Random random) {
            final int links = 1 + random.nextInt(random.nextBoolean() ? 12 : 300);
            final double[] capacities = new double[links];
            for (int l = 0; l < links; l++) {
                capacities[l] = capacity(random);
            }
            final Model model = new Model(capacities);
            final int flows = random.nextInt(random.nextBoolean() ? 24 : 300);
            for (int f = 0; f < flows; f++) {
                model.initial.add(new Flow(path(random, links), demand(random)));
            }
            return model;
        }

        RateAllocator build() {
            final RateAllocator allocator = new RateAllocator(capacities);
            flows.clear();
            for (final Flow flow : initial) {
                flows.put(allocator.addFlow(flow.path, flow.demand), flow);
            }
            return allocator;
        }

        void applyRandomChange(final Random random, final RateAllocator allocator) {
            final int links = capacities.length;
            final List<Integer> ids = new ArrayList<>(flows.keySet());
            switch (random.nextInt(5)) {
                case 0, 1 -> {
                    final int l = random.nextInt(links);
                    final double next = switch (random.nextInt(4)) {
                        case 0 -> 0;
                        case 1 -> capacities[l] / 2;
                        case 2 -> capacities[l] == 0 ? 100 * G : capacities[l] * 2;
                        default -> capacity(random);
                    };
                    capacities[l] = next;
                    allocator.setCapacity(l, next);
                }
                case 2 -> {
                    if (!ids.isEmpty()) {
                        final int id = ids.get(random.nextInt(ids.size()));
                        final Flow changed = new Flow(flows.get(id).path, demand(random));
                        flows.put(id, changed);
                        allocator.setDemand(id, changed.demand);
                    }
                }
                case 3 -> {
                    final Flow added = new Flow(path(random, links), demand(random));
                    flows.put(allocator.addFlow(added.path, added.demand), added);
                }
                default -> {
                    if (!ids.isEmpty()) {
                        final int id = ids.get(random.nextInt(ids.size()));
                        flows.remove(id);
                        allocator.removeFlow(id);
                    }
                }
            }
        }

        private static double capacity(final Random random) {
            final int kind = random.nextInt(12);
            if (kind == 0) {
                return 0;
            }
            return kind < 6 ? ROUND_CAPACITIES[random.nextInt(ROUND_CAPACITIES.length)] : G + random.nextDouble() * 399 * G;
        }

        private static double demand(final Random random) {
            return switch (random.nextInt(6)) {
                case 0 -> ROUND_DEMANDS[random.nextInt(ROUND_DEMANDS.length)];
                case 1 -> random.nextInt(20) == 0 ? 0 : G + random.nextDouble() * 60 * G;
                default -> INF;
            };
        }

        /** Distinct links from a narrow window, so flows overlap the way paths through one pod do. */
        private static int[] path(final Random random, final int links) {
            final int span = Math.min(links, 2 + random.nextInt(12));
            final int start = random.nextInt(links - span + 1);
            final int length = Math.min(span, random.nextInt(7));
            final int[] window = new int[span];
            for (int i = 0; i < span; i++) {
                window[i] = start + i;
            }
            for (int i = 0; i < length; i++) {
                final int j = i + random.nextInt(span - i);
                final int swap = window[i];
                window[i] = window[j];
                window[j] = swap;
            }
            final int[] path = new int[length];
            System.arraycopy(window, 0, path, 0, length);
            return path;
        }
    }
}
