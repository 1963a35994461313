package dev.fabrictwin.analyzer.topology;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
    private static final Map<String, Integer> CODES = new HashMap<>();

    static {
        if (NAMES.size() > 63) { // readers keep the codes they met in a long's bits
            throw new ExceptionInInitializerError("more than 63 wire names");
        }
        for (int i = 0; i < NAMES.size(); i++) {
            CODES.put(NAMES.get(i), i + 1);
        }
    }

    private WireNames() {
    }

    /** The name's one-byte code, or 0 if it has none (then it is written as text). */
    static int code(final String name) {
        final Integer code = CODES.get(name);
        return code == null ? 0 : code;
    }

    /** The name of a code {@link #code} gave (1 and up). */
    static String name(final int code) {
        if (code < 1 || code > NAMES.size()) {
            throw new IllegalArgumentException("unknown name code " + code);
        }
        return NAMES.get(code - 1);
    }
}
