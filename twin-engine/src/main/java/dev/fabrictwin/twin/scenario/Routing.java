package dev.fabrictwin.twin.scenario;

import java.io.Serializable;
import java.util.Locale;

/**
 * How switches spread flows over equal-cost next hops. {@code ECMP}: each switch hashes the flow onto one
 * member with its own seed (per-flow, so elephants can collide); {@code SPRAY}: packet spraying / adaptive
 * routing, every flow split evenly over the source leaf's uplinks.
 */
public record Routing(Mode mode, long hashSeed, boolean sameSeedEverywhere) implements Serializable {

    public enum Mode {
        ECMP, SPRAY;

        public static Mode parse(final String text) {
            return switch (text.toLowerCase(Locale.ROOT)) {
                case "ecmp", "hash" -> ECMP;
                case "spray", "adaptive" -> SPRAY;
                default -> throw new IllegalArgumentException("unknown routing mode '" + text + "' (expected ecmp or spray)");
            };
        }
    }

    public static Routing ecmp(final long hashSeed) {
        return new Routing(Mode.ECMP, hashSeed, false);
    }
}
