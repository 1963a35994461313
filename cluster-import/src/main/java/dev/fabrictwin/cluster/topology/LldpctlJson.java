package dev.fabrictwin.cluster.topology;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fabrictwin.cluster.FoundKeys;

/**
 * lldpd's {@code lldpctl} output of one device, in either JSON form.
 *
 * <ul>
 * <li>{@code -f json}: {@code {"lldp": {"interface": {"eth0": {"chassis": {"<system name>": {"capability": [...]}},
 * "port": {"id": {"type": "ifname", "value": "Ethernet0"}, "descr": ...}}}}}}; with several neighbours
 * {@code interface} is a list of such single-key objects.</li>
 * <li>{@code -f json0} (also what Cumulus {@code net show lldp json} prints): every value a list, names as values:
 * {@code {"lldp": [{"interface": [{"name": "eth0", "chassis": [{"name": [{"value": "spine1"}], "capability": [...]}],
 * "port": [{"id": [{"type": "mac", "value": ...}], "descr": [{"value": "swp1"}]}]}]}]}}.</li>
 * </ul>
 *
 * A device with no neighbour yet prints {@code {"lldp": {}}} (json0: {@code {"lldp": [{}]}}): it reported an empty
 * table, which the import lists. The output does not name the local device: the caller does. A neighbour's port is its
 * {@code ifname}/{@code local} id, else its description (a MAC id names no port). {@code -f keyvalue}:
 * {@link LldpctlKeyvalue}, into the same entries.
 */
public final class LldpctlJson {

    private LldpctlJson() {
    }

    /** One interface's neighbour, whichever form it came in; {@code system} null when the port has none. */
    record Entry(String localPort, String system, Optional<Observations.Kind> kind, String portIdType, String portId,
                 String portDescr) {
    }

    public static Observations read(final String device, final JsonNode root) {
        final JsonNode lldp = root == null || !root.isObject() ? null : root.get("lldp");
        final List<Entry> entries;
        if (lldp != null && lldp.isObject()) {
            entries = json(lldp.get("interface"));
        } else if (lldp != null && lldp.isArray()) {
            entries = json0(lldp);
        } else {
            throw new IllegalArgumentException("not lldpctl -f json or json0 output: expected an object with key 'lldp', found "
                + found(root));
        }
        return observations(device, entries);
    }

    /** The neighbours of {@code device}'s table, whichever lldpctl form its entries came in (json, json0, keyvalue). */
    static Observations observations(final String device, final List<Entry> entries) {
        final Observations out = new Observations();
        out.reported(device);
        if (entries.isEmpty()) {
            out.skipped(device + ": an LLDP table with no neighbour (agent just started, or links down)");
        }
        for (final Entry e : entries) {
            if (e.system() == null) {
                out.skipped(device + "/" + e.localPort() + ": no neighbour on this port");
                continue;
            }
            if (e.system().isBlank() || portName(e).isBlank()) {
                throw new IllegalArgumentException("interface " + e.localPort() + ": a neighbour without a system name or port");
            }
            out.add(new Neighbor(device, e.localPort(), e.system(), portName(e), Double.NaN));
            e.kind().ifPresent(k -> out.kind(e.system(), k));
        }
        return out;
    }

    /** {@code -f json}: {@code interface} absent (no neighbour), an object by port, or a list of single-key objects. */
    private static List<Entry> json(final JsonNode interfaces) {
        final List<Entry> out = new ArrayList<>();
        if (interfaces == null) {
            return out;
        }
        final List<Map.Entry<String, JsonNode>> ports = new ArrayList<>();
        if (interfaces.isArray()) {
            interfaces.forEach(o -> o.fields().forEachRemaining(ports::add));
        } else if (interfaces.isObject()) {
            interfaces.fields().forEachRemaining(ports::add);
        } else {
            throw new IllegalArgumentException("not lldpctl -f json output: lldp.interface is " + found(interfaces));
        }
        for (final Map.Entry<String, JsonNode> p : ports) {
            final JsonNode chassis = p.getValue().path("chassis");
            if (!chassis.isObject() || chassis.isEmpty()) {
                out.add(new Entry(p.getKey(), null, Optional.empty(), "", "", "")); // an interface listed with no neighbour
                continue;
            }
            final Map.Entry<String, JsonNode> remote = chassis.fields().next();
            // a chassis without a system name is keyed "id", its name (if any) beside it
            final String system = remote.getKey().equals("id") ? chassis.path("name").asText("") : remote.getKey();
            final JsonNode port = p.getValue().path("port");
            out.add(new Entry(p.getKey(), system, capability(remote.getValue().path("capability")),
                port.path("id").path("type").asText(""), port.path("id").path("value").asText(""), port.path("descr").asText("")));
        }
        return out;
    }

    /** {@code -f json0}: every value a list of objects, a plain value under {@code value}. */
    private static List<Entry> json0(final JsonNode lldp) {
        final List<Entry> out = new ArrayList<>();
        for (final JsonNode table : lldp) {
            for (final JsonNode i : table.path("interface")) {
                final String name = i.path("name").asText("");
                if (name.isBlank()) {
                    throw new IllegalArgumentException("not lldpctl -f json0 output: an interface without 'name'");
                }
                final JsonNode chassis = i.path("chassis").path(0);
                final JsonNode port = i.path("port").path(0);
                if (chassis.isMissingNode()) {
                    out.add(new Entry(name, null, Optional.empty(), "", "", ""));
                    continue;
                }
                out.add(new Entry(name, first(chassis.path("name")), capability(chassis.path("capability")),
                    port.path("id").path(0).path("type").asText(""), port.path("id").path(0).path("value").asText(""),
                    first(port.path("descr"))));
            }
        }
        return out;
    }

    private static String first(final JsonNode values) {
        return values.path(0).path("value").asText("");
    }

    private static String portName(final Entry e) {
        if ((e.portIdType().equals("ifname") || e.portIdType().equals("local")) && !e.portId().isBlank()) {
            return e.portId();
        }
        return e.portDescr().isBlank() ? e.portId() : e.portDescr();
    }

    private static String found(final JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        if (node.isObject()) {
            return "an object with keys " + FoundKeys.of(node, 5);
        }
        return "a JSON " + node.getNodeType().toString().toLowerCase(Locale.ROOT);
    }

    private static Optional<Observations.Kind> capability(final JsonNode caps) {
        final List<String> enabled = new ArrayList<>();
        for (final JsonNode c : caps.isArray() ? caps : List.of(caps)) {
            if (c.path("enabled").asBoolean(false)) {
                enabled.add(c.path("type").asText(""));
            }
        }
        return kind(enabled);
    }

    /** Bridge or Router enabled: a switch; only Station enabled: a host. */
    static Optional<Observations.Kind> kind(final Collection<String> enabledCapabilities) {
        if (enabledCapabilities.contains("Bridge") || enabledCapabilities.contains("Router")) {
            return Optional.of(Observations.Kind.SWITCH);
        }
        return enabledCapabilities.contains("Station") ? Optional.of(Observations.Kind.HOST) : Optional.empty();
    }
}
