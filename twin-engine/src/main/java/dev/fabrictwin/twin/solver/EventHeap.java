package dev.fabrictwin.twin.solver;

import java.io.Serializable;
import java.util.Arrays;

/**
 * Binary min-heap of (level, node) events in two parallel primitive arrays, so the water-filling loop never
 * boxes or allocates. Equal levels are ordered by node id, which keeps the event order a pure function of the
 * input. There is no decrease-key: the allocator only ever raises a link's level, so it leaves stale (too low)
 * keys in place and corrects them with {@link #replaceTop} when they surface.
 */
final class EventHeap implements Serializable {

    private double[] keys;
    private int[] nodes;
    private int size;

    EventHeap(final int capacity) {
        keys = new double[Math.max(1, capacity)];
        nodes = new int[Math.max(1, capacity)];
    }

    void ensureCapacity(final int capacity) {
        if (capacity > keys.length) {
            keys = Arrays.copyOf(keys, capacity);
            nodes = Arrays.copyOf(nodes, capacity);
        }
    }

    void clear() {
        size = 0;
    }

    /** Appends without ordering; call {@link #heapify()} before reading. */
    void add(final double key, final int node) {
        keys[size] = key;
        nodes[size] = node;
        size++;
    }

    /** Floyd's bottom-up build: linear in the number of events, cheaper than one sift per insertion. */
    void heapify() {
        for (int i = (size >>> 1) - 1; i >= 0; i--) {
            siftDown(i, keys[i], nodes[i]);
        }
    }

    /**
     * Drops links left without unfrozen flows and re-keys the rest at their saturation level in one linear pass:
     * link {@code l} has {@code fill[2l]} bit/s fixed and unfrozen flows of weight {@code fill[2l + 1]}, so it
     * saturates at {@code (capacity[l] - fill[2l]) / fill[2l + 1]}.
     */
    void purge(final double[] capacity, final double[] fill) {
        int kept = 0;
        for (int i = 0; i < size; i++) {
            final int node = nodes[i];
            final double n = fill[2 * node + 1];
            if (n > 0) {
                keys[kept] = (capacity[node] - fill[2 * node]) / n;
                nodes[kept++] = node;
            }
        }
        size = kept;
        heapify();
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int topNode() {
        return nodes[0];
    }

    double topKey() {
        return keys[0];
    }

    void pop() {
        size--;
        if (size > 0) {
            siftDown(0, keys[size], nodes[size]);
        }
    }

    /** Re-keys the top event in place (cheaper than pop + push when its level turned out to be stale). */
    void replaceTop(final double key, final int node) {
        siftDown(0, key, node);
    }

    private void siftDown(final int from, final double key, final int node) {
        int i = from;
        final int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            double childKey = keys[child];
            int childNode = nodes[child];
            final int right = child + 1;
            if (right < size && less(keys[right], nodes[right], childKey, childNode)) {
                child = right;
                childKey = keys[right];
                childNode = nodes[right];
            }
            if (!less(childKey, childNode, key, node)) {
                break;
            }
            keys[i] = childKey;
            nodes[i] = childNode;
            i = child;
        }
        keys[i] = key;
        nodes[i] = node;
    }

    private static boolean less(final double keyA, final int nodeA, final double keyB, final int nodeB) {
        return keyA < keyB || (keyA == keyB && nodeA < nodeB);
    }
}
