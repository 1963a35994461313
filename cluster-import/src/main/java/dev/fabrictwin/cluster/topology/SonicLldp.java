package dev.fabrictwin.cluster.topology;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * SONiC's LLDP neighbours of one switch, as an APPL_DB dump holds them ({@code sonic-db-cli} / {@code redis-dump}):
 * keys {@code LLDP_ENTRY_TABLE:<port>} with {@code lldp_rem_sys_name}, {@code lldp_rem_port_id} (its
 * {@code lldp_rem_port_id_subtype} 3 is a MAC address, then {@code lldp_rem_port_desc} names the port) and
 * {@code lldp_rem_sys_cap_enabled} (LLDP-MIB bits as hex octets: {@code 28 00} is bridge and router). Other keys are
 * ignored, so a whole APPL_DB dump may be given. Rows of the management ports ({@code eth0}, {@code eth1}) are skipped
 * and listed. The dump does not name the local switch: the caller does.
 */
public final class SonicLldp {

    static final String TABLE = "LLDP_ENTRY_TABLE:";
    /** SONiC names its front-panel ports {@code Ethernet<N>}; {@code eth0}/{@code eth1} are the out-of-band management
     *  ports, whose neighbour is the management switch, not the fabric. */
    private static final Pattern MANAGEMENT = Pattern.compile("eth\\d+");

    private SonicLldp() {
    }

    public static Observations read(final String device, final JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("not an APPL_DB dump: expected a JSON object of keys");
        }
        final Observations out = new Observations();
        out.reported(device);
        for (final var it = root.fields(); it.hasNext();) {
            final Map.Entry<String, JsonNode> e = it.next();
            if (!e.getKey().startsWith(TABLE)) {
                continue;
            }
            final JsonNode row = e.getValue().has("value") ? e.getValue().get("value") : e.getValue(); // redis-dump wraps rows
            final String port = e.getKey().substring(TABLE.length());
            if (MANAGEMENT.matcher(port).matches()) {
                out.skipped(device + "/" + port + " → " + row.path("lldp_rem_sys_name").asText("?") + "/"
                    + row.path("lldp_rem_port_id").asText("?") + ": a SONiC management port, not a fabric link");
                continue;
            }
            final String system = row.path("lldp_rem_sys_name").asText("");
            final String remotePort = row.path("lldp_rem_port_id_subtype").asText("").equals("3")
                ? row.path("lldp_rem_port_desc").asText("") : row.path("lldp_rem_port_id").asText("");
            if (system.isBlank() || remotePort.isBlank()) {
                throw new IllegalArgumentException(e.getKey() + ": a neighbour without lldp_rem_sys_name or a port");
            }
            out.add(new Neighbor(device, port, system, remotePort, Double.NaN));
            kind(row.path("lldp_rem_sys_cap_enabled").asText("")).ifPresent(k -> out.kind(system, k));
        }
        return out;
    }

    /** LLDP-MIB capability bits, first octet (bit 0 its MSB): bridge 0x20, router 0x08, station only 0x01. */
    private static Optional<Observations.Kind> kind(final String capabilities) {
        final String hex = capabilities.replaceAll("[^0-9A-Fa-f]", "");
        if (hex.length() < 2) {
            return Optional.empty();
        }
        final int first = Integer.parseInt(hex.substring(0, 2), 16);
        if ((first & 0x28) != 0) {
            return Optional.of(Observations.Kind.SWITCH);
        }
        return (first & 0x01) != 0 ? Optional.of(Observations.Kind.HOST) : Optional.empty();
    }
}
