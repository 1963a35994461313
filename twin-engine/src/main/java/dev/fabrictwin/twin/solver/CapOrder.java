package dev.fabrictwin.twin.solver;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The live flows with a finite demand cap, ascending by cap: a full solve's cap events, sorted once (radix sort) and
 * reused by every full solve until a capped flow comes or goes or a cap changes.
 */
final class CapOrder implements Serializable {

    private final DemandSorter sorter = new DemandSorter();
    private int[] order = new int[0];
    private int size;
    private boolean stale = true;

    void growFlows(final int flows) {
        order = Arrays.copyOf(order, flows);
    }

    /** A capped flow came or went, or a cap changed. */
    void invalidate() {
        stale = true;
    }

    /** Sorts anew if stale: the flows among the first {@code slots} ids that are {@code alive} with a finite cap. */
    void refresh(final boolean[] alive, final int slots, final double[] demand) {
        if (!stale) {
            return;
        }
        size = 0;
        for (int f = 0; f < slots; f++) {
            if (alive[f] && demand[f] != Double.POSITIVE_INFINITY) {
                order[size++] = f;
            }
        }
        sorter.sort(order, size, demand);
        stale = false;
    }

    /** The capped flows, ascending by cap, in {@code order()[0 .. size())}. */
    int[] order() {
        return order;
    }

    int size() {
        return size;
    }
}
