package dev.fabrictwin.analyzer.checkpoint;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A part of the analysis whose learned facts outlive an upgrade (a detector's baselines, a group's calm shares): it
 * writes them with its own codec under a stable name and a version it bumps whenever that codec changes, and takes
 * back what a part of the same name wrote at a version it can read. Everything else of the analysis (windows, phase,
 * the replica's run) is exact state: continued within one build, rebuilt from the telemetry after an upgrade.
 */
public interface LearnedPart {

    /** Stable across releases: what {@link LearnedState} files the part under. */
    String learnedName();

    /** The codec's version: bump it when {@link #writeLearned} changes. */
    int learnedVersion();

    void writeLearned(DataOutput out) throws IOException;

    /**
     * Takes back what this part wrote at {@code version}, before the part has seen any tick; false when that version
     * cannot be read (the part then learns afresh).
     */
    boolean readLearned(DataInput in, int version) throws IOException;
}
