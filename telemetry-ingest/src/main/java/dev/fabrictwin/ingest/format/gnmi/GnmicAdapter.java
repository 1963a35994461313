package dev.fabrictwin.ingest.format.gnmi;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.ingest.format.CounterMapping;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.support.InputValue;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;
import dev.fabrictwin.ingest.format.support.SampleValues;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * {@code --format gnmic}: what gnmic prints for subscribe and get responses, in either of its JSON forms.
 *
 * <p><b>Input unit</b>: one JSON message. The input may be one object, a JSON array of them (each element is a
 * unit), or objects concatenated or one per line; text between messages (a shell prompt, {@code ^C}) is
 * rejected as MALFORMED and reading goes on with the next line that starts a JSON value.
 *
 * <p><b>Default format</b> ({@code "source", "timestamp", "prefix", "updates": [{"Path", "values"}]}): the
 * port comes from list keys in {@code prefix} + {@code Path} ({@code interface[name=ethernet-1/1]},
 * {@code port[port-id=1/1/c1/1]}; see {@link GnmiPath.Scope}); each {@code values} entry is a leaf named by the
 * last element of its key, or a JSON-encoded container that is walked (lists in it keyed by their name
 * field).
 *
 * <p><b>Event format</b> ({@code "name", "timestamp", "tags", "values"}): list keys are tags named
 * {@code <list>_<key>} ({@code interface_name}, {@code port_port-id}, {@code subinterface_index},
 * {@code queue_name}; IOS-XR's {@code interface_interface-name}, {@code interface-brief_interface-name}); each value
 * key is a path whose last element names the leaf.
 *
 * <p>In both, module prefixes ({@code srl_nokia-interfaces:}, {@code openconfig-interfaces:}) are stripped;
 * the device is the {@code source} (field or tag) without its {@code :port}, or {@code --device} when the data
 * names none; {@code timestamp} is epoch nanoseconds, turned into milliseconds. Leaf names go through
 * {@code mappings/gnmic.tsv}; see {@link SampleValues} for what becomes a counter, a gauge or ignored state.
 */
public final class GnmicAdapter implements FormatAdapter {

    public static final String FORMAT = "gnmic";
    /**
     * Tags or values beyond which a message takes the tree path: the fast path's repeated-key check scans the keys
     * before it, so a hostile message of 60k keys would cost 10^9 comparisons there. gnmic's events carry a few.
     */
    private static final int FAST_PATH_MAX_KEYS = 64;

    private final CounterMapping mapping = CounterMapping.forFormat(FORMAT);

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public void parse(final InputStream in, final ParseContext context, final IngestSink sink) throws IOException {
        GnmiUnits.parse(in, context, sink, FORMAT, this::convert, this::eventFormatFast);
    }

    @Override
    public void parse(final byte[] message, final ParseContext context, final IngestSink sink) {
        if (!GnmiUnits.parseWhole(message, context, sink, this::eventFormatFast)) {
            // the fast path had its look (a float gauge, say, it leaves to the tree): straight to the tree path
            try {
                GnmiUnits.parse(new ByteArrayInputStream(message), context, sink, FORMAT, this::convert, null);
            } catch (IOException e) {
                throw new UncheckedIOException(e); // a byte array cannot fail to read
            }
        }
    }

    List<Sample> convert(final JsonNode m, final ParseContext context, final RepeatedKeys repeated)
            throws SampleFormatException {
        if (m.has("updates") || m.has("deletes") || m.get("prefix") != null && m.get("prefix").isTextual()) {
            return defaultFormat(m, context, repeated);
        }
        if (m.has("values") || m.has("tags")) {
            return eventFormat(m, context, repeated);
        }
        if (m.has("sync-response") || m.has("syncResponse") || m.has("sync_response")) {
            throw new SampleFormatException(RejectReason.NO_COUNTERS, "sync response (marks the end of the initial updates; no data)");
        }
        if (m.has("update") || m.has("notification")) {
            throw new SampleFormatException(RejectReason.MALFORMED,
                "this is a gNMI SubscribeResponse in protobuf JSON; read it with --format gnmi-protojson");
        }
        if (m.has("results") || m.has("operation")) {
            throw new SampleFormatException(RejectReason.NO_COUNTERS, "a set response carries no telemetry");
        }
        throw new SampleFormatException(RejectReason.MALFORMED,
            "not gnmic output: neither \"updates\" (default format) nor \"values\" (event format)");
    }

    /** {"source", "timestamp", "prefix", "updates": [{"Path": ..., "values": {...}}], "deletes": [...]} */
    private List<Sample> defaultFormat(final JsonNode m, final ParseContext context, final RepeatedKeys repeated)
            throws SampleFormatException {
        final long ts = GnmiUnits.nanosToMillis(m.get("timestamp"));
        final String prefix = GnmiUnits.text(m.get("prefix"));
        final List<GnmiPath.Elem> prefixElems = GnmiPath.parse(prefix);
        final SampleAssembler samples = new SampleAssembler(mapping, repeated);
        samples.context(prefix);
        final JsonNode updates = m.get("updates");
        if (updates != null && !updates.isNull() && !updates.isArray()) {
            throw new SampleFormatException(RejectReason.MALFORMED, "\"updates\" must be an array");
        }
        if (updates != null) {
            for (final JsonNode u : updates) {
                if (!u.isObject()) {
                    throw new SampleFormatException(RejectReason.MALFORMED, "an update must be an object");
                }
                final String path = GnmiUnits.text(u.has("Path") ? u.get("Path") : u.get("path"));
                final List<GnmiPath.Elem> pathElems = GnmiPath.parse(path);
                final List<GnmiPath.Elem> full = new ArrayList<>(prefixElems);
                full.addAll(pathElems);
                final GnmiPath.Scope scope = GnmiPath.Scope.ROOT.enterAll(full);
                if (prefix == null) {
                    samples.context(path);
                }
                final JsonNode values = u.get("values");
                if (values == null || !values.isObject()) {
                    continue;
                }
                final Iterator<Map.Entry<String, JsonNode>> it = values.fields();
                while (it.hasNext()) {
                    final Map.Entry<String, JsonNode> v = it.next();
                    final List<GnmiPath.Elem> keyElems = GnmiPath.parse(v.getKey());
                    final GnmiPath.Scope leafScope = hasKeys(keyElems) ? GnmiPath.Scope.ROOT.enterAll(concat(prefixElems, keyElems))
                        : scope;
                    samples.walk(ts, leafScope, GnmiPath.leafName(keyElems, v.getKey()), v.getValue());
                }
            }
        }
        return samples.build(GnmiUnits.device(GnmiUnits.text(m.get("source")), context), FORMAT);
    }

    /** {"name", "timestamp", "tags": {"interface_name": ..., "source": ...}, "values": {"/path/leaf": value}} */
    private List<Sample> eventFormat(final JsonNode m, final ParseContext context, final RepeatedKeys repeated)
            throws SampleFormatException {
        final long ts = GnmiUnits.nanosToMillis(m.get("timestamp"));
        final JsonNode tags = m.get("tags");
        if (tags != null && !tags.isNull() && !tags.isObject()) {
            throw new SampleFormatException(RejectReason.MALFORMED, "\"tags\" must be an object");
        }
        final GnmiPath.Scope scope = GnmiPath.Scope.ROOT.enterAll(tagElems(tags));
        final SampleAssembler samples = new SampleAssembler(mapping, repeated);
        final String subscription = GnmiUnits.text(m.get("name"));
        samples.context(subscription == null ? null : "subscription " + subscription);
        final JsonNode values = m.get("values");
        if (values != null && values.isObject()) {
            final Iterator<Map.Entry<String, JsonNode>> it = values.fields();
            while (it.hasNext()) {
                final Map.Entry<String, JsonNode> v = it.next();
                final List<GnmiPath.Elem> keyElems = GnmiPath.parse(v.getKey());
                final GnmiPath.Scope leafScope = hasKeys(keyElems) ? scope.enterAll(keyElems) : scope;
                samples.walk(ts, leafScope, GnmiPath.leafName(keyElems, v.getKey()), v.getValue());
            }
        } else if (values != null && !values.isNull()) {
            throw new SampleFormatException(RejectReason.MALFORMED, "\"values\" must be an object");
        }
        String source = tags == null ? null : GnmiUnits.text(tags.get("source"));
        if (source == null) {
            source = GnmiUnits.text(m.get("source"));
        }
        return samples.build(GnmiUnits.device(source, context), FORMAT);
    }

    /**
     * {@link #eventFormat} read off the bytes, for the event messages gnmic writes to Kafka: only the keys name,
     * timestamp, tags (string values) and values (string, integer or boolean leaves), each once. Anything else
     * (the default format, nested values, floats, nulls, a repeated key, any error) returns null for the tree
     * path, so both give the same samples and only the tree gives reasons. Same calls in the same order as
     * {@link #eventFormat}: the tags' scope, then each value's leaf, then the device.
     */
    List<Sample> eventFormatFast(final JsonParser p, final ParseContext context, final RepeatedKeys repeated)
            throws IOException, SampleFormatException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            return null;
        }
        String timestamp = null;
        String name = null;
        boolean nameSeen = false;
        List<String> tags = null;
        List<Object> values = null; // leaf key, InputValue, ...
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            final String field = p.currentName();
            final JsonToken v = p.nextToken();
            switch (field) {
                case "timestamp" -> {
                    if (timestamp != null) {
                        return null;
                    }
                    if (v == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
                        timestamp = Long.toString(p.getLongValue()); // as the tree's number node spells it
                    } else if (v == JsonToken.VALUE_STRING) {
                        timestamp = p.getText().strip();
                    } else {
                        return null;
                    }
                    if (!LeafValues.isInteger(timestamp) || timestamp.charAt(0) == '+') {
                        return null;
                    }
                }
                case "name" -> {
                    if (nameSeen || v != JsonToken.VALUE_STRING) {
                        return null;
                    }
                    nameSeen = true;
                    name = p.getText();
                }
                case "tags" -> {
                    if (tags != null || v != JsonToken.START_OBJECT) {
                        return null;
                    }
                    tags = new ArrayList<>(8);
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        final String tag = p.currentName();
                        if (p.nextToken() != JsonToken.VALUE_STRING || tags.size() == 2 * FAST_PATH_MAX_KEYS
                            || indexOfKey(tags, tag) >= 0) {
                            return null;
                        }
                        tags.add(tag);
                        tags.add(p.getText());
                    }
                }
                case "values" -> {
                    if (values != null || v != JsonToken.START_OBJECT) {
                        return null;
                    }
                    values = new ArrayList<>(16);
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        final String key = p.currentName();
                        final InputValue value = scalar(p, p.nextToken());
                        if (value == null || values.size() == 2 * FAST_PATH_MAX_KEYS || indexOfKey(values, key) >= 0) {
                            return null;
                        }
                        values.add(key);
                        values.add(value);
                    }
                }
                default -> {
                    return null;
                }
            }
        }
        if (t != JsonToken.END_OBJECT || p.nextToken() != null || timestamp == null || values == null) {
            return null;
        }
        final long ts = GnmiUnits.nanosToMillis(timestamp);
        final GnmiPath.Scope scope = GnmiPath.Scope.ROOT.enterAll(tags == null ? List.of() : tagElems(tags));
        final SampleAssembler samples = new SampleAssembler(mapping, repeated);
        samples.context(name == null ? null : "subscription " + name);
        for (int i = 0; i < values.size(); i += 2) {
            final String key = (String) values.get(i);
            final List<GnmiPath.Elem> keyElems = GnmiPath.parse(key);
            final GnmiPath.Scope leafScope = hasKeys(keyElems) ? scope.enterAll(keyElems) : scope;
            samples.leaf(ts, leafScope, GnmiPath.leafName(keyElems, key), (InputValue) values.get(i + 1));
        }
        final int source = tags == null ? -1 : indexOfKey(tags, "source");
        return samples.build(GnmiUnits.device(source < 0 ? null : tags.get(source + 1), context), FORMAT);
    }

    /** A leaf as {@link LeafValues#ofJson} classifies the tree's node; null for what the fast path leaves to the tree. */
    private static InputValue scalar(final JsonParser p, final JsonToken v) throws IOException {
        return switch (v) {
            case VALUE_STRING -> LeafValues.ofText(p.getText());
            case VALUE_NUMBER_INT -> p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? null
                : InputValue.integer(Long.toString(p.getLongValue()));
            case VALUE_TRUE -> LeafValues.bool(true);
            case VALUE_FALSE -> LeafValues.bool(false);
            default -> null;
        };
    }

    /** Where {@code key} sits among the keys of key, value, key, value, ...; -1 if absent. At most {@link #FAST_PATH_MAX_KEYS}. */
    private static int indexOfKey(final List<?> pairs, final String key) {
        for (int i = 0; i < pairs.size(); i += 2) {
            if (pairs.get(i).equals(key)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Event tags that are list keys, as path elements in containment order: {@code interface_name=mgmt0} →
     * {@code interface[name=mgmt0]} (or any list keyed by {@code interface-name}), then subinterface, then queue.
     * Other tags (source, subscription-name, keys of lists gnmic cannot place) do not locate a port.
     */
    private static List<GnmiPath.Elem> tagElems(final JsonNode tags) {
        if (tags == null || !tags.isObject()) {
            return List.of();
        }
        final List<String> pairs = new ArrayList<>();
        final Iterator<Map.Entry<String, JsonNode>> it = tags.fields();
        while (it.hasNext()) {
            final Map.Entry<String, JsonNode> t = it.next();
            pairs.add(t.getKey());
            pairs.add(GnmiUnits.text(t.getValue()));
        }
        return tagElems(pairs);
    }

    /** As {@link #tagElems(JsonNode)} for the tags as name, text, name, text, ... (a text null if not a scalar). */
    private static List<GnmiPath.Elem> tagElems(final List<String> pairs) {
        final List<GnmiPath.Elem> ports = new ArrayList<>();
        final List<GnmiPath.Elem> subs = new ArrayList<>();
        final List<GnmiPath.Elem> queues = new ArrayList<>();
        for (int i = 0; i < pairs.size(); i += 2) {
            final String tag = GnmiPath.stripModule(pairs.get(i));
            final int us = tag.indexOf('_');
            final String value = pairs.get(i + 1);
            if (us <= 0 || us == tag.length() - 1 || value == null || value.isBlank()) {
                continue;
            }
            final String list = tag.substring(0, us);
            final String key = tag.substring(us + 1);
            final GnmiPath.Elem e = new GnmiPath.Elem(list, Map.of(key, value));
            switch (list) {
                case "interface", "port" -> ports.add(e);
                case "subinterface" -> subs.add(e);
                case "queue" -> queues.add(e);
                default -> {
                    if (key.equals(GnmiPath.INTERFACE_NAME_KEY)) {
                        ports.add(e); // IOS-XR: interface-brief_interface-name
                    }
                }
            }
        }
        final List<GnmiPath.Elem> out = new ArrayList<>(ports.isEmpty() ? ports : ports.subList(0, 1));
        out.addAll(subs);
        out.addAll(queues);
        return out;
    }

    private static boolean hasKeys(final List<GnmiPath.Elem> elems) {
        for (final GnmiPath.Elem e : elems) {
            if (!e.keys().isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private static List<GnmiPath.Elem> concat(final List<GnmiPath.Elem> a, final List<GnmiPath.Elem> b) {
        final List<GnmiPath.Elem> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
