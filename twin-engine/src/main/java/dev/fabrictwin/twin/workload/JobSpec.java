package dev.fabrictwin.twin.workload;

import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

import dev.fabrictwin.twin.fabric.Quoted;

/**
 * A declared training job (docs/contracts.md). {@code hostList} is empty unless the job names its hosts; then
 * {@code hosts} equals its size. {@code bytesPerIteration} is the collective's size S, whose meaning per
 * pattern the design fixes (ring: each rank sends 2(N−1)/N·S to its successor, ...). {@code offset} is the
 * stride of pattern {@code shift} (rank r sends to r + offset) and 1 for every other pattern.
 */
public record JobSpec(String id, int hosts, List<String> hostList, Pattern pattern, long bytesPerIteration,
                      Duration iterationPeriod, double commFraction, int offset) implements Serializable {

    /** A job of any pattern but {@code shift}'s other strides. */
    public JobSpec(final String id, final int hosts, final List<String> hostList, final Pattern pattern,
                   final long bytesPerIteration, final Duration iterationPeriod, final double commFraction) {
        this(id, hosts, hostList, pattern, bytesPerIteration, iterationPeriod, commFraction, 1);
    }

    public JobSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(iterationPeriod, "iterationPeriod");
        hostList = List.copyOf(hostList == null ? List.of() : hostList);
        if (id.isBlank()) {
            throw new IllegalArgumentException("job id must not be blank");
        }
        Quoted.requirePrintable(id, "job id");
        if (!hostList.isEmpty()) {
            hosts = hostList.size();
        }
        if (hosts < 1) {
            throw new IllegalArgumentException("job " + id + ": hosts must be >= 1, was " + hosts);
        }
        if (bytesPerIteration <= 0) {
            throw new IllegalArgumentException("job " + id + ": bytesPerIteration must be > 0");
        }
        if (iterationPeriod.isNegative() || iterationPeriod.isZero()) {
            throw new IllegalArgumentException("job " + id + ": iterationPeriod must be > 0");
        }
        if (pattern == Pattern.BACKGROUND) {
            commFraction = 0; // not bulk-synchronous: there is no comm phase, so any declared value is ignored
        } else if (!(commFraction >= 0 && commFraction < 1)) {
            throw new IllegalArgumentException("job " + id + ": commFraction must be in [0, 1), was " + commFraction);
        }
        if (offset < 1) {
            throw new IllegalArgumentException("job " + id + ": offset must be >= 1, was " + offset);
        }
        if (offset != 1 && pattern != Pattern.SHIFT) {
            throw new IllegalArgumentException("job " + id + ": offset " + offset + " applies to pattern shift only, not "
                + pattern.label());
        }
    }

    /** The compute phase: (1 − commFraction) × iterationPeriod; a what-if never changes it. */
    public double computeSeconds() {
        return pattern == Pattern.BACKGROUND ? 0 : (1 - commFraction) * iterationPeriod.toNanos() / 1e9;
    }

    public double periodSeconds() {
        return iterationPeriod.toNanos() / 1e9;
    }
}
