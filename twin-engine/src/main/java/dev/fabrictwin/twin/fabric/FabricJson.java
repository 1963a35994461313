package dev.fabrictwin.twin.fabric;

import java.util.Iterator;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fabrictwin.twin.units.Units;

/**
 * The fabric as a JSON/YAML document of nodes and links: the {@code file:} form of a scenario's fabric and
 * the value of the {@code fabric.topology} topic.
 *
 * <pre>
 * {"id": "lab", "technology": "roce",
 *  "nodes": [{"name": "host-0", "tier": "host"}, {"name": "leaf-0", "tier": "leaf", "pod": 0}, ...],
 *  "links": [{"lower": "host-0/nic0", "upper": "leaf-0/eth0", "speed": "400G"}, ...]}
 * </pre>
 * {@code lower} is the end nearer the hosts; {@code speed} takes {@code 400G} or a number of bit/s. An optional
 * {@code "transport": "ecn"|"pfc"} says how the fabric reacts to congestion (a scenario's {@code transport}), so the
 * analyzer's replica models what the fabric runs; absent means {@code ecn}.
 */
public final class FabricJson {

    private static final String TRANSPORT = "transport";

    private FabricJson() {
    }

    public static ObjectNode toJson(final Fabric fabric, final ObjectMapper mapper) {
        return toJson(fabric, null, mapper);
    }

    /** The document with its {@code transport} (none when null). */
    public static ObjectNode toJson(final Fabric fabric, final Transport transport, final ObjectMapper mapper) {
        final ObjectNode root = mapper.createObjectNode();
        root.put("id", fabric.id());
        root.put("technology", fabric.technology().label());
        if (transport != null) {
            root.put(TRANSPORT, transport.name().toLowerCase(Locale.ROOT));
        }
        final ArrayNode nodes = root.putArray("nodes");
        for (final Node n : fabric.nodes()) {
            final ObjectNode o = nodes.addObject().put("name", n.name()).put("tier", n.tier().label());
            if (n.pod() >= 0) {
                o.put("pod", n.pod());
            }
        }
        final ArrayNode links = root.putArray("links");
        for (final Link l : fabric.links()) {
            links.addObject().put("lower", l.lower().toString()).put("upper", l.upper().toString())
                .put("speed", Units.formatBitRate(l.capacityBps()));
        }
        return root;
    }

    /** Parses the document; every problem is an {@link IllegalArgumentException} naming the bad entry. */
    public static Fabric fromJson(final JsonNode root, final String defaultId, final Technology defaultTechnology) {
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("fabric file must be an object with 'nodes' and 'links'");
        }
        transport(root); // a bad value refuses the document, as any other bad field does
        final String id = root.path("id").asText(defaultId);
        final FabricBuilder b = new FabricBuilder(id).technology(root.hasNonNull("technology")
            ? Technology.parse(root.get("technology").asText()) : defaultTechnology);
        final JsonNode nodes = root.path("nodes");
        if (!nodes.isArray() || nodes.isEmpty()) {
            throw new IllegalArgumentException("fabric file needs a non-empty 'nodes' list");
        }
        int i = 0;
        for (final JsonNode n : nodes) {
            final String name = n.path("name").asText("");
            if (name.isBlank()) {
                throw new IllegalArgumentException("fabric node #" + i + " has no 'name'");
            }
            final Tier tier;
            try {
                tier = Tier.valueOf(n.path("tier").asText("").toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("fabric node " + Quoted.of(name) + " needs 'tier': host, leaf, spine or core", e);
            }
            b.addNode(name, tier, n.path("pod").asInt(-1));
            i++;
        }
        final JsonNode links = root.path("links");
        if (!links.isArray()) {
            throw new IllegalArgumentException("fabric file needs a 'links' list");
        }
        for (final Iterator<JsonNode> it = links.elements(); it.hasNext();) {
            final JsonNode l = it.next();
            final PortRef lower = port(l, "lower");
            final PortRef upper = port(l, "upper");
            final JsonNode speed = l.path("speed");
            final double bps = speed.isNumber() ? speed.asDouble() : Units.parseBitRate(speed.asText(""));
            b.connect(b.nodeIndex(lower.device()), lower.port(), b.nodeIndex(upper.device()), upper.port(), bps);
        }
        return b.build();
    }

    /** The document's {@code transport}, {@code ecn} when absent; a bad value is an {@link IllegalArgumentException}. */
    public static Transport transport(final JsonNode root) {
        final JsonNode t = root.path(TRANSPORT);
        if (t.isMissingNode() || t.isNull()) {
            return Transport.ECN;
        }
        if (!t.isTextual()) {
            throw new IllegalArgumentException("transport: expected ecn or pfc, was " + t);
        }
        try {
            return Transport.parse(t.asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("transport: " + e.getMessage(), e);
        }
    }

    private static PortRef port(final JsonNode link, final String field) {
        final String text = link.path(field).asText("");
        final int slash = text.indexOf('/');
        if (slash <= 0 || slash == text.length() - 1) {
            throw new IllegalArgumentException("fabric link needs '" + field + "' as device/port, was "
                + Quoted.of(text));
        }
        Quoted.requirePrintable(text, "fabric link '" + field + "'");
        return new PortRef(text.substring(0, slash), text.substring(slash + 1));
    }
}
