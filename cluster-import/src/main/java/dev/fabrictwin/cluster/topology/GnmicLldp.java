package dev.fabrictwin.cluster.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * OpenConfig LLDP state as gnmic prints it ({@code gnmic get/subscribe --path /lldp/interfaces/interface/neighbors}),
 * in its JSON form ({@code source}, {@code updates[]} of {@code Path} and {@code values}) or its event form
 * ({@code tags} with {@code source} and {@code interface_name}, {@code values} keyed by leaf path). A neighbour is the
 * {@code system-name} and {@code port-id} (else {@code port-description}) found under one interface; module prefixes
 * ({@code openconfig-lldp:}) are ignored. The local device is the message's {@code source} without its port, unless the
 * caller names it.
 */
public final class GnmicLldp {

    private static final Pattern INTERFACE = Pattern.compile("interface\\[name=([^\\]]+)\\]");

    private GnmicLldp() {
    }

    /** {@code device} null: each message's source names its device. */
    public static Observations read(final String device, final JsonNode root) {
        final Observations out = new Observations();
        final List<JsonNode> messages = new ArrayList<>();
        if (root.isArray()) {
            root.forEach(messages::add);
        } else {
            messages.add(root);
        }
        for (final JsonNode m : messages) {
            final String source = device != null ? device : sourceDevice(m);
            if (source == null) {
                throw new IllegalArgumentException("a gnmic message without a source: name the device (NAME=FILE)");
            }
            out.reported(source);
            if (m.has("updates")) {
                final String prefix = m.path("prefix").asText("");
                for (final JsonNode u : m.get("updates")) {
                    neighbor(out, source, iface(prefix + "/" + u.path("Path").asText("")), u.path("values"));
                }
            } else if (m.has("values")) {
                final String iface = m.path("tags").path("interface_name").asText(null);
                neighbor(out, source, iface != null ? iface : iface(m.path("values").fieldNames().hasNext()
                    ? m.path("values").fieldNames().next() : ""), m.get("values"));
            }
        }
        return out;
    }

    private static void neighbor(final Observations out, final String device, final String iface, final JsonNode values) {
        final String system = leaf(values, "system-name");
        String port = leaf(values, "port-id");
        if (port == null || port.matches("([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}")) {
            port = leaf(values, "port-description"); // a MAC address names no port
        }
        if (system == null || port == null) {
            return; // an update of other LLDP state (counters, config)
        }
        if (iface == null) {
            throw new IllegalArgumentException(device + ": an LLDP neighbour " + system + " without its interface");
        }
        out.add(new Neighbor(device, iface, system, port, Double.NaN));
    }

    /** The first value whose key ends with {@code name} (after any module prefix), searching nested objects. */
    private static String leaf(final JsonNode node, final String name) {
        if (node == null || !node.isObject()) {
            return null;
        }
        for (final var it = node.fields(); it.hasNext();) {
            final Map.Entry<String, JsonNode> e = it.next();
            final String key = e.getKey().substring(e.getKey().lastIndexOf('/') + 1);
            if ((key.equals(name) || key.endsWith(":" + name)) && e.getValue().isValueNode()) {
                return e.getValue().asText();
            }
            final String nested = leaf(e.getValue(), name);
            if (nested != null) {
                return nested;
            }
        }
        return null;
    }

    private static String iface(final String path) {
        final Matcher m = INTERFACE.matcher(path);
        return m.find() ? m.group(1) : null;
    }

    private static String sourceDevice(final JsonNode m) {
        final String s = m.has("source") ? m.get("source").asText() : m.path("tags").path("source").asText(null);
        return s == null ? null : s.replaceFirst(":\\d+$", "");
    }
}
