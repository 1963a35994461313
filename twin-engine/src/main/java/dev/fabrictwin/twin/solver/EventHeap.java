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

    int size() {
        return size;
    }

    int nodeAt(final int index) {
        return nodes[index];
    }

    /** Overwrites slot {@code index}; only for rebuilding the array before {@link #truncate} and {@link #heapify}. */
    void set(final int index, final double key, final int node) {
        keys[index] = key;
        nodes[index] = node;
    }

    void truncate(final int newSize) {
        size = newSize;
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
