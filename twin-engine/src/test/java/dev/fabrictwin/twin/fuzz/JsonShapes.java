package dev.fabrictwin.twin.fuzz;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Structure-aware JSON: documents built from the keys and strings of real inputs, with values of the wrong
 * type, hostile numbers (NaN, 2^63, 1e309, year 3000) and nesting up to a few levels, so a reader sees its
 * own field names in every wrong shape rather than noise it rejects at the first byte.
 */
public final class JsonShapes {

    /** Reads what {@link #documents} writes, NaN and Infinity included (as collectors' sloppy JSON has them). */
    public static final JsonMapper LENIENT = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .enable(JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS).build();

    private static final Pattern KEY = Pattern.compile("\"([^\"\\\\]{1,60})\"\\s*:");
    private static final Pattern YAML_KEY = Pattern.compile("(?m)^[ \\t-]*([A-Za-z_][\\w.-]{0,60}):");
    private static final Pattern STRING = Pattern.compile(":\\s*\"([^\"\\\\]{0,60})\"");
    private static final List<String> JSON_NUMBERS = Mutants.HOSTILE_NUMBERS.stream()
        .filter(n -> n.matches("NaN|-?(Infinity|[1-9]\\d*|0)(\\.\\d+)?([eE][-+]?\\d+)?")).toList();

    private JsonShapes() {
    }

    /** JSON documents (objects at the top, mostly) over the keys and string values found in {@code seeds}. */
    public static Arbitrary<String> documents(final List<String> seeds) {
        final List<String> keys = harvest(seeds, KEY, YAML_KEY);
        final List<String> strings = harvest(seeds, STRING);
        return Arbitraries.frequencyOf(
            Tuple.of(8, object(keys, strings, 3)),
            Tuple.of(1, value(keys, strings, 3)));
    }

    /** {@link #documents} as trees, as readers that take a {@link JsonNode} see them. */
    public static Arbitrary<JsonNode> trees(final List<String> seeds) {
        return documents(seeds).map(JsonShapes::tree);
    }

    public static JsonNode tree(final String json) {
        try {
            return LENIENT.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("JsonShapes wrote invalid JSON: " + json, e);
        }
    }

    private static Arbitrary<String> value(final List<String> keys, final List<String> strings, final int depth) {
        final Arbitrary<String> leaf = Arbitraries.oneOf(Arbitraries.of(JSON_NUMBERS),
            Arbitraries.longs().map(String::valueOf), Arbitraries.of("true", "false", "null", "\"\"", "{}", "[]"),
            Arbitraries.of(strings).map(JsonShapes::quoted), Arbitraries.of(keys).map(JsonShapes::quoted),
            Arbitraries.of(Mutants.HOSTILE_NUMBERS).map(JsonShapes::quoted),
            Arbitraries.strings().ofMaxLength(12).map(JsonShapes::quoted));
        if (depth == 0) {
            return leaf;
        }
        return Arbitraries.frequencyOf(Tuple.of(6, leaf),
            Tuple.of(2, object(keys, strings, depth - 1)),
            Tuple.of(1, value(keys, strings, depth - 1).list().ofMaxSize(4).map(l -> "[" + String.join(",", l) + "]")));
    }

    private static Arbitrary<String> object(final List<String> keys, final List<String> strings, final int depth) {
        final Arbitrary<String> key = Arbitraries.frequencyOf(Tuple.of(9, Arbitraries.of(keys)),
            Tuple.of(1, Arbitraries.strings().ofMaxLength(8)));
        final Arbitrary<String> member = Combinators.combine(key, value(keys, strings, depth))
            .as((k, v) -> quoted(k) + ":" + v);
        return member.list().ofMaxSize(8).map(l -> "{" + String.join(",", l) + "}");
    }

    private static List<String> harvest(final List<String> seeds, final Pattern... patterns) {
        final Set<String> found = new LinkedHashSet<>();
        for (final String seed : seeds) {
            for (final Pattern p : patterns) {
                final Matcher m = p.matcher(seed);
                while (m.find()) {
                    found.add(m.group(1));
                }
            }
        }
        found.add("x");
        return new ArrayList<>(found);
    }

    private static String quoted(final String s) {
        final StringBuilder b = new StringBuilder("\"");
        for (final char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
