package dev.fabrictwin.twin.sim;

import java.io.Serializable;

/** One bulk-synchronous iteration of a job: compute from {@code computeStart}, comm from {@code commStart} to {@code commEnd}. */
public record IterationRecord(String job, int iteration, double computeStart, double commStart, double commEnd) implements Serializable {

    public double commSeconds() {
        return commEnd - commStart;
    }

    public double stepSeconds() {
        return commEnd - computeStart;
    }
}
