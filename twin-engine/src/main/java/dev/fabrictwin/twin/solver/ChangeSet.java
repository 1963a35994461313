package dev.fabrictwin.twin.solver;

import java.io.Serializable;
import java.util.Arrays;

/**
 * Indices (links or flows) changed since the allocator's last solve: a flag per index for O(1) membership and a list
 * of the marked ones, so clearing costs what was marked, not the whole range.
 */
final class ChangeSet implements Serializable {

    private boolean[] marked;
    private int[] list;
    private int count;

    ChangeSet(final int range) {
        marked = new boolean[range];
        list = new int[range];
    }

    void grow(final int range) {
        marked = Arrays.copyOf(marked, range);
        list = Arrays.copyOf(list, range);
    }

    void mark(final int i) {
        if (!marked[i]) {
            marked[i] = true;
            list[count++] = i;
        }
    }

    boolean contains(final int i) {
        return marked[i];
    }

    int count() {
        return count;
    }

    /** The {@code k}-th index marked, in marking order. */
    int get(final int k) {
        return list[k];
    }

    void clear() {
        for (int k = 0; k < count; k++) {
            marked[list[k]] = false;
        }
        count = 0;
    }
}
