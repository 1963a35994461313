package dev.fabrictwin.twin.sim;

import java.io.Serializable;

/** One run of an explicit flow (a scenario's {@code flows:}): its {@code round} (0, then one per repeat), start and end. */
public record FlowCompletion(String flow, int round, double start, double end) implements Serializable {

    public double seconds() {
        return end - start;
    }
}
