package dev.fabrictwin.twin.solver;

import java.io.Serializable;
import java.util.Arrays;

/**
 * Progressive filling's event loop, for a full solve and for a re-solve of some flows alike ({@link RateAllocator}'s
 * class comment): the links, each with the rate already fixed on it and the weight of its unfrozen flows, wait in an
 * {@link EventHeap} keyed by the level at which they would saturate; the demand caps come in ascending order; each
 * step takes the lower of the next two events and freezes the flows it binds at that level.
 */
final class WaterFill implements Serializable {

    private static final int NONE = -1;

    private final FlowTable flows;
    private final LinkFlows adjacency;
    private final FlowPaths paths;
    private final EventHeap heap;
    /**
     * Interleaved so a freeze touches one cache line per link: {@code [2l]} is the rate already fixed on link
     * {@code l} by frozen (or outside) flows, {@code [2l+1]} the weight of its unfrozen flows.
     */
    private double[] fill;
    /** Heap entries whose link has no unfrozen flow left, not yet popped. */
    private int dead;

    WaterFill(final int links, final FlowTable flows, final LinkFlows adjacency, final FlowPaths paths) {
        this.flows = flows;
        this.adjacency = adjacency;
        this.paths = paths;
        this.heap = new EventHeap(links);
        this.fill = new double[2 * links];
    }

    void growLinks(final int links) {
        fill = Arrays.copyOf(fill, 2 * links);
        heap.ensureCapacity(links);
    }

    /** Forgets the links of the last filling. */
    void clear() {
        heap.clear();
    }

    /** Link {@code l} starts with {@code fixed} bit/s fixed on it and unfrozen flows of weight {@code unfrozen}. */
    void set(final int l, final double fixed, final double unfrozen) {
        fill[2 * l] = fixed;
        fill[2 * l + 1] = unfrozen;
    }

    /** Link {@code l} takes part, saturating at {@code level} as it starts. */
    void schedule(final int l, final double level) {
        heap.add(level, l);
    }

    /** Marks a flow unfrozen; an empty path is settled at once by the convention (its cap if finite, else 0). */
    void prepare(final int f) {
        if (paths.pool[paths.at[f]] == 0) {
            final double d = flows.demand[f];
            flows.rate[f] = d == Double.POSITIVE_INFINITY ? 0 : d;
            flows.bottleneck[f] = NONE;
        } else {
            flows.active[f] = true;
        }
    }

    /** The rate fixed on link {@code l}: after a filling, its load. */
    double fixed(final int l) {
        return fill[2 * l];
    }

    /**
     * Takes events in level order until every unfrozen flow is frozen: the next demand cap from {@code order}
     * (ascending, frozen flows skipped) or the next saturating link from the heap, whichever is lower. Returns the
     * number of freezing events.
     */
    int drain(final int[] order, final int orderSize, final double[] capacity) {
        heap.heapify();
        final boolean[] active = flows.active;
        final double[] demand = flows.demand;
        dead = 0;
        double level = 0;
        int iterations = 0;
        int next = 0;
        while (true) {
            while (next < orderSize && !active[order[next]]) {
                next++;
            }
            if (dead > heap.size() >> 1) {
                // popping dead links one by one costs a full-depth sift each; purging at half the heap is linear
                heap.purge(capacity, fill);
                dead = 0;
            }
            // Settle the heap top: drop links left without unfrozen flows, re-key stale (too low) levels.
            int link = NONE;
            double saturates = Double.POSITIVE_INFINITY;
            while (!heap.isEmpty()) {
                final int node = heap.topNode();
                final double n = fill[2 * node + 1];
                if (n == 0) {
                    heap.pop();
                    dead--;
                    continue;
                }
                final double candidate = (capacity[node] - fill[2 * node]) / n;
                if (candidate > heap.topKey()) {
                    heap.replaceTop(candidate, node);
                    continue;
                }
                link = node;
                saturates = candidate;
                break;
            }
            if (next < orderSize && demand[order[next]] <= saturates) {
                final int f = order[next++];
                level = Math.max(level, demand[f]);
                iterations++;
                freeze(f, paths.at[f], demand[f], NONE);
            } else if (link != NONE) {
                heap.pop();
                // max() absorbs rounding and links already over capacity from fixed flows (rate 0, never negative).
                level = Math.max(level, saturates);
                iterations++;
                final int to = adjacency.start[link + 1];
                for (int i = adjacency.start[link]; i < to; i++) {
                    final int f = adjacency.flows[i];
                    if (active[f]) {
                        freeze(f, adjacency.pathAt[i], level, link);
                    }
                }
                dead--; // the popped link itself, counted by its last freeze but no longer in the heap
            } else {
                return iterations;
            }
        }
    }

    private void freeze(final int f, final int at, final double r, final int limitedBy) {
        flows.active[f] = false;
        flows.rate[f] = r;
        flows.bottleneck[f] = limitedBy;
        final int[] pool = paths.pool;
        final int to = at + 1 + pool[at];
        final double w = flows.weight[f];
        for (int i = at + 1; i < to; i++) {
            final int l = 2 * pool[i];
            fill[l] += r * w;
            fill[l + 1] -= w; // whole numbers: exact
            if (fill[l + 1] == 0) {
                dead++;
            }
        }
    }
}
