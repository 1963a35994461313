package dev.fabrictwin.twin.fabric;

import java.io.Serializable;
import java.util.Objects;

/**
 * A host or switch. {@code index} is its position in {@link Fabric#nodes()}; {@code pod} groups leaves and
 * spines of a fat-tree pod or hosts/leaves of a rail-optimized group (-1 where the fabric has none).
 */
public record Node(int index, String name, Tier tier, int pod) implements Serializable {
    public Node {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tier, "tier");
        if (index < 0) {
            throw new IllegalArgumentException("node index must be >= 0");
        }
        if (name.isBlank()) {
            throw new IllegalArgumentException("node name must not be blank");
        }
        Quoted.requirePrintable(name, "node name");
    }

    public boolean isHost() {
        return tier == Tier.HOST;
    }
}
