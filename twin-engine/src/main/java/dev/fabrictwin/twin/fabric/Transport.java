package dev.fabrictwin.twin.fabric;

import java.util.Locale;

/**
 * How the fabric's RDMA transport reacts to congestion (docs/contracts.md, {@code transport}). {@code ECN}: switches
 * mark ECN and DCQCN senders slow down, so only overload beyond what marking absorbs reaches PFC; {@code PFC}: no
 * congestion control, PFC alone keeps the fabric lossless and every overload pauses the links feeding it. Packet
 * spraying is a routing choice ({@code routing: spray}), not a transport.
 */
public enum Transport {
    ECN, PFC;

    public static Transport parse(final String text) {
        return switch (text.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "").replace("+", "")) {
            case "ecn", "dcqcn", "ecndcqcn" -> ECN;
            case "pfc", "pfconly", "lossless" -> PFC;
            default -> throw new IllegalArgumentException("unknown transport " + Quoted.of(text)
                + " (expected ecn or pfc)");
        };
    }
}
