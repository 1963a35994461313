package dev.fabrictwin.cli.cluster;

import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fabrictwin.twin.telemetry.Sample;

/**
 * Writes a canonical sample the way real collectors put it on Kafka, so an end-to-end test can feed the
 * collectors' topics: a switch port as a gnmic {@code format: event} message with OpenConfig leaf names, a host
 * NIC as a Telegraf {@code ethtool} line (influx serializer) with mlx5 field names. Only the counters those
 * collectors really report are written (no canonical names leak through).
 */
final class CollectorMessages {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Canonical counter → OpenConfig interface counter leaf. */
    private static final Map<String, String> OPENCONFIG = Map.of(
        "rx_bytes", "in-octets", "tx_bytes", "out-octets", "rx_packets", "in-pkts", "tx_packets", "out-pkts",
        "rx_drops", "in-discards", "tx_drops", "out-discards", "fcs_errors", "in-fcs-errors", "ecn_marked", "ecn-marked-pkts");

    /** Canonical counter → mlx5 {@code ethtool -S} name, as Telegraf's ethtool input reports them. */
    private static final Map<String, String> MLX5 = Map.of(
        "rx_bytes", "rx_bytes", "tx_bytes", "tx_bytes", "rx_packets", "rx_packets", "tx_packets", "tx_packets",
        "rx_drops", "rx_discards_phy", "fcs_errors", "rx_crc_errors_phy", "rx_pfc_pause.3", "rx_prio3_pause",
        "tx_pfc_pause.3", "tx_prio3_pause", "ecn_marked", "rx_ecn_mark", "cnp_sent", "np_cnp_sent");

    private CollectorMessages() {
    }

    /** gnmic event: {@code {"name","timestamp"(ns),"tags":{"interface_name","source"},"values":{path: "n"}}}. */
    static String gnmicEvent(final Sample s) {
        final ObjectNode o = JSON.createObjectNode();
        o.put("name", "fabric-counters");
        o.put("timestamp", s.ts() * 1_000_000L);
        o.putObject("tags").put("interface_name", s.port()).put("source", s.device() + ":57400")
            .put("subscription-name", "fabric-counters");
        final ObjectNode values = o.putObject("values");
        s.counters().forEach((name, value) -> {
            final String leaf = OPENCONFIG.get(name);
            if (leaf != null) {
                values.put("/interfaces/interface/state/counters/" + leaf, Long.toUnsignedString(value));
            }
        });
        final Double up = s.gauges().get("oper_up");
        if (up != null) {
            values.put("/interfaces/interface/state/oper-status", up != 0 ? "UP" : "DOWN");
        }
        return o.toString();
    }

    /** Telegraf ethtool line: {@code ethtool,driver=mlx5_core,host=H,interface=P field=Nu,... ts(ns)}. */
    static String telegrafEthtool(final Sample s) {
        final StringBuilder fields = new StringBuilder();
        s.counters().forEach((name, value) -> {
            final String field = MLX5.get(name);
            if (field != null) {
                fields.append(fields.length() == 0 ? "" : ",").append(field).append('=')
                    .append(Long.toUnsignedString(value)).append('u');
            }
        });
        final Double up = s.gauges().get("oper_up");
        if (up != null) {
            fields.append(",link_up=").append(up != 0 ? "true" : "false");
        }
        return String.format(Locale.ROOT, "ethtool,driver=mlx5_core,host=%s,interface=%s %s %d", s.device(), s.port(),
            fields, s.ts() * 1_000_000L);
    }
}
