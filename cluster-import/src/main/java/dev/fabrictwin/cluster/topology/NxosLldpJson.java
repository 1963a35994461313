package dev.fabrictwin.cluster.topology;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fabrictwin.cluster.FoundKeys;

/**
 * Cisco NX-OS {@code show lldp neighbors | json} (or {@code | json native}, its numbers unquoted) and
 * {@code show lldp neighbors detail | json}, as printed on the switch or as NX-API's answer (the body of
 * {@code ins_api.outputs.output}). The summary form is {@code TABLE_nbor.ROW_nbor}, the detail form
 * {@code TABLE_nbor_detail.ROW_nbor_detail}: a row per neighbour (one row is an object, not a list, as NX-OS prints its
 * tables). Both give {@code l_port_id}, the local port in NX-OS's short form ({@code Eth1/1}, written out as
 * {@code Ethernet1/1}, the name the neighbours' own rows give that port), {@code port_id} the neighbour's port and
 * {@code enabled_capability} letters (B bridge or R router: a switch; S station alone: a host). The neighbour's system
 * name is the summary row's {@code chassis_id} (its Device ID: NX-OS labels it "Locally Assigned" whatever the neighbour
 * sent) and the detail row's {@code sys_name} (its {@code chassis_id} is the chassis id proper, often a MAC). A port id
 * that is a MAC ({@code port_type} {@code Mac Address}) names the port in the summary form, which has no description;
 * the detail form names it by its {@code port_desc} when the neighbour sent one. Rows of the management port
 * {@code mgmt0} (its neighbour is the out-of-band switch) and rows without a name or port are skipped and listed. A
 * switch with no neighbour prints only {@code neigh_count} 0: an empty table, listed. The output does not name the
 * local switch: the caller does.
 */
public final class NxosLldpJson {

    private static final String FORM = "NX-OS 'show lldp neighbors [detail] | json'";
    /** NX-OS's short name of its Ethernet ports, in l_port_id only. */
    private static final Pattern SHORT_ETHERNET = Pattern.compile("^Eth(?=\\d)");
    /** What NX-OS prints for a field the neighbour did not send. */
    private static final Set<String> NOT_SENT = Set.of("", "null", "not advertised");

    private NxosLldpJson() {
    }

    public static Observations read(final String device, final JsonNode document) {
        final JsonNode root = body(document);
        final boolean detail = root != null && root.has("TABLE_nbor_detail");
        final JsonNode table = root == null ? null : root.get(detail ? "TABLE_nbor_detail" : "TABLE_nbor");
        final boolean none = root != null && table == null && root.path("neigh_count").asText("").equals("0");
        if (!none && (table == null || !table.isObject())) {
            throw new IllegalArgumentException("not " + FORM + " output: expected an object with TABLE_nbor or TABLE_nbor_detail, "
                + "found " + (root == null || !root.isObject() ? "no object" : "keys " + FoundKeys.of(root, 8)));
        }
        final Observations out = new Observations();
        out.reported(device);
        if (none) {
            out.skipped(device + ": an LLDP table with no neighbour (neigh_count 0)");
            return out;
        }
        final String rowKey = detail ? "ROW_nbor_detail" : "ROW_nbor";
        final JsonNode rows = table.path(rowKey);
        if (!rows.isArray() && !rows.isObject()) {
            out.skipped(device + ": an LLDP table with no neighbour (no " + rowKey + ")");
            return out;
        }
        for (final JsonNode row : rows.isArray() ? rows : List.of(rows)) {
            final String local = SHORT_ETHERNET.matcher(row.path("l_port_id").asText("").strip()).replaceFirst("Ethernet");
            final String system = detail ? sent(row, "sys_name").orElse(row.path("chassis_id").asText("").strip())
                : row.path("chassis_id").asText("").strip();
            final String port = detail && row.path("port_type").asText("").equals("Mac Address")
                ? sent(row, "port_desc").orElse(row.path("port_id").asText("").strip()) : row.path("port_id").asText("").strip();
            if (local.equals("mgmt0")) {
                out.skipped(device + "/mgmt0 → " + system + "/" + port + ": an NX-OS management port, not a fabric link");
                continue;
            }
            if (local.isBlank() || system.isBlank() || port.isBlank()) {
                out.skipped(device + "/" + (local.isBlank() ? "?" : local) + ": an NX-OS LLDP row without "
                    + (local.isBlank() ? "l_port_id" : system.isBlank() ? (detail ? "sys_name" : "chassis_id") + " (the neighbour's name)" : "port_id"));
                continue;
            }
            out.add(new Neighbor(device, local, system, port, Double.NaN));
            kind(row.path("enabled_capability").asText("")).ifPresent(k -> out.kind(system, k));
        }
        return out;
    }

    /** A field the neighbour sent, stripped. */
    private static Optional<String> sent(final JsonNode row, final String field) {
        final String value = row.path(field).asText("").strip();
        return NOT_SENT.contains(value) ? Optional.empty() : Optional.of(value);
    }

    /** The switch's own output, or the body NX-API answered it in ({@code ins_api.outputs.output}, one or a list). */
    private static JsonNode body(final JsonNode root) {
        final JsonNode output = root == null ? null : root.path("ins_api").path("outputs").path("output");
        if (output == null || output.isMissingNode()) {
            return root;
        }
        for (final JsonNode answer : output.isArray() ? output : List.of(output)) {
            final JsonNode body = answer.path("body");
            if (body.has("TABLE_nbor") || body.has("TABLE_nbor_detail") || body.has("neigh_count")) {
                return body;
            }
        }
        return root;
    }

    /** NX-OS's capability letters: B bridge, R router, S station (W, T, P, C, O say nothing of a role here). */
    private static Optional<Observations.Kind> kind(final String letters) {
        if (letters.contains("B") || letters.contains("R")) {
            return Optional.of(Observations.Kind.SWITCH);
        }
        return letters.contains("S") ? Optional.of(Observations.Kind.HOST) : Optional.empty();
    }
}
