package dev.fabrictwin.twin.workload;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import dev.fabrictwin.twin.fabric.Quoted;

/** The collective a job runs each iteration (docs/contracts.md, Job semantics). */
public enum Pattern {
    RING_ALLREDUCE("ring-allreduce"),
    TREE_ALLREDUCE("tree-allreduce"),
    HIERARCHICAL_ALLREDUCE("hierarchical-allreduce"),
    ALL_TO_ALL("all-to-all"),
    PIPELINE("pipeline"),
    /** Every other rank sends S to the first (N-to-1: a parameter server, a checkpoint gather). */
    INCAST("incast"),
    /** Every rank sends S to another, all distinct: a random cyclic permutation drawn from the scenario's seed. */
    PERMUTATION("permutation"),
    /** Rank r sends S to rank (r + offset) mod N: a ring with a stride (host i → host i+16 crosses every leaf). */
    SHIFT("shift"),
    BACKGROUND("background");

    private final String label;

    Pattern(final String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Ring-like patterns move in lock step: a ring runs at the pace of its slowest hop. */
    public boolean lockStep() {
        return this == RING_ALLREDUCE || this == HIERARCHICAL_ALLREDUCE;
    }

    public static Pattern parse(final String text) {
        final String t = text.toLowerCase(Locale.ROOT).trim();
        for (final Pattern p : values()) {
            if (p.label.equals(t)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown pattern " + Quoted.of(text) + " (expected "
            + Arrays.stream(values()).map(Pattern::label).collect(Collectors.joining(", ")) + ")");
    }
}
