package dev.fabrictwin.twin.solver;

import java.io.Serializable;
import java.util.Arrays;

/**
 * Sorts flow ids by their (finite, non-negative) demand caps without boxing: an LSD radix sort on the IEEE bit
 * patterns, which order like the values for non-negative doubles. Stable, so equal demands keep the ids' input
 * order. Digits on which every key agrees (typically the exponent's high bits) are skipped, so a sort costs a few
 * linear passes. Scratch arrays are kept between calls.
 */
final class DemandSorter implements Serializable {

    private static final int DIGIT_BITS = 11;
    private static final int BUCKETS = 1 << DIGIT_BITS;
    private static final int INSERTION_LIMIT = 48;

    private final int[] counts = new int[BUCKETS];
    private long[] keys = new long[0];
    private long[] keysTmp = new long[0];
    private int[] idsTmp = new int[0];

    /** Sorts {@code ids[0..n)} ascending by {@code demand[id]}. */
    void sort(final int[] ids, final int n, final double[] demand) {
        if (n <= INSERTION_LIMIT) {
            insertionSort(ids, n, demand);
            return;
        }
        if (keys.length < n) {
            final int size = Math.max(n, 2 * keys.length);
            keys = new long[size];
            keysTmp = new long[size];
            idsTmp = new int[size];
        }
        long[] srcKeys = keys;
        long[] dstKeys = keysTmp;
        int[] srcIds = ids;
        int[] dstIds = idsTmp;
        for (int i = 0; i < n; i++) {
            srcKeys[i] = Double.doubleToRawLongBits(demand[ids[i]]);
        }
        for (int shift = 0; shift < Long.SIZE; shift += DIGIT_BITS) {
            Arrays.fill(counts, 0);
            for (int i = 0; i < n; i++) {
                counts[(int) (srcKeys[i] >>> shift) & (BUCKETS - 1)]++;
            }
            if (counts[(int) (srcKeys[0] >>> shift) & (BUCKETS - 1)] == n) {
                continue;
            }
            int sum = 0;
            for (int b = 0; b < BUCKETS; b++) {
                final int c = counts[b];
                counts[b] = sum;
                sum += c;
            }
            for (int i = 0; i < n; i++) {
                final int at = counts[(int) (srcKeys[i] >>> shift) & (BUCKETS - 1)]++;
                dstKeys[at] = srcKeys[i];
                dstIds[at] = srcIds[i];
            }
            final long[] k = srcKeys;
            srcKeys = dstKeys;
            dstKeys = k;
            final int[] d = srcIds;
            srcIds = dstIds;
            dstIds = d;
        }
        if (srcIds != ids) {
            System.arraycopy(srcIds, 0, ids, 0, n);
        }
    }

    private static void insertionSort(final int[] ids, final int n, final double[] demand) {
        for (int i = 1; i < n; i++) {
            final int id = ids[i];
            final double key = demand[id];
            int j = i - 1;
            while (j >= 0 && demand[ids[j]] > key) {
                ids[j + 1] = ids[j];
                j--;
            }
            ids[j + 1] = id;
        }
    }
}
