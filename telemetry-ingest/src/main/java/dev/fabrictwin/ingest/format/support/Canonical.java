package dev.fabrictwin.ingest.format.support;

import java.util.Set;

import dev.fabrictwin.twin.model.CounterNames;

/** The canonical vocabulary (DESIGN §3) as sets, so adapters can tell canonical counters and gauges apart. */
public final class Canonical {

    private static final Set<String> COUNTERS = Set.of(CounterNames.TX_BYTES, CounterNames.RX_BYTES,
        CounterNames.TX_PACKETS, CounterNames.RX_PACKETS, CounterNames.TX_PFC_PAUSE, CounterNames.RX_PFC_PAUSE,
        CounterNames.RX_PAUSE_DURATION_US, CounterNames.ECN_MARKED, CounterNames.CNP_SENT, CounterNames.CNP_HANDLED,
        CounterNames.RX_DROPS, CounterNames.TX_DROPS, CounterNames.FCS_ERRORS, CounterNames.FEC_CORRECTED,
        CounterNames.FEC_UNCORRECTABLE);

    private static final Set<String> PER_PRIORITY = Set.of(CounterNames.TX_PFC_PAUSE, CounterNames.RX_PFC_PAUSE,
        CounterNames.RX_PAUSE_DURATION_US);

    private static final Set<String> GAUGES = Set.of(CounterNames.OPER_UP, CounterNames.SPEED_BPS,
        CounterNames.QUEUE_DEPTH_BYTES, CounterNames.BUFFER_WATERMARK_BYTES, CounterNames.LATENCY_P50_US,
        CounterNames.LATENCY_P99_US);

    private Canonical() {
    }

    /** A canonical counter name, including per-priority names such as {@code rx_pfc_pause.3}. */
    public static boolean isCounter(final String name) {
        if (COUNTERS.contains(name)) {
            return true;
        }
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

    public static boolean isGauge(final String name) {
        return GAUGES.contains(name);
    }
}
