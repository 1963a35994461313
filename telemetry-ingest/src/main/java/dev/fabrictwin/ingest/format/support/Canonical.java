package dev.fabrictwin.ingest.format.support;

import java.util.Set;

import dev.fabrictwin.twin.model.CounterNames;

/**
 * The canonical vocabulary (docs/contracts.md) as sets, so adapters can tell canonical counters and gauges apart. This is
 * the one copy of those sets in the ingest side; adapters ask here rather than keep their own.
 */
public final class Canonical {

    /** Counters a sample carries once per port. */
    private static final Set<String> PER_PORT = Set.of(CounterNames.TX_BYTES, CounterNames.RX_BYTES,
        CounterNames.TX_PACKETS, CounterNames.RX_PACKETS, CounterNames.ECN_MARKED, CounterNames.CNP_SENT,
        CounterNames.CNP_HANDLED, CounterNames.RX_DROPS, CounterNames.TX_DROPS, CounterNames.FCS_ERRORS,
        CounterNames.FEC_CORRECTED, CounterNames.FEC_UNCORRECTABLE, CounterNames.LINK_FLAPS);

    /** Counters a sample carries once per priority, as {@code <name>.<priority>}. */
    private static final Set<String> PER_PRIORITY = Set.of(CounterNames.TX_PFC_PAUSE, CounterNames.RX_PFC_PAUSE,
        CounterNames.RX_PAUSE_DURATION_US);

    private static final Set<String> GAUGES = Set.of(CounterNames.OPER_UP, CounterNames.SPEED_BPS,
        CounterNames.QUEUE_DEPTH_BYTES, CounterNames.BUFFER_WATERMARK_BYTES, CounterNames.LATENCY_P50_US,
        CounterNames.LATENCY_P99_US, CounterNames.TX_BPS, CounterNames.RX_BPS);

    private Canonical() {
    }

    /**
     * A canonical counter name, including per-priority names such as {@code rx_pfc_pause.3} and, as the
     * text-format adapters (prometheus, sonic) have always counted them, the bare per-priority names
     * ({@code rx_pfc_pause}).
     */
    public static boolean isCounter(final String name) {
        return isSampleCounter(name) || PER_PRIORITY.contains(name);
    }

    /**
     * A counter name a canonical sample carries (docs/ingest.md): a per-port counter, or a per-priority counter
     * with its priority ({@code rx_pfc_pause.3}). A bare per-priority name is not one; the typed formats
     * ({@link SampleValues}) keep a fraction under it as a gauge instead of rejecting it.
     */
    public static boolean isSampleCounter(final String name) {
        return PER_PORT.contains(name) || isPerPriority(name);
    }

    /** A counter a sample carries once per port ({@code rx_bytes}, {@code tx_drops}, ...), so once per queue too. */
    public static boolean isPortCounter(final String name) {
        return PER_PORT.contains(name);
    }

    public static boolean isGauge(final String name) {
        return GAUGES.contains(name);
    }

    /** {@code <per-priority counter>.<digits>}. */
    private static boolean isPerPriority(final String name) {
        final int dot = name.lastIndexOf('.');
        if (dot <= 0 || dot == name.length() - 1) {
            return false;
        }
        for (int i = dot + 1; i < name.length(); i++) {
            final char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return PER_PRIORITY.contains(name.substring(0, dot));
    }
}
