package dev.fabrictwin.ingest.format.gnmi;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.ingest.format.CounterMapping;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.support.InputValue;
import dev.fabrictwin.ingest.format.support.KeepFirstJson;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;
import dev.fabrictwin.ingest.format.support.SampleValues;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * {@code --format gnmi-protojson}: gNMI {@code SubscribeResponse} messages in protobuf's JSON mapping, as
 * Telegraf's gnmi test cases capture them and {@code gnmic --format protojson} prints them.
 *
 * <p><b>Input unit</b>: one SubscribeResponse (a JSON array of them is split into its elements, concatenated
 * objects are read one by one). A response carries {@code update} (a Notification); a bare Notification
 * ({@code timestamp}/{@code prefix}/{@code update[]}) and a GetResponse ({@code notification[]}) are read too.
 * {@code syncResponse} and {@code error} responses carry no telemetry and are rejected as NO_COUNTERS so they
 * show up in the dead letter instead of vanishing.
 *
 * <p><b>Port</b>: list keys in {@code prefix.elem} + {@code update[].path.elem} ({@code interface{name: X}});
 * when the interface list has no key, the interface's own {@code name} leaf (OpenConfig
 * {@code interfaces/interface/state/name}) names it, as in Telegraf's issue 14063 capture.
 * <b>Device</b>: {@code prefix.target}, else {@code --device}. <b>Timestamp</b>: the notification's
 * {@code timestamp} in nanoseconds (string or number) → epoch ms.
 *
 * <p><b>Values</b>: {@code uintVal}/{@code intVal} as strings or numbers, {@code floatVal}/{@code doubleVal}
 * (protobuf JSON writes NaN as "NaN"), {@code decimalVal}, {@code stringVal}/{@code asciiVal},
 * {@code boolVal}, and {@code jsonVal}/{@code jsonIetfVal} (base64 of JSON, walked like gnmic's JSON values);
 * snake_case field names are accepted as protobuf JSON parsers do. Names go through
 * {@code mappings/gnmi-protojson.tsv}; see {@link SampleValues} for counter/gauge/state rules.
 */
public final class GnmiProtoJsonAdapter implements FormatAdapter {

    public static final String FORMAT = "gnmi-protojson";

    private static final ObjectMapper EMBEDDED_JSON = GnmiUnits.mapper(1 << 20);

    private final CounterMapping mapping = CounterMapping.forFormat(FORMAT);

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public void parse(final InputStream in, final ParseContext context, final IngestSink sink) throws IOException {
        GnmiUnits.parse(in, context, sink, FORMAT, this::convert);
    }

    private List<Sample> convert(final JsonNode m, final ParseContext context, final RepeatedKeys repeated)
            throws SampleFormatException {
        final List<JsonNode> notifications = new ArrayList<>();
        final JsonNode update = m.get("update");
        final JsonNode getResponse = m.get("notification");
        if (update != null && update.isObject()) {
            notifications.add(update);
        } else if (getResponse != null && getResponse.isArray()) {
            getResponse.forEach(notifications::add);
        } else if (field(m, "syncResponse", "sync_response") != null) {
            throw new SampleFormatException(RejectReason.NO_COUNTERS, "syncResponse (end of the initial updates; no data)");
        } else if (m.has("error")) {
            throw new SampleFormatException(RejectReason.NO_COUNTERS, "error response: " + GnmiUnits.abbreviate(m.get("error").toString()));
        } else if (m.has("timestamp") && (update == null || update.isArray())) {
            notifications.add(m); // a bare Notification
        } else {
            throw new SampleFormatException(RejectReason.MALFORMED,
                "not a gNMI SubscribeResponse: no \"update\" notification");
        }
        final SampleAssembler samples = new SampleAssembler(mapping, repeated);
        String target = null;
        for (final JsonNode n : notifications) {
            if (!n.isObject()) {
                throw new SampleFormatException(RejectReason.MALFORMED, "a notification must be an object");
            }
            final long ts = GnmiUnits.nanosToMillis(n.get("timestamp"));
            final JsonNode prefix = n.get("prefix");
            final List<GnmiPath.Elem> prefixElems = elems(prefix);
            if (target == null && prefix != null) {
                target = GnmiUnits.text(prefix.get("target"));
            }
            samples.context(render(prefixElems));
            final JsonNode updates = n.get("update");
            if (updates == null || updates.isNull()) {
                continue; // deletes only
            }
            if (!updates.isArray()) {
                throw new SampleFormatException(RejectReason.MALFORMED, "\"update\" of a notification must be an array");
            }
            for (final JsonNode u : updates) {
                if (!u.isObject()) {
                    throw new SampleFormatException(RejectReason.MALFORMED, "an update must be an object");
                }
                final List<GnmiPath.Elem> full = new ArrayList<>(prefixElems);
                full.addAll(elems(u.get("path")));
                if (full.isEmpty()) {
                    throw new SampleFormatException(RejectReason.MALFORMED, "an update without a path");
                }
                final GnmiPath.Scope scope = GnmiPath.Scope.ROOT.enterAll(full);
                final String leaf = full.get(full.size() - 1).name();
                typedValue(samples, ts, scope, leaf, field(u, "val", "value"));
            }
        }
        return samples.build(GnmiUnits.device(target, context), FORMAT);
    }

    /** A gNMI TypedValue: exactly one of its fields is set. */
    private static void typedValue(final SampleAssembler samples, final long ts, final GnmiPath.Scope scope, final String leaf,
                                   final JsonNode val) throws SampleFormatException {
        if (val == null || !val.isObject()) {
            throw new SampleFormatException(RejectReason.MALFORMED, "update of " + leaf + " has no typed value \"val\"");
        }
        JsonNode v;
        if ((v = field(val, "uintVal", "uint_val")) != null || (v = field(val, "intVal", "int_val")) != null) {
            final InputValue lv = LeafValues.ofJson(v);
            if (lv == null || lv.kind() == InputValue.Kind.STRING || lv.kind() == InputValue.Kind.BOOL) {
                throw new SampleFormatException(RejectReason.NON_NUMERIC, "counter " + leaf + " is not an integer: "
                    + GnmiUnits.abbreviate(v.toString()));
            }
            samples.leaf(ts, scope, leaf, lv);
        } else if ((v = field(val, "doubleVal", "double_val")) != null || (v = field(val, "floatVal", "float_val")) != null) {
            final InputValue lv = LeafValues.ofJson(v);
            if (lv == null || lv.kind() == InputValue.Kind.STRING || lv.kind() == InputValue.Kind.BOOL) {
                throw new SampleFormatException(RejectReason.NON_NUMERIC, leaf + " is not a number: " + GnmiUnits.abbreviate(v.toString()));
            }
            samples.leaf(ts, scope, leaf, lv.kind() == InputValue.Kind.UNSIGNED || lv.kind() == InputValue.Kind.NEGATIVE
                ? LeafValues.number(Double.parseDouble(lv.text())) : lv);
        } else if ((v = field(val, "decimalVal", "decimal_val")) != null) {
            samples.leaf(ts, scope, leaf, decimal(v, leaf));
        } else if ((v = field(val, "stringVal", "string_val")) != null || (v = field(val, "asciiVal", "ascii_val")) != null) {
            samples.leaf(ts, scope, leaf, InputValue.string(v.asText()));
        } else if ((v = field(val, "boolVal", "bool_val")) != null) {
            samples.leaf(ts, scope, leaf, v.isBoolean() ? LeafValues.bool(v.booleanValue()) : InputValue.string(v.asText()));
        } else if ((v = field(val, "jsonIetfVal", "json_ietf_val")) != null || (v = field(val, "jsonVal", "json_val")) != null) {
            samples.walk(ts, scope, leaf, embeddedJson(v, leaf, samples.repeated()));
        }
        // bytesVal, protoBytes, anyVal, leaflistVal: not telemetry counters; ignored like other state
    }

    /** jsonVal/jsonIetfVal are bytes, so protobuf JSON carries them base64-encoded; plain JSON is accepted too. */
    private static JsonNode embeddedJson(final JsonNode v, final String leaf, final RepeatedKeys repeated)
            throws SampleFormatException {
        if (!v.isTextual()) {
            return v; // already JSON (some tools print it decoded)
        }
        final byte[] decoded;
        try {
            final String text = v.textValue().strip();
            decoded = text.contains("-") || text.contains("_") ? Base64.getUrlDecoder().decode(text) : Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new SampleFormatException(RejectReason.MALFORMED, "jsonVal of " + leaf + " is not base64: " + e.getMessage());
        }
        try {
            return KeepFirstJson.readTree(EMBEDDED_JSON, decoded, repeated);
        } catch (JsonProcessingException e) {
            throw new SampleFormatException(RejectReason.MALFORMED, "jsonVal of " + leaf + " is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new SampleFormatException(RejectReason.MALFORMED, "jsonVal of " + leaf + " is unreadable");
        }
    }

    /** Decimal64 {digits, precision}: digits × 10^-precision. */
    private static InputValue decimal(final JsonNode v, final String leaf) throws SampleFormatException {
        final String digits = GnmiUnits.text(v.get("digits"));
        final String precision = GnmiUnits.text(v.get("precision"));
        try {
            final BigDecimal d = new BigDecimal(digits == null ? "0" : digits).movePointLeft(precision == null ? 0 : Integer.parseInt(precision));
            return LeafValues.number(d.doubleValue());
        } catch (NumberFormatException | ArithmeticException e) {
            throw new SampleFormatException(RejectReason.NON_NUMERIC, "decimalVal of " + leaf + " is not a number");
        }
    }

    /** Path elements of a gNMI Path: {@code elem[{name, key}]}, or the deprecated string {@code element[]}. */
    private static List<GnmiPath.Elem> elems(final JsonNode path) throws SampleFormatException {
        if (path == null || path.isNull()) {
            return List.of();
        }
        if (!path.isObject()) {
            throw new SampleFormatException(RejectReason.MALFORMED, "a path must be an object");
        }
        final List<GnmiPath.Elem> out = new ArrayList<>();
        final JsonNode elem = path.get("elem");
        if (elem != null && elem.isArray()) {
            for (final JsonNode e : elem) {
                final String name = GnmiUnits.text(e.get("name"));
                final Map<String, String> keys = new LinkedHashMap<>();
                final JsonNode key = e.get("key");
                if (key != null && key.isObject()) {
                    final Iterator<Map.Entry<String, JsonNode>> it = key.fields();
                    while (it.hasNext()) {
                        final Map.Entry<String, JsonNode> k = it.next();
                        keys.put(GnmiPath.stripModule(k.getKey()), k.getValue().asText());
                    }
                }
                if (name == null || name.isEmpty()) {
                    // Junos sends a list's keys as an element of their own: {qmon-sw}, {key: {name: xe-0/0/0:0}}
                    if (keys.isEmpty() || out.isEmpty()) {
                        throw new SampleFormatException(RejectReason.MALFORMED, "a path element with neither a name nor"
                            + " keys of the element before it");
                    }
                    final GnmiPath.Elem before = out.remove(out.size() - 1);
                    final Map<String, String> merged = new LinkedHashMap<>(before.keys());
                    merged.putAll(keys);
                    out.add(new GnmiPath.Elem(before.name(), merged, true));
                    continue;
                }
                out.add(new GnmiPath.Elem(GnmiPath.stripModule(name), keys.isEmpty() ? Map.of() : keys));
            }
        } else {
            final JsonNode element = path.get("element");
            if (element != null && element.isArray()) {
                for (final JsonNode e : element) {
                    out.addAll(GnmiPath.parse(e.asText()));
                }
            }
        }
        return out;
    }

    private static String render(final List<GnmiPath.Elem> elems) {
        final StringBuilder sb = new StringBuilder();
        for (final GnmiPath.Elem e : elems) {
            sb.append('/').append(e.name());
            e.keys().forEach((k, v) -> sb.append('[').append(k).append('=').append(v).append(']'));
        }
        return sb.toString();
    }

    private static JsonNode field(final JsonNode node, final String camel, final String snake) {
        JsonNode v = node.get(camel);
        if (v == null || v.isNull()) {
            v = node.get(snake);
        }
        return v == null || v.isNull() ? null : v;
    }
}
