package dev.fabrictwin.twin.solver;

import java.io.Serializable;
import java.util.Arrays;

/**
 * {@link RateAllocator#resolve()}'s local repair (its class comment, "Incremental resolve"): the re-solve set
 * {@code S}, seeded with the flows that changed, is water-filled alone on what the other flows leave, then every flow
 * on a link whose capacity, flows or rates changed has its max-min certificate checked; flows that fail join
 * {@code S}, until every certificate holds or the repair costs more than starting over.
 */
final class Repair implements Serializable {

    private static final int NONE = -1;
    /** Tighter than the allocator's public promise, so accepted certificates never drift a repair beyond it. */
    private static final double CERTIFICATE_TOLERANCE = 1e-10;
    /** A repair gives up for a full solve past 1/4 of the path entries scanned or of the flows re-solved. */
    private static final int FALLBACK_DIVISOR = 4;
    private static final int MIN_PARTIAL_WORK = 4096;
    private static final int MIN_PARTIAL_FLOWS = 256;
    /** Epoch stamps are reset before a repair that could otherwise overflow them. */
    private static final int EPOCH_LIMIT = 1 << 30;

    private final FlowTable flows;
    private final FlowPaths paths;
    private final LinkFlows adjacency;
    private final WaterFill waterFill;
    /** Links whose capacity changed or that lost a flow since the last solve; flows added or whose cap changed. */
    private final ChangeSet dirty;
    private final ChangeSet changed;
    private final DemandSorter sorter = new DemandSorter();
    /** The allocator's, as of the current {@link #run}. */
    private double[] capacity;
    private double[] load;
    /** Epoch stamps: links of the current sub-solve. */
    private int[] linkMark;
    /** Highest rate on the link, cached for certificates until a solve moves rates on it. */
    private double[] highestRate;
    private boolean[] maxKnown;
    /** Links the latest sub-solve re-filled. */
    private int[] involved;
    /** Equal to {@code subsetEpoch} for members of the re-solve set. */
    private int[] flowMark = new int[0];
    /** Certificate already checked in the current round. */
    private int[] checkMark = new int[0];
    private int[] subset = new int[0];
    private int subsetSize;
    private int[] subsetOrder = new int[0];
    private int involvedCount;
    private int epoch;
    private int subsetEpoch;
    /** Stamp in {@code linkMark} of the links the latest sub-solve re-filled. */
    private int involvedEpoch;
    /** Adjacency entries this repair has scanned, against its fallback budget. */
    private long work;

    Repair(final int links, final FlowTable flows, final FlowPaths paths, final LinkFlows adjacency,
           final WaterFill waterFill, final ChangeSet dirty, final ChangeSet changed) {
        this.flows = flows;
        this.paths = paths;
        this.adjacency = adjacency;
        this.waterFill = waterFill;
        this.dirty = dirty;
        this.changed = changed;
        linkMark = new int[links];
        highestRate = new double[links];
        maxKnown = new boolean[links];
        involved = new int[links];
    }

    void growLinks(final int links) {
        linkMark = Arrays.copyOf(linkMark, links);
        highestRate = Arrays.copyOf(highestRate, links);
        maxKnown = Arrays.copyOf(maxKnown, links);
        involved = Arrays.copyOf(involved, links);
    }

    void growFlows(final int size) {
        flowMark = Arrays.copyOf(flowMark, size);
        checkMark = Arrays.copyOf(checkMark, size);
        subset = Arrays.copyOf(subset, size);
        subsetOrder = Arrays.copyOf(subsetOrder, size);
    }

    /** Flows the last repair re-solved. */
    int resolvedFlows() {
        return subsetSize;
    }

    /** Links the last repair's latest sub-solve re-filled. */
    int refilledLinks() {
        return involvedCount;
    }

    /** A full solve moved every rate: no cached highest rate holds. */
    void forgetMaxRates() {
        Arrays.fill(maxKnown, false);
    }

    /**
     * Repairs the last allocation after the changes since it ({@code dirty} links, {@code changed} flows), on links
     * with these capacities, writing their loads; returns the freezing events it took, or -1 when the repair grew past
     * its budget and the caller must solve in full. The adjacency must be current.
     */
    int run(final double[] capacity, final double[] load, final int links, final int live) {
        this.capacity = capacity;
        this.load = load;
        if (epoch > EPOCH_LIMIT) {
            resetMarks();
        }
        // Removed flows changed these loads; capacity-only changes leave them as they were.
        for (int i = 0; i < dirty.count(); i++) {
            final int l = dirty.get(i);
            load[l] = sumOfRates(l);
            maxKnown[l] = false;
        }
        subsetEpoch = nextEpoch();
        involvedEpoch = nextEpoch();
        subsetSize = 0;
        involvedCount = 0;
        work = 0;
        for (int i = 0; i < changed.count(); i++) {
            final int f = changed.get(i);
            if (flows.alive[f]) {
                addToSubset(f);
            }
        }
        // A cascade this big costs about as much as starting over, so stop paying for both.
        final long workBudget = adjacency.total(links) / FALLBACK_DIVISOR + MIN_PARTIAL_WORK;
        final int flowBudget = live / FALLBACK_DIVISOR + MIN_PARTIAL_FLOWS;
        int iterations = 0;
        while (true) {
            final long workBefore = work;
            if (subsetSize > 0) {
                iterations += solveSubset();
            }
            final int before = subsetSize;
            if (certify() == 0) {
                break;
            }
            // Rounds grow with the set, so extrapolate: bail out before paying for a round that breaks the budget.
            final long nextRound = before == 0 ? 0 : (work - workBefore) * subsetSize / before;
            if (subsetSize == before || work + nextRound > workBudget || subsetSize > flowBudget) {
                return -1;
            }
        }
        return iterations;
    }

    /** Water-fills the flows in {@code subset} on what the other flows, kept at their rates, leave free. */
    private int solveSubset() {
        final int mark = nextEpoch();
        involvedEpoch = mark;
        involvedCount = 0;
        final int[] pool = paths.pool;
        for (int s = 0; s < subsetSize; s++) {
            final int f = subset[s];
            final int at = paths.at[f];
            final int to = at + 1 + pool[at];
            for (int i = at + 1; i < to; i++) {
                final int l = pool[i];
                if (linkMark[l] != mark) {
                    linkMark[l] = mark;
                    involved[involvedCount++] = l;
                }
            }
        }
        waterFill.clear();
        for (int k = 0; k < involvedCount; k++) {
            final int l = involved[k];
            double outside = 0;
            double n = 0;
            final int to = adjacency.start[l + 1];
            for (int i = adjacency.start[l]; i < to; i++) {
                final int g = adjacency.flows[i];
                if (flowMark[g] == subsetEpoch) {
                    n += flows.weight[g];
                } else {
                    outside += flows.rate[g] * flows.weight[g];
                }
            }
            work += to - adjacency.start[l];
            waterFill.set(l, outside, n);
            waterFill.schedule(l, (capacity[l] - outside) / n);
        }
        int capped = 0;
        for (int s = 0; s < subsetSize; s++) {
            final int f = subset[s];
            waterFill.prepare(f);
            if (flows.demand[f] != Double.POSITIVE_INFINITY) {
                subsetOrder[capped++] = f;
            }
        }
        sorter.sort(subsetOrder, capped, flows.demand);
        final int iterations = waterFill.drain(subsetOrder, capped, capacity);
        for (int k = 0; k < involvedCount; k++) {
            final int l = involved[k];
            load[l] = waterFill.fixed(l);
            maxKnown[l] = false; // its flows' rates moved: read them again
            maxRate(l);
        }
        return iterations;
    }

    /** Checks every flow whose certificate may have changed; returns how many failed (and queues them). */
    private int certify() {
        final int mark = nextEpoch();
        int failures = 0;
        for (int i = 0; i < dirty.count(); i++) {
            failures += certifyLink(dirty.get(i), mark);
        }
        for (int i = 0; i < involvedCount; i++) {
            failures += certifyLink(involved[i], mark);
        }
        return failures;
    }

    private int certifyLink(final int l, final int mark) {
        final int from = adjacency.start[l];
        final int to = adjacency.start[l + 1];
        work += to - from;
        int failures = 0;
        if (load[l] > capacity[l] * (1 + CERTIFICATE_TOLERANCE)) {
            // Infeasible (capacity cut or fixed flows over it): every fixed flow on it must move.
            failures++;
            for (int i = from; i < to; i++) {
                final int g = adjacency.flows[i];
                if (flowMark[g] != subsetEpoch) {
                    queue(g, mark);
                }
            }
        }
        for (int i = from; i < to; i++) {
            final int g = adjacency.flows[i];
            if (checkMark[g] == mark) {
                continue;
            }
            checkMark[g] = mark;
            if (certified(g)) {
                continue;
            }
            failures++;
            if (flowMark[g] != subsetEpoch) {
                queue(g, mark);
            } else {
                pullRivals(g, mark);
            }
        }
        return failures;
    }

    /** Demand cap reached, or a saturated link where no flow is faster; records the link it found. */
    private boolean certified(final int g) {
        final int b = flows.bottleneck[g];
        if (b != NONE && flowMark[g] != subsetEpoch && !dirty.contains(b) && linkMark[b] != involvedEpoch) {
            // Neither the flow nor anything on its recorded bottleneck moved, so that certificate still holds.
            return true;
        }
        final int[] pool = paths.pool;
        final int at = paths.at[g];
        if (pool[at] == 0) {
            return true;
        }
        final double r = flows.rate[g];
        final double d = flows.demand[g];
        if (r > d * (1 + CERTIFICATE_TOLERANCE)) {
            return false;
        }
        final boolean capped = r >= d * (1 - CERTIFICATE_TOLERANCE);
        if (b == NONE ? capped : qualifies(g, b)) {
            return true;
        }
        if (capped) {
            flows.bottleneck[g] = NONE;
            return true;
        }
        final int to = at + 1 + pool[at];
        for (int i = at + 1; i < to; i++) {
            final int l = pool[i];
            if (l != b && qualifies(g, l)) {
                flows.bottleneck[g] = l;
                return true;
            }
        }
        return false;
    }

    private boolean qualifies(final int g, final int l) {
        return load[l] >= capacity[l] * (1 - CERTIFICATE_TOLERANCE)
            && flows.rate[g] >= maxRate(l) * (1 - CERTIFICATE_TOLERANCE);
    }

    /** The highest per-member rate of a flow crossing the link (0 without flows), cached until rates on it move. */
    double maxRate(final int l) {
        if (!maxKnown[l]) {
            double max = 0;
            final int to = adjacency.start[l + 1];
            for (int i = adjacency.start[l]; i < to; i++) {
                max = Math.max(max, flows.rate[adjacency.flows[i]]);
            }
            work += to - adjacency.start[l];
            maxKnown[l] = true;
            highestRate[l] = max;
        }
        return highestRate[l];
    }

    /** A re-solved flow out-ranked on its bottleneck: the faster fixed flows there must give way. */
    private void pullRivals(final int g, final int mark) {
        final int b = flows.bottleneck[g];
        if (b == NONE) {
            return;
        }
        final double limit = flows.rate[g] * (1 + CERTIFICATE_TOLERANCE);
        final int to = adjacency.start[b + 1];
        for (int i = adjacency.start[b]; i < to; i++) {
            final int h = adjacency.flows[i];
            if (flowMark[h] != subsetEpoch && flows.rate[h] > limit) {
                queue(h, mark);
            }
        }
    }

    /** Joins the re-solve set; marked as checked so its stale state is not judged again this round. */
    private void queue(final int g, final int mark) {
        addToSubset(g);
        checkMark[g] = mark;
    }

    private void addToSubset(final int f) {
        flowMark[f] = subsetEpoch;
        subset[subsetSize++] = f;
    }

    private double sumOfRates(final int l) {
        double sum = 0;
        final int to = adjacency.start[l + 1];
        for (int i = adjacency.start[l]; i < to; i++) {
            final int g = adjacency.flows[i];
            sum += flows.rate[g] * flows.weight[g];
        }
        return sum;
    }

    private int nextEpoch() {
        if (epoch == Integer.MAX_VALUE) {
            resetMarks();
        }
        return ++epoch;
    }

    private void resetMarks() {
        Arrays.fill(linkMark, 0);
        Arrays.fill(flowMark, 0);
        Arrays.fill(checkMark, 0);
        epoch = 0;
    }
}
