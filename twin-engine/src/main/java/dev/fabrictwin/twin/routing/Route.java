package dev.fabrictwin.twin.routing;

import java.io.Serializable;

/** One path of a flow as directed-link indices (NIC uplink first, NIC downlink last) and its share of the flow. */
public record Route(int[] links, double weight) implements Serializable {
    public Route {
        if (!(weight > 0 && weight <= 1)) {
            throw new IllegalArgumentException("route weight must be in (0, 1], was " + weight);
        }
    }

    /** Number of switches the path crosses. */
    public int switchHops() {
        return links.length - 1;
    }
}
