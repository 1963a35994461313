package dev.fabrictwin.twin.sim;

import java.io.Serializable;
import java.util.Arrays;

/**
 * Per-link arrays reused across solve events (each event used to allocate a dozen arrays over every link, garbage that
 * grew with the fabric), handed out zeroed. Not serialized: a restored simulation allocates them again.
 */
final class LinkScratch implements Serializable {

    private final int links;
    private final int arrays;
    private transient double[][] values;
    private transient int[] counts;
    private transient boolean[] flags;

    LinkScratch(final int links, final int arrays) {
        this.links = links;
        this.arrays = arrays;
    }

    /** Array {@code i} of one value per link, zeroed. */
    double[] zeroed(final int i) {
        final double[] array = reused(i);
        Arrays.fill(array, 0);
        return array;
    }

    /** Array {@code i} of one value per link as its last user left it: for a caller that sets every value. */
    double[] reused(final int i) {
        if (values == null) {
            values = new double[arrays][];
        }
        if (values[i] == null) {
            values[i] = new double[links];
        }
        return values[i];
    }

    /** The one array of a count per link, zeroed. */
    int[] zeroedCounts() {
        if (counts == null) {
            counts = new int[links];
        } else {
            Arrays.fill(counts, 0);
        }
        return counts;
    }

    /** The one array of a flag per link, as its last user left it (the caller sets every flag). */
    boolean[] flags() {
        if (flags == null) {
            flags = new boolean[links];
        }
        return flags;
    }
}
