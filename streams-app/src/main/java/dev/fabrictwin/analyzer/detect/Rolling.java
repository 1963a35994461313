package dev.fabrictwin.analyzer.detect;

import java.io.Serializable;

/** The last {@code size} values of a per-tick quantity, with their sum: detectors' sliding windows. */
final class Rolling implements Serializable {

    private final double[] values;
    private int next;
    private int count;
    private double sum;

    Rolling(final int size) {
        this.values = new double[size];
    }

    void add(final double v) {
        if (count == values.length) {
            sum -= values[next];
        } else {
            count++;
        }
        values[next] = v;
        sum += v;
        next = (next + 1) % values.length;
    }

    double sum() {
        return sum;
    }

    /** The value added {@code ago} ticks before the newest (0: the newest); {@code ago} below {@link #count()}. */
    double ago(final int ago) {
        return values[Math.floorMod(next - 1 - ago, values.length)];
    }

    int count() {
        return count;
    }

    boolean full() {
        return count == values.length;
    }

    void clear() {
        count = 0;
        next = 0;
        sum = 0;
    }
}
