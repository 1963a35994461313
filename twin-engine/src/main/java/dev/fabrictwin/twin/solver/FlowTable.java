package dev.fabrictwin.twin.solver;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The allocator's per-flow state, by flow id. A flow stands for {@code weight} identical flows: {@code demand} and
 * {@code rate} are one member's. {@code bottleneck} is the flow's certificate (the saturated link where it is fastest,
 * or -1 for its cap); {@code active} marks it unfrozen in the water-filling in progress (all false between solves).
 */
final class FlowTable implements Serializable {

    double[] demand = new double[0];
    double[] rate = new double[0];
    double[] weight = new double[0];
    int[] bottleneck = new int[0];
    boolean[] alive = new boolean[0];
    boolean[] active = new boolean[0];

    /** Flow ids the arrays hold. */
    int size() {
        return demand.length;
    }

    void grow(final int size) {
        demand = Arrays.copyOf(demand, size);
        rate = Arrays.copyOf(rate, size);
        weight = Arrays.copyOf(weight, size);
        bottleneck = Arrays.copyOf(bottleneck, size);
        alive = Arrays.copyOf(alive, size);
        active = Arrays.copyOf(active, size);
    }
}
