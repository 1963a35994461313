package dev.fabrictwin.evaluation;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The one-line JSON that {@code --json} prints last, so scripts can read it. */
public final class Json {

    public static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    public static String line(final Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }

    /** Rounds figures to 4 significant digits for humans reading the JSON; keys keep their order. */
    public static Map<String, Object> rounded(final Map<String, Double> figures) {
        final Map<String, Object> out = new LinkedHashMap<>();
        figures.forEach((k, v) -> out.put(k, !Double.isFinite(v) ? null
            : v == Math.rint(v) && Math.abs(v) < 1e15 ? (Object) (long) (double) v
            : new BigDecimal(v).round(new MathContext(4)).doubleValue()));
        return out;
    }
}
