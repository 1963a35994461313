package dev.fabrictwin.twin.fabric;

import java.util.Locale;

/**
 * Transport technology and its latency/MTU constants. Values are practitioners' ballparks chosen so a
 * leaf-spine-leaf path (2 NICs + 3 switch hops) lands near the usual end-to-end figures: ~2 µs
 * InfiniBand, ~5 µs RoCEv2, ~50 µs kernel TCP over Ethernet.
 */
public enum Technology {
    /** RDMA over Converged Ethernet v2, lossless with PFC and DCQCN/ECN. */
    ROCE_V2("roce", 1.5, 0.6, 4096),
    /** InfiniBand: credit-based link-level flow control, cut-through switches. */
    INFINIBAND("infiniband", 0.6, 0.25, 4096),
    /** Plain Ethernet with kernel TCP. */
    ETHERNET("ethernet", 20.0, 3.0, 1500);

    private final String label;
    private final double nicLatencyUs;
    private final double hopLatencyUs;
    private final int mtuBytes;

    Technology(final String label, final double nicLatencyUs, final double hopLatencyUs, final int mtuBytes) {
        this.label = label;
        this.nicLatencyUs = nicLatencyUs;
        this.hopLatencyUs = hopLatencyUs;
        this.mtuBytes = mtuBytes;
    }

    public String label() {
        return label;
    }

    /** One NIC's send or receive processing latency. */
    public double nicLatencyUs() {
        return nicLatencyUs;
    }

    /** One switch traversal with empty queues. */
    public double hopLatencyUs() {
        return hopLatencyUs;
    }

    public int mtuBytes() {
        return mtuBytes;
    }

    /** Unloaded one-way latency over {@code switchHops} switches. */
    public double baseLatencyUs(final int switchHops) {
        return 2 * nicLatencyUs + switchHops * hopLatencyUs;
    }

    /** Accepts {@code roce}, {@code rocev2}, {@code roce_v2}, {@code ib}, {@code infiniband}, {@code ethernet}, {@code tcp}. */
    public static Technology parse(final String text) {
        return switch (text.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "")) {
            case "roce", "rocev2" -> ROCE_V2;
            case "ib", "infiniband" -> INFINIBAND;
            case "ethernet", "tcp", "eth" -> ETHERNET;
            default -> throw new IllegalArgumentException("unknown technology '" + text
                + "' (expected roce, infiniband or ethernet)");
        };
    }
}
