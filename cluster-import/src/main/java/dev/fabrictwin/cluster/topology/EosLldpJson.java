package dev.fabrictwin.cluster.topology;

import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fabrictwin.cluster.FoundKeys;

/**
 * Arista EOS {@code show lldp neighbors detail | json} (what eAPI answers): {@code lldpNeighbors.<local port>
 * .lldpNeighborInfo[]}, each neighbour with its {@code systemName}, its port in {@code neighborInterfaceInfo} (an
 * {@code interfaceId} of type {@code interfaceName} or {@code local}, which EOS prints in quotes, {@code "\"et-0/0/20\""};
 * a {@code macAddress} id names no port, so {@code interfaceDescription} does) and {@code systemCapabilities}
 * ({@code {"bridge": true, "router": true}} is a switch, {@code stationOnly} a host). A neighbour without a system name
 * or a port is skipped and listed. The output does not name the local switch: the caller does.
 */
public final class EosLldpJson {

    private EosLldpJson() {
    }

    public static Observations read(final String device, final JsonNode root) {
        if (root == null || !root.path("lldpNeighbors").isObject()) {
            throw new IllegalArgumentException("not EOS 'show lldp neighbors detail | json' output: expected an object with "
                + "lldpNeighbors, found " + (root == null || !root.isObject() ? "no object" : "keys " + FoundKeys.of(root, 8)));
        }
        final Observations out = new Observations();
        out.reported(device);
        for (final var it = root.get("lldpNeighbors").fields(); it.hasNext();) {
            final Map.Entry<String, JsonNode> e = it.next();
            for (final JsonNode n : e.getValue().path("lldpNeighborInfo")) {
                final String system = n.path("systemName").asText("");
                final String port = port(n.path("neighborInterfaceInfo"));
                if (system.isBlank() || port.isBlank()) {
                    out.skipped(device + "/" + e.getKey() + ": an EOS LLDP neighbour without "
                        + (system.isBlank() ? "system name (chassis " + n.path("chassisId").asText("?") + ")" : "port"));
                    continue;
                }
                out.add(new Neighbor(device, e.getKey(), system, port, Double.NaN));
                kind(n.path("systemCapabilities")).ifPresent(k -> out.kind(system, k));
            }
        }
        return out;
    }

    private static String port(final JsonNode info) {
        final String type = info.path("interfaceIdType").asText("");
        final String id = unquoted(info.path("interfaceId").asText(""));
        if (type.equals("interfaceName") || type.equals("local")) {
            return id;
        }
        return info.path("interfaceDescription").asText("").strip();
    }

    private static String unquoted(final String s) {
        final String t = s.strip();
        return t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"") ? t.substring(1, t.length() - 1) : t;
    }

    private static Optional<Observations.Kind> kind(final JsonNode capabilities) {
        if (capabilities.path("bridge").asBoolean(false) || capabilities.path("router").asBoolean(false)) {
            return Optional.of(Observations.Kind.SWITCH);
        }
        return capabilities.path("stationOnly").asBoolean(false) ? Optional.of(Observations.Kind.HOST) : Optional.empty();
    }
}
