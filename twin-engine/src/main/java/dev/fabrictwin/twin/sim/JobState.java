package dev.fabrictwin.twin.sim;

import java.io.Serializable;

import dev.fabrictwin.twin.workload.PlacedJob;

/** A job's progress through its iterations. */
final class JobState implements Serializable {
    PlacedJob job;
    final SplitMix random;
    double phaseOffset;
    double computeStart;
    double commStart;
    boolean inComm;
    int iteration;
    int active;
    double minRate;
    double lastCommSeconds = Double.NaN;
    double endAt = Double.POSITIVE_INFINITY;
    boolean ended;
    double endedAt = Double.POSITIVE_INFINITY;

    JobState(final PlacedJob job, final SplitMix random) {
        this.job = job;
        this.random = random;
    }
}
