package dev.fabrictwin.twin.workload;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * A flow declared by itself in a scenario's {@code flows:} (docs/contracts.md), not part of a job: {@code bytes} from
 * {@code source} to {@code destination} starting at {@code start}, again every {@code repeat} when that is not zero.
 * The ends are as written ({@code host-3/nic0}, or {@code host-3} for its first NIC) and are resolved against the
 * fabric when the twin is built; {@code via} (or null) is the switch the flow must cross after its source switch.
 */
public record FlowSpec(String id, String source, String destination, long bytes, Duration start, Duration repeat,
                       String via) implements Serializable {
    public FlowSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(repeat, "repeat");
        if (bytes <= 0) {
            throw new IllegalArgumentException("bytes must be > 0, was " + bytes);
        }
        if (start.isNegative()) {
            throw new IllegalArgumentException("start must be >= 0, was " + start.toMillis() + " ms");
        }
        if (repeat.isNegative()) {
            throw new IllegalArgumentException("repeat must be > 0, was " + repeat.toMillis() + " ms");
        }
    }

    public double startSeconds() {
        return start.toNanos() / 1e9;
    }

    /** The period between starts in seconds, 0 for a flow that runs once. */
    public double repeatSeconds() {
        return repeat.toNanos() / 1e9;
    }
}
