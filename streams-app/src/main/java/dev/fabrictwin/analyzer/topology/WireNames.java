package dev.fabrictwin.analyzer.topology;

import java.util.List;

/**
 * The counter and gauge names the analyzer's binary encodings write as one byte (their index + 1; 0: the name
 * follows as text). Append only: records and stores already written read through this table.
 */
final class WireNames {

    private static final List<String> NAMES = List.of("tx_bytes", "rx_bytes", "tx_packets", "rx_packets",
        "ecn_marked", "cnp_sent", "cnp_handled", "rx_drops", "tx_drops", "fcs_errors", "fec_corrected",
        "fec_uncorrectable", "oper_up", "speed_bps", "queue_depth_bytes", "buffer_watermark_bytes", "latency_p50_us",
        "latency_p99_us", "tx_pfc_pause.0", "tx_pfc_pause.1", "tx_pfc_pause.2", "tx_pfc_pause.3", "tx_pfc_pause.4",
        "tx_pfc_pause.5", "tx_pfc_pause.6", "tx_pfc_pause.7", "rx_pfc_pause.0", "rx_pfc_pause.1", "rx_pfc_pause.2",
        "rx_pfc_pause.3", "rx_pfc_pause.4", "rx_pfc_pause.5", "rx_pfc_pause.6", "rx_pfc_pause.7",
        "rx_pause_duration_us.0", "rx_pause_duration_us.1", "rx_pause_duration_us.2", "rx_pause_duration_us.3",
        "rx_pause_duration_us.4", "rx_pause_duration_us.5", "rx_pause_duration_us.6", "rx_pause_duration_us.7",
        "link_flaps", "tx_bps", "rx_bps");
    /**
     * Open addressing over twice the names: the lookup of every name of every sample the stage writes (a
     * {@code HashMap<String, Integer>}'s node and box loads were ~3 % of the stream threads in bench streams).
     */
    private static final int SLOTS = 128;
    private static final String[] SLOT_NAMES = new String[SLOTS];
    private static final byte[] SLOT_CODES = new byte[SLOTS];

    static {
        if (NAMES.size() > 63) { // readers keep the codes they met in a long's bits
            throw new ExceptionInInitializerError("more than 63 wire names");
        }
        for (int i = 0; i < NAMES.size(); i++) {
            int slot = slot(NAMES.get(i));
            while (SLOT_NAMES[slot] != null) {
                slot = (slot + 1) & (SLOTS - 1);
            }
            SLOT_NAMES[slot] = NAMES.get(i);
            SLOT_CODES[slot] = (byte) (i + 1);
        }
    }

    private WireNames() {
    }

    private static int slot(final String name) {
        final int h = name.hashCode();
        return ((h ^ (h >>> 16)) * 0x9E3779B1) >>> 25;
    }

    /** The name's one-byte code, or 0 if it has none (then it is written as text). */
    static int code(final String name) {
        for (int slot = slot(name); ; slot = (slot + 1) & (SLOTS - 1)) {
            final String at = SLOT_NAMES[slot];
            if (at == null) {
                return 0;
            }
            if (at == name || at.equals(name)) { // names are interned: the same instance, mostly
                return SLOT_CODES[slot];
            }
        }
    }

    /** The name of a code {@link #code} gave (1 and up). */
    static String name(final int code) {
        if (code < 1 || code > NAMES.size()) {
            throw new IllegalArgumentException("unknown name code " + code);
        }
        return NAMES.get(code - 1);
    }
}
