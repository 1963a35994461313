package dev.fabrictwin.twin.solver;

import java.io.Serializable;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Per-ingress sharing of a congested switch egress, as a lossless switch with PFC per ingress port serves it: the
 * egress's capacity is shared max-min among the ingress ports feeding it (each backlogged ingress is paused and
 * resumed at the same thresholds, so each gets an equal turn), then among the flows of each ingress. Per-flow max-min
 * would instead give every flow on the egress the same rate; here the flows of a crowded ingress get less and finish
 * later, which leaves the egress under-used at the end of a collective (a makespan, not a median, effect).
 *
 * <p>Built on {@link RateAllocator}: every (ingress, egress) crossing a flow makes at a switch becomes a link of its
 * own (a "crossing") on the flow's path. All crossings of one egress get the same capacity, the ingress level L: the
 * water level at which the ingress groups' demands fill the egress, a group's demand being what its flows carry if
 * none of them is held by this egress or its crossing, else unbounded. {@link #update} recomputes the levels from a
 * solved allocation; solving and updating until no level moves gives the hierarchical max-min allocation (checked on
 * hand-computed cases in the tests). An egress fed by one ingress, or whose ingresses each carry one flow, shares
 * exactly as per-flow max-min does.
 */
final class IngressSharing implements Serializable {

    /** A crossing not limited by its level: finite for the allocator, far above any link's capacity. */
    static final double UNLIMITED = Double.MAX_VALUE;
    private static final double TOLERANCE = 1e-9;

    private final int physicalLinks;
    /** Crossing link of (ingress, egress), keyed ingress × physicalLinks + egress. */
    private final Map<Long, Integer> crossings = new HashMap<>();
    /** Per physical egress: its crossings (the first {@code groupCount[e]} entries). */
    private int[][] groups;
    private int[] groupCount;
    /** Egresses with at least two ingress groups: the only ones whose level can bind. */
    private int[] shared = new int[0];
    private int sharedCount;
    private double[] demandScratch = new double[4];

    /** {@code physicalLinks} directed links are the fabric's; crossings are added to the allocator after them. */
    public IngressSharing(final int physicalLinks) {
        this.physicalLinks = physicalLinks;
        this.groups = new int[physicalLinks][];
        this.groupCount = new int[physicalLinks];
    }

    /**
     * The path the allocator sees: the fabric links in order with, after each link but the first (the sender's NIC,
     * whose queue pairs share one FIFO per flow), the crossing from the link before it into it.
     */
    public int[] expand(final int[] path, final RateAllocator allocator) {
        if (path.length < 2) {
            return path;
        }
        final int[] out = new int[2 * path.length - 1];
        out[0] = path[0];
        for (int k = 1; k < path.length; k++) {
            out[2 * k - 1] = crossing(path[k - 1], path[k], allocator);
            out[2 * k] = path[k];
        }
        return out;
    }

    private int crossing(final int ingress, final int egress, final RateAllocator allocator) {
        final long key = (long) ingress * physicalLinks + egress;
        final Integer known = crossings.get(key);
        if (known != null) {
            return known;
        }
        final int link = allocator.addLink(UNLIMITED);
        crossings.put(key, link);
        if (groups[egress] == null) {
            groups[egress] = new int[2];
        } else if (groupCount[egress] == groups[egress].length) {
            groups[egress] = Arrays.copyOf(groups[egress], 2 * groupCount[egress]);
        }
        groups[egress][groupCount[egress]++] = link;
        if (groupCount[egress] == 2) {
            if (sharedCount == shared.length) {
                shared = Arrays.copyOf(shared, Math.max(16, 2 * sharedCount));
            }
            shared[sharedCount++] = egress;
        }
        return link;
    }

    /**
     * Sets every shared egress's crossings to its ingress level from the allocation last solved; returns whether a
     * level moved (then the allocation must be solved again). Cost: one pass over the flows of shared egresses (the
     * allocator caches the highest rate per link).
     */
    public boolean update(final RateAllocator a) {
        boolean changed = false;
        for (int s = 0; s < sharedCount; s++) {
            final int e = shared[s];
            final double level = level(a, e);
            final int[] g = groups[e];
            for (int i = 0; i < groupCount[e]; i++) {
                final double old = a.capacity(g[i]);
                if (old != level) {
                    changed |= Math.abs(old - level) > TOLERANCE * Math.min(old, level);
                    a.setCapacity(g[i], level);
                }
            }
        }
        return changed;
    }

    /**
     * The ingress level of egress {@code e}: groups held at the egress (a flow at its highest rate while it is
     * saturated) or at their crossing want more; the others keep what they carry. Unlimited when nobody wants more.
     */
    private double level(final RateAllocator a, final int e) {
        final int[] g = groups[e];
        final int n = groupCount[e];
        final double capacity = a.capacity(e);
        // While the level binds, a group wants more exactly when its crossing is full; before it binds, per-flow
        // max-min holds a flow at the egress when the egress is full and no flow on it is faster.
        final boolean binding = a.capacity(g[0]) != UNLIMITED;
        final boolean saturated = a.load(e) > 0 && a.load(e) >= capacity * (1 - TOLERANCE);
        final double top = saturated ? a.maxRate(e) * (1 - TOLERANCE) : Double.POSITIVE_INFINITY;
        if (demandScratch.length < n) {
            demandScratch = new double[n];
        }
        int finite = 0;
        int wanting = 0;
        for (int i = 0; i < n; i++) {
            final int c = g[i];
            final double load = a.load(c);
            final boolean held = load > 0
                && (binding ? load >= a.capacity(c) * (1 - TOLERANCE) : a.maxRate(c) >= top);
            if (held) {
                wanting++;
            } else {
                demandScratch[finite++] = load;
            }
        }
        if (wanting == 0) {
            return UNLIMITED;
        }
        // Water-fill the egress: groups carrying less than the level keep it, the rest share what remains.
        Arrays.sort(demandScratch, 0, finite);
        double rest = capacity;
        int open = n;
        for (int i = 0; i < finite; i++) {
            final double share = rest / open;
            if (demandScratch[i] >= share) {
                return share;
            }
            rest -= demandScratch[i];
            open--;
        }
        return Math.max(0, rest / open);
    }
}
