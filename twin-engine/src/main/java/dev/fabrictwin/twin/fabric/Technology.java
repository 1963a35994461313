package dev.fabrictwin.twin.fabric;

import java.util.Locale;

/**
 * Transport technology and its latency/MTU constants. Values are practitioners' ballparks chosen so a
 * leaf-spine-leaf path (2 NICs + 3 switch hops) lands near the usual end-to-end figures: ~2 µs
 * InfiniBand, ~5 µs RoCEv2, ~50 µs kernel TCP over Ethernet.
 */
public enum Technology {
    /**
     * RDMA over Converged Ethernet v2, lossless with PFC and DCQCN/ECN. Per 4,096 B packet, 64 B of headers on the
     * wire (Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4 = 62, rounded as packet simulators do).
     */
    ROCE_V2("roce", 1.5, 0.6, 4096, 64),
    /** InfiniBand: credit-based link-level flow control, cut-through switches; LRH 8 + BTH 12 + ICRC 4 + VCRC 2 B. */
    INFINIBAND("infiniband", 0.6, 0.25, 4096, 26),
    /** Plain Ethernet with kernel TCP: Ethernet 18 + IPv4 20 + TCP 20 B. */
    ETHERNET("ethernet", 20.0, 3.0, 1500, 58);

    private final String label;
    private final double nicLatencyUs;
    private final double hopLatencyUs;
    private final int mtuBytes;
    private final int headerBytes;

    Technology(final String label, final double nicLatencyUs, final double hopLatencyUs, final int mtuBytes,
               final int headerBytes) {
        this.label = label;
        this.nicLatencyUs = nicLatencyUs;
        this.hopLatencyUs = hopLatencyUs;
        this.mtuBytes = mtuBytes;
        this.headerBytes = headerBytes;
    }

    /** Wire bytes per payload byte of a full packet: (MTU + headers) / MTU. */
    public double wirePerPayload() {
        return (mtuBytes + headerBytes) / (double) mtuBytes;
    }

    /** Bytes on the wire of one full data packet. */
    public int wirePacketBytes() {
        return mtuBytes + headerBytes;
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
            default -> throw new IllegalArgumentException("unknown technology " + Quoted.of(text)
                + " (expected roce, infiniband or ethernet)");
        };
    }
}
