package dev.fabrictwin.twin.fabric;

import java.io.Serializable;
import java.util.Objects;

/**
 * A physical, full-duplex cable between port {@code lower} (the end nearer the hosts) and port
 * {@code upper}. For rate allocation it is two directed links: {@link #up()} (lower→upper) and
 * {@link #down()} (upper→lower), indices {@code 2·index} and {@code 2·index+1}.
 */
public record Link(int index, int lowerNode, PortRef lower, int upperNode, PortRef upper, double capacityBps) implements Serializable {
    public Link {
        Objects.requireNonNull(lower, "lower");
        Objects.requireNonNull(upper, "upper");
        if (!(capacityBps > 0) || Double.isInfinite(capacityBps)) {
            throw new IllegalArgumentException("link " + lower + " - " + upper + " needs a positive capacity, was " + capacityBps);
        }
    }

    /** Directed-link index for traffic from the lower end up. */
    public int up() {
        return 2 * index;
    }

    /** Directed-link index for traffic from the upper end down. */
    public int down() {
        return 2 * index + 1;
    }

    /** The end that is not {@code node}. */
    public int other(final int node) {
        return node == lowerNode ? upperNode : lowerNode;
    }

    /** Directed-link index for traffic leaving {@code node} over this link. */
    public int from(final int node) {
        return node == lowerNode ? up() : down();
    }

    public PortRef portOf(final int node) {
        return node == lowerNode ? lower : upper;
    }

    /** The link's name as docs/contracts.md names links: its two devices. */
    public String name() {
        return lower.device() + "~" + upper.device();
    }
}
