package dev.fabrictwin.twin.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A dense index of the canonical counter and gauge names (per-priority ones for priorities 0–7), so hot paths
 * can keep a port's values in {@code double[]} instead of maps: {@link #of} gives a name's slot, -1 for a name
 * outside the canonical vocabulary (those stay in maps).
 */
public final class CounterIndex {

    private static final List<String> NAMES = new ArrayList<>();
    private static final Map<String, Integer> SLOTS = new HashMap<>();

    static {
        for (final String n : List.of(CounterNames.TX_BYTES, CounterNames.RX_BYTES, CounterNames.TX_PACKETS,
            CounterNames.RX_PACKETS, CounterNames.ECN_MARKED, CounterNames.CNP_SENT, CounterNames.CNP_HANDLED,
            CounterNames.RX_DROPS, CounterNames.TX_DROPS, CounterNames.FCS_ERRORS, CounterNames.FEC_CORRECTED,
            CounterNames.FEC_UNCORRECTABLE, CounterNames.OPER_UP, CounterNames.SPEED_BPS,
            CounterNames.QUEUE_DEPTH_BYTES, CounterNames.BUFFER_WATERMARK_BYTES, CounterNames.LATENCY_P50_US,
            CounterNames.LATENCY_P99_US, CounterNames.LINK_FLAPS)) {
            add(n);
        }
        for (final String base : List.of(CounterNames.TX_PFC_PAUSE, CounterNames.RX_PFC_PAUSE,
            CounterNames.RX_PAUSE_DURATION_US)) {
            for (int p = 0; p < 8; p++) {
                add(CounterNames.perPriority(base, p));
            }
        }
    }

    /** Slots of {@code tx_pfc_pause.0..7}, {@code rx_pfc_pause.0..7}. */
    public static final int[] TX_PFC = slots(CounterNames.TX_PFC_PAUSE);
    public static final int[] RX_PFC = slots(CounterNames.RX_PFC_PAUSE);
    /** Slots of the names detectors read for every port in every tick: no name is looked up there. */
    public static final int TX_BYTES = SLOTS.get(CounterNames.TX_BYTES);
    public static final int RX_BYTES = SLOTS.get(CounterNames.RX_BYTES);
    public static final int TX_PACKETS = SLOTS.get(CounterNames.TX_PACKETS);
    public static final int RX_PACKETS = SLOTS.get(CounterNames.RX_PACKETS);
    public static final int ECN_MARKED = SLOTS.get(CounterNames.ECN_MARKED);
    public static final int CNP_HANDLED = SLOTS.get(CounterNames.CNP_HANDLED);
    public static final int FCS_ERRORS = SLOTS.get(CounterNames.FCS_ERRORS);
    public static final int FEC_CORRECTED = SLOTS.get(CounterNames.FEC_CORRECTED);
    public static final int FEC_UNCORRECTABLE = SLOTS.get(CounterNames.FEC_UNCORRECTABLE);
    public static final int QUEUE_DEPTH_BYTES = SLOTS.get(CounterNames.QUEUE_DEPTH_BYTES);
    public static final int BUFFER_WATERMARK_BYTES = SLOTS.get(CounterNames.BUFFER_WATERMARK_BYTES);
    public static final int LATENCY_P99_US = SLOTS.get(CounterNames.LATENCY_P99_US);
    public static final int LINK_FLAPS = SLOTS.get(CounterNames.LINK_FLAPS);

    private CounterIndex() {
    }

    private static void add(final String name) {
        SLOTS.put(name, NAMES.size());
        NAMES.add(name);
    }

    private static int[] slots(final String base) {
        final int[] out = new int[8];
        for (int p = 0; p < 8; p++) {
            out[p] = SLOTS.get(CounterNames.perPriority(base, p));
        }
        return out;
    }

    /** The slot of a canonical name, or -1. */
    public static int of(final String name) {
        final Integer slot = SLOTS.get(name);
        return slot == null ? -1 : slot;
    }

    public static String name(final int slot) {
        return NAMES.get(slot);
    }

    public static int size() {
        return NAMES.size();
    }
}
