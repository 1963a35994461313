package dev.fabrictwin.twin.model;

import java.util.Map;
import java.util.Set;

/** Canonical counter and gauge names (docs/contracts.md): the vocabulary the twin, the generator and the analyzer share. */
public final class CounterNames {

    public static final String TX_BYTES = "tx_bytes";
    public static final String RX_BYTES = "rx_bytes";
    public static final String TX_PACKETS = "tx_packets";
    public static final String RX_PACKETS = "rx_packets";
    public static final String TX_PFC_PAUSE = "tx_pfc_pause";
    public static final String RX_PFC_PAUSE = "rx_pfc_pause";
    public static final String RX_PAUSE_DURATION_US = "rx_pause_duration_us";
    public static final String ECN_MARKED = "ecn_marked";
    public static final String CNP_SENT = "cnp_sent";
    public static final String CNP_HANDLED = "cnp_handled";
    public static final String RX_DROPS = "rx_drops";
    public static final String TX_DROPS = "tx_drops";
    public static final String FCS_ERRORS = "fcs_errors";
    public static final String FEC_CORRECTED = "fec_corrected";
    public static final String FEC_UNCORRECTABLE = "fec_uncorrectable";
    /**
     * Carrier transitions: each time the link went down or came up (a flap, down and up, adds 2). Sources that count
     * only the downs (Linux {@code carrier_down_count}, InfiniBand {@code LinkDownedCounter}) are mapped ×2.
     */
    public static final String LINK_FLAPS = "link_flaps";

    public static final String OPER_UP = "oper_up";
    public static final String SPEED_BPS = "speed_bps";
    public static final String QUEUE_DEPTH_BYTES = "queue_depth_bytes";
    public static final String BUFFER_WATERMARK_BYTES = "buffer_watermark_bytes";
    public static final String LATENCY_P50_US = "latency_p50_us";
    public static final String LATENCY_P99_US = "latency_p99_us";
    /** Transmit and receive rates in bit/s as the device computes them: what a port that exports no byte counter gives. */
    public static final String TX_BPS = "tx_bps";
    public static final String RX_BPS = "rx_bps";

    /** Canonical gauges that measure a state, a speed, an amount or a time: none of them can be below zero. */
    private static final Set<String> NEVER_NEGATIVE = Set.of(OPER_UP, SPEED_BPS, QUEUE_DEPTH_BYTES,
        BUFFER_WATERMARK_BYTES, LATENCY_P50_US, LATENCY_P99_US, TX_BPS, RX_BPS);

    /**
     * The first canonical gauge below zero (a per-queue form {@code queue_depth_bytes.q3} included), or null. Other
     * gauges keep their sign: an optical power in dBm is negative.
     */
    public static String negativeGauge(final Map<String, Double> gauges) {
        for (final var e : gauges.entrySet()) {
            final String name = e.getKey();
            final int dot = name.indexOf('.');
            if (e.getValue() < 0 && NEVER_NEGATIVE.contains(dot < 0 ? name : name.substring(0, dot))) {
                return name;
            }
        }
        return null;
    }

    private CounterNames() {
    }

    /** Per-priority counter name, e.g. {@code tx_pfc_pause.3}. */
    public static String perPriority(final String base, final int priority) {
        return base + "." + priority;
    }
}
