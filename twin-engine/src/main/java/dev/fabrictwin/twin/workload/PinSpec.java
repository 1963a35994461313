package dev.fabrictwin.twin.workload;

import java.io.Serializable;
import java.util.Objects;

/**
 * A scenario's {@code pins:} entry: every flow between the two NICs (named as in {@link FlowSpec}) crosses switch
 * {@code via} after its source switch, instead of the one the hash picks.
 */
public record PinSpec(String source, String destination, String via) implements Serializable {
    public PinSpec {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(via, "via");
    }
}
