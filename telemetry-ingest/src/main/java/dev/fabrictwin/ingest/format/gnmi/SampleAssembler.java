package dev.fabrictwin.ingest.format.gnmi;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.ingest.format.CounterMapping;
import dev.fabrictwin.ingest.format.support.InputValue;
import dev.fabrictwin.ingest.format.support.ListKeys;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;
import dev.fabrictwin.ingest.format.support.SampleValues;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * Collects the leaves of one input unit, grouped by timestamp and port, and turns them into samples. A unit
 * becomes all of its samples or one rejection: a bad value anywhere rejects the whole unit, values that belong
 * to no port reject it as MISSING_PORT, and a unit with nothing but state or configuration is rejected as
 * NO_COUNTERS (it is reported, not silently skipped).
 */
final class SampleAssembler {

    private record Key(long ts, String port) {
    }

    private static final class Group {
        final SampleValues values;
        boolean portListSeen;
        String nameLeaf;

        Group(final CounterMapping mapping, final RepeatedKeys repeated) {
            this.values = LeafValues.sample(mapping, repeated);
        }
    }

    private final CounterMapping mapping;
    private final RepeatedKeys repeated;
    private final Map<Key, Group> groups = new LinkedHashMap<>();
    private String lastContext = "";

    /** @param repeated told of each leaf a sample gets twice (its first value is kept) */
    SampleAssembler(final CounterMapping mapping, final RepeatedKeys repeated) {
        this.mapping = mapping;
        this.repeated = repeated;
    }

    RepeatedKeys repeated() {
        return repeated;
    }

    /** One scalar leaf. The interface's own {@code name} leaf is remembered: it names the port when the path has no key. */
    void leaf(final long ts, final GnmiPath.Scope scope, final String leaf, final InputValue value) throws SampleFormatException {
        if (value == null) {
            return;
        }
        final Group g = groups.computeIfAbsent(new Key(ts, scope.port()), k -> new Group(mapping, repeated));
        g.portListSeen |= scope.portListSeen();
        if (scope.port() == null && scope.qualifier().isEmpty() && scope.queue() == null && leaf.equals("name")
                && (value.kind() == InputValue.Kind.STRING || value.kind() == InputValue.Kind.UNSIGNED)) {
            g.nameLeaf = ListKeys.unquote(value.text());
        }
        g.values.put(scope.qualifier() + leaf, value, scope.queue(), null);
    }

    /**
     * A JSON value at a path: scalars are leaves; objects are containers whose fields are walked; arrays of
     * objects are list entries (keyed by their {@code name}/{@code port-id}/{@code index}/... field, which is not
     * itself a leaf); arrays of scalars (leaf-lists) are state and ignored.
     */
    void walk(final long ts, final GnmiPath.Scope scope, final String name, final JsonNode node) throws SampleFormatException {
        if (node == null || node.isNull()) {
            return;
        }
        if (node.isObject()) {
            final Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                final Map.Entry<String, JsonNode> f = fields.next();
                walk(ts, scope, GnmiPath.stripModule(f.getKey()), f.getValue());
            }
        } else if (node.isArray()) {
            for (final JsonNode element : node) {
                if (!element.isObject()) {
                    continue;
                }
                final String keyField = keyField(name, element);
                final GnmiPath.Scope inner = keyField == null ? scope
                    : scope.enter(name, Map.of(keyField, element.get(keyField).asText()));
                final Iterator<Map.Entry<String, JsonNode>> fields = element.fields();
                while (fields.hasNext()) {
                    final Map.Entry<String, JsonNode> f = fields.next();
                    if (!Objects.equals(f.getKey(), keyField)) {
                        walk(ts, inner, GnmiPath.stripModule(f.getKey()), f.getValue());
                    }
                }
            }
        } else {
            leaf(ts, scope, name, LeafValues.ofJson(node));
        }
    }

    private static String keyField(final String list, final JsonNode element) {
        final String[] candidates = switch (list) {
            case "interface" -> new String[] {"name", "interface-id"};
            case "port" -> new String[] {"port-id", "name"};
            case "subinterface" -> new String[] {"index"};
            case "queue" -> new String[] {"name", "queue-name", "id"};
            default -> new String[] {"name", "id", "index"};
        };
        for (final String c : candidates) {
            final JsonNode v = element.get(c);
            if (v != null && v.isValueNode() && !v.isNull()) {
                return c;
            }
        }
        return null;
    }

    /** Text for messages: what path the unit was about (set by the adapter, e.g. the prefix). */
    void context(final String text) {
        if (text != null && !text.isBlank()) {
            lastContext = text;
        }
    }

    List<Sample> build(final String device, final String source) throws SampleFormatException {
        final List<Sample> out = new ArrayList<>();
        for (final Map.Entry<Key, Group> e : groups.entrySet()) {
            final Group g = e.getValue();
            g.values.finish();
            if (g.values.isEmpty()) {
                continue;
            }
            String port = e.getKey().port();
            if (port == null && g.portListSeen && g.nameLeaf != null && !g.nameLeaf.isBlank()) {
                port = g.nameLeaf;
            }
            if (port == null || port.isBlank()) {
                final List<String> names = new ArrayList<>(g.values.counters().keySet());
                names.addAll(g.values.gauges().keySet());
                throw new SampleFormatException(RejectReason.MISSING_PORT, "no interface or port list key"
                    + (lastContext.isEmpty() ? "" : " in " + lastContext) + " for " + String.join(", ", names));
            }
            if (device == null || device.isBlank()) {
                throw new SampleFormatException(RejectReason.MISSING_DEVICE,
                    "no source or target names the device, and no --device was given");
            }
            out.add(new Sample(e.getKey().ts(), device, port, source, g.values.counters(), g.values.gauges()));
        }
        if (out.isEmpty()) {
            throw new SampleFormatException(RejectReason.NO_COUNTERS, "no counters or gauges"
                + (lastContext.isEmpty() ? "" : " under " + lastContext) + " (state or configuration only)");
        }
        return out;
    }
}
