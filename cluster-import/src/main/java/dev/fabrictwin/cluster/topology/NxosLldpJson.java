package dev.fabrictwin.cluster.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Cisco NX-OS {@code show lldp neighbors | json} (or {@code | json native}, its numbers unquoted): {@code TABLE_nbor.ROW_nbor},
 * a row per neighbour (one row is an object, not a list, as NX-OS prints its tables). A row's {@code chassis_id} is the
 * neighbour's Device ID, its system name (NX-OS labels it "Locally Assigned" whatever the neighbour sent: a Junos
 * switch's MAC chassis id shows as its name); {@code l_port_id} the local port in NX-OS's short form ({@code Eth1/1},
 * written out as {@code Ethernet1/1}, the name the neighbours' own rows give that port); {@code port_id} the neighbour's
 * port (a MAC for port type {@code Mac Address}: this form has no port description, so the MAC names the port, as it does
 * in lldpctl's); {@code enabled_capability} letters (B bridge or R router: a switch; S station alone: a host). Rows of the
 * management port {@code mgmt0} (its neighbour is the out-of-band switch) and rows without a name or port are skipped
 * and listed. A switch with no neighbour prints only {@code neigh_count} 0: an empty table, listed. The output does not
 * name the local switch: the caller does.
 *
 * <p>{@code show lldp neighbors detail | json} ({@code TABLE_nbor_detail}) is refused naming the form read: no real
 * capture of it was found to test a reader on.
 */
public final class NxosLldpJson {

    private static final String FORM = "NX-OS 'show lldp neighbors | json'";
    /** NX-OS's short name of its Ethernet ports, in l_port_id only. */
    private static final Pattern SHORT_ETHERNET = Pattern.compile("^Eth(?=\\d)");

    private NxosLldpJson() {
    }

    public static Observations read(final String device, final JsonNode root) {
        final JsonNode table = root == null ? null : root.get("TABLE_nbor");
        if (root != null && root.has("TABLE_nbor_detail")) {
            throw new IllegalArgumentException("NX-OS 'show lldp neighbors detail | json' (TABLE_nbor_detail) is not read: no real "
                + "capture of it was found to test on; give " + FORM + " of the same switch");
        }
        final boolean none = root != null && table == null && root.path("neigh_count").asText("").equals("0");
        if (!none && (table == null || !table.isObject())) {
            final List<String> keys = new ArrayList<>();
            if (root != null) {
                root.fieldNames().forEachRemaining(keys::add);
            }
            throw new IllegalArgumentException("not " + FORM + " output: expected an object with TABLE_nbor, found "
                + (root == null || !root.isObject() ? "no object" : "keys " + keys));
        }
        final Observations out = new Observations();
        out.reported(device);
        if (none) {
            out.skipped(device + ": an LLDP table with no neighbour (neigh_count 0)");
            return out;
        }
        final JsonNode rows = table.path("ROW_nbor");
        if (!rows.isArray() && !rows.isObject()) {
            out.skipped(device + ": an LLDP table with no neighbour (no ROW_nbor)");
            return out;
        }
        for (final JsonNode row : rows.isArray() ? rows : List.of(rows)) {
            final String local = SHORT_ETHERNET.matcher(row.path("l_port_id").asText("").strip()).replaceFirst("Ethernet");
            final String system = row.path("chassis_id").asText("").strip();
            final String port = row.path("port_id").asText("").strip();
            if (local.equals("mgmt0")) {
                out.skipped(device + "/mgmt0 → " + system + "/" + port + ": an NX-OS management port, not a fabric link");
                continue;
            }
            if (local.isBlank() || system.isBlank() || port.isBlank()) {
                out.skipped(device + "/" + (local.isBlank() ? "?" : local) + ": an NX-OS LLDP row without "
                    + (local.isBlank() ? "l_port_id" : system.isBlank() ? "chassis_id (the neighbour's name)" : "port_id"));
                continue;
            }
            out.add(new Neighbor(device, local, system, port, Double.NaN));
            kind(row.path("enabled_capability").asText("")).ifPresent(k -> out.kind(system, k));
        }
        return out;
    }

    /** NX-OS's capability letters: B bridge, R router, S station (W, T, P, C, O say nothing of a role here). */
    private static Optional<Observations.Kind> kind(final String letters) {
        if (letters.contains("B") || letters.contains("R")) {
            return Optional.of(Observations.Kind.SWITCH);
        }
        return letters.contains("S") ? Optional.of(Observations.Kind.HOST) : Optional.empty();
    }
}
