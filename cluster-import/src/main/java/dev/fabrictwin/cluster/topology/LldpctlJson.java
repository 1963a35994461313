package dev.fabrictwin.cluster.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * {@code lldpctl -f json} (lldpd) of one device: {@code {"lldp": {"interface": {"eth0": {"chassis": {"<system name>":
 * {"capability": [...]}}, "port": {"id": {"type": "ifname", "value": "Ethernet0"}, "descr": ...}}}}}}; with several
 * neighbours {@code interface} is a list of such single-key objects. The output does not name the local device: the
 * caller does. A neighbour's port is its {@code ifname}/{@code local} id, else its description (a MAC id names no port).
 */
public final class LldpctlJson {

    private LldpctlJson() {
    }

    public static Observations read(final String device, final JsonNode root) {
        final JsonNode interfaces = root == null ? null : root.path("lldp").get("interface");
        if (interfaces == null) {
            throw new IllegalArgumentException("not lldpctl -f json output: no lldp.interface");
        }
        final Observations out = new Observations();
        out.reported(device);
        for (final Map.Entry<String, JsonNode> e : entries(interfaces)) {
            final JsonNode chassis = e.getValue().path("chassis");
            if (!chassis.isObject() || chassis.isEmpty()) {
                continue; // no neighbour on this port
            }
            final Map.Entry<String, JsonNode> remote = chassis.fields().next();
            final String system = remote.getKey().equals("id") ? chassis.path("name").asText("") : remote.getKey();
            final String port = portName(e.getValue().path("port"));
            if (system.isBlank() || port.isBlank()) {
                throw new IllegalArgumentException("interface " + e.getKey() + ": a neighbour without a system name or port");
            }
            out.add(new Neighbor(device, e.getKey(), system, port, Double.NaN));
            capability(remote.getValue().path("capability")).ifPresent(k -> out.kind(system, k));
        }
        return out;
    }

    private static List<Map.Entry<String, JsonNode>> entries(final JsonNode interfaces) {
        final List<Map.Entry<String, JsonNode>> out = new ArrayList<>();
        if (interfaces.isArray()) {
            interfaces.forEach(o -> o.fields().forEachRemaining(out::add));
        } else {
            interfaces.fields().forEachRemaining(out::add);
        }
        return out;
    }

    private static String portName(final JsonNode port) {
        final JsonNode id = port.path("id");
        final String type = id.path("type").asText("");
        if ((type.equals("ifname") || type.equals("local")) && !id.path("value").asText("").isBlank()) {
            return id.path("value").asText();
        }
        return port.path("descr").asText(id.path("value").asText(""));
    }

    /** Bridge or Router enabled: a switch; only Station enabled: a host. */
    private static java.util.Optional<Observations.Kind> capability(final JsonNode caps) {
        boolean station = false;
        for (final JsonNode c : caps.isArray() ? caps : List.of(caps)) {
            if (!c.path("enabled").asBoolean(false)) {
                continue;
            }
            final String type = c.path("type").asText("");
            if (type.equals("Bridge") || type.equals("Router")) {
                return java.util.Optional.of(Observations.Kind.SWITCH);
            }
            station |= type.equals("Station");
        }
        return station ? java.util.Optional.of(Observations.Kind.HOST) : java.util.Optional.empty();
    }
}
