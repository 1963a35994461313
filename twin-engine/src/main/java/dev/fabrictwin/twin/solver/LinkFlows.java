package dev.fabrictwin.twin.solver;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The allocator's link-to-flow adjacency as a CSR array: the flows crossing link {@code l} are
 * {@code flows[start[l] .. start[l + 1])}, in ascending flow id, and {@code pathAt} holds each entry's path offset in
 * the {@link FlowPaths} pool, so a freeze reads the path without another lookup. Rebuilt lazily, after flows came or
 * went, from the live flows' paths.
 */
final class LinkFlows implements Serializable {

    int[] start;
    int[] flows = new int[0];
    int[] pathAt = new int[0];
    private int[] cursor;
    private boolean stale = true;

    LinkFlows(final int links) {
        start = new int[links + 1];
        cursor = new int[links];
    }

    void growLinks(final int links) {
        start = Arrays.copyOf(start, links + 1);
        cursor = Arrays.copyOf(cursor, links);
    }

    /** Link {@code l} was appended: no flow crosses it yet. */
    void added(final int l) {
        start[l + 1] = start[l];
        stale = true;
    }

    /** Flows came or went, or their paths moved in the pool: rebuild before the next read. */
    void invalidate() {
        stale = true;
    }

    /** Adjacency entries over the first {@code links} links. */
    int total(final int links) {
        return start[links];
    }

    /**
     * Rebuilds the adjacency if stale: {@code degree[l]} live flows cross link {@code l}; {@code alive} says which of
     * the first {@code slots} flow ids are live.
     */
    void rebuild(final int links, final int[] degree, final boolean[] alive, final int slots, final FlowPaths paths) {
        if (!stale) {
            return;
        }
        start[0] = 0;
        for (int l = 0; l < links; l++) {
            start[l + 1] = start[l] + degree[l];
            cursor[l] = start[l];
        }
        final int total = start[links];
        if (flows.length < total) {
            flows = new int[total + (total >>> 2)];
            pathAt = new int[flows.length];
        }
        final int[] pool = paths.pool;
        // Ascending flow ids per link make the freeze order, and so the rounding, a function of the flows alone.
        for (int f = 0; f < slots; f++) {
            if (alive[f]) {
                final int at = paths.at[f];
                final int to = at + 1 + pool[at];
                for (int i = at + 1; i < to; i++) {
                    final int slot = cursor[pool[i]]++;
                    flows[slot] = f;
                    pathAt[slot] = at;
                }
            }
        }
        stale = false;
    }
}
