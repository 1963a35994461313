package dev.fabrictwin.analyzer.phase;

import java.io.Serializable;

/**
 * A job's iterations as its NICs show them: comm phases start at {@code lastCommStartMs} + n·{@code periodMs}
 * and last {@code commMs}. {@code quality} is the fit's R² (1 = the pulse train explains every byte).
 */
public record PhaseFit(double lastCommStartMs, double commMs, double periodMs, double quality) implements Serializable {

    /** The first comm start after {@code tMs}. */
    public double nextCommStartAfter(final double tMs) {
        final double n = Math.floor((tMs - lastCommStartMs) / periodMs) + 1;
        return lastCommStartMs + n * periodMs;
    }
}
