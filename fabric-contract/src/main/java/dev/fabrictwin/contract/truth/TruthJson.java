package dev.fabrictwin.contract.truth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.common.serialization.Serde;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fabrictwin.contract.JsonSerdes;
import dev.fabrictwin.twin.fault.FaultTarget;
import dev.fabrictwin.twin.fault.FaultType;

/** {@code truth.jsonl} lines: {@code {"id","type","target":{device,port?,peer?,job?},"start","end","params"}}. */
public final class TruthJson {

    private static final ObjectMapper JSON = new ObjectMapper()
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    public static final Serde<TruthRecord> SERDE = JsonSerdes.of(TruthJson::write, TruthJson::read);

    private TruthJson() {
    }

    public static byte[] write(final TruthRecord t) {
        try {
            return JSON.writeValueAsBytes(toJson(t, JSON));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static TruthRecord read(final byte[] json) {
        try {
            return fromJson(JSON.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ObjectNode toJson(final TruthRecord t, final ObjectMapper mapper) {
        final ObjectNode o = mapper.createObjectNode();
        o.put("id", t.id());
        o.put("type", t.type().name());
        final ObjectNode target = o.putObject("target");
        putIf(target, "device", t.target().device());
        putIf(target, "port", t.target().port());
        putIf(target, "peer", t.target().peer());
        putIf(target, "job", t.target().job());
        o.put("start", t.start());
        o.put("end", t.end());
        final ObjectNode params = o.putObject("params");
        t.params().forEach(params::put);
        return o;
    }

    public static TruthRecord fromJson(final JsonNode o) {
        final JsonNode t = o.path("target");
        final Map<String, Double> params = new TreeMap<>();
        o.path("params").fields().forEachRemaining(e -> params.put(e.getKey(), e.getValue().asDouble()));
        return new TruthRecord(o.path("id").asText(), FaultType.parse(o.path("type").asText()),
            new FaultTarget(text(t, "device"), text(t, "port"), text(t, "peer"), text(t, "job")),
            o.path("start").asLong(), o.path("end").asLong(), params);
    }

    private static void putIf(final ObjectNode o, final String k, final String v) {
        if (v != null) {
            o.put(k, v);
        }
    }

    private static String text(final JsonNode n, final String k) {
        return n.hasNonNull(k) ? n.get(k).asText() : null;
    }
}
