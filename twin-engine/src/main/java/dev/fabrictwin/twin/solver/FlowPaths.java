package dev.fabrictwin.twin.solver;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The allocator's flow paths, all in one int pool: flow {@code f}'s path sits at {@code at[f]}, its length first, then
 * its links (one cache line for a freeze). A removed flow's path stays as garbage until a pool that has to grow is
 * half garbage, when the live paths are packed anew, so churn does not grow the pool without bound.
 */
final class FlowPaths implements Serializable {

    /** Where each flow's path sits in {@link #pool}. */
    int[] at = new int[0];
    int[] pool = new int[64];
    private int size;
    private int garbage;

    /** The path's length at pool offset {@code offset}; its links follow it. */
    int length(final int offset) {
        return pool[offset];
    }

    void growFlows(final int flows) {
        at = Arrays.copyOf(at, flows);
    }

    /**
     * Stores the path of flow {@code f}; returns whether the live paths moved first (their offsets changed) to make
     * room. {@code alive} and {@code slots} say which flows' paths are live.
     */
    boolean add(final int f, final int[] path, final boolean[] alive, final int slots) {
        final boolean moved = reserve(path.length + 1, alive, slots);
        at[f] = size;
        pool[size] = path.length;
        System.arraycopy(path, 0, pool, size + 1, path.length);
        size += path.length + 1;
        return moved;
    }

    /** Flow {@code f} was removed: its path is garbage. */
    void remove(final int f) {
        garbage += pool[at[f]] + 1;
    }

    private boolean reserve(final int extra, final boolean[] alive, final int slots) {
        if (size + extra <= pool.length) {
            return false;
        }
        final boolean moved = garbage > size / 2;
        if (moved) {
            compact(alive, slots);
        }
        if (size + extra > pool.length) {
            pool = Arrays.copyOf(pool, Math.max(pool.length * 2, size + extra));
        }
        return moved;
    }

    /** Drops the paths of removed flows. */
    private void compact(final boolean[] alive, final int slots) {
        final int[] compacted = new int[Math.max(64, 2 * (size - garbage))];
        int to = 0;
        for (int f = 0; f < slots; f++) {
            if (alive[f]) {
                final int length = pool[at[f]] + 1;
                System.arraycopy(pool, at[f], compacted, to, length);
                at[f] = to;
                to += length;
            }
        }
        pool = compacted;
        size = to;
        garbage = 0;
    }

    /** Pool entries in use, garbage included (for the tests). */
    int used() {
        return size;
    }
}
