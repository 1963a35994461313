package dev.fabrictwin.ingest.format.support;

import java.io.IOException;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * JSON trees whose objects keep the first value of a repeated key and tell a {@link RepeatedKeys} (or any listener)
 * of each repeat, the rule of every ingest format ({@link RepeatedKeys}); Jackson's own trees keep the last one
 * silently. The JSON formats (gnmic, gnmi-protojson, telegraf-json, sonic) read their messages with it.
 */
public final class KeepFirstJson {

    private KeepFirstJson() {
    }

    /** The whole of {@code json} as a tree. */
    public static JsonNode readTree(final ObjectMapper mapper, final byte[] json, final Consumer<String> repeated)
            throws IOException {
        return reader(mapper, repeated).readTree(json);
    }

    /**
     * A reader of such trees, for a stream of messages that share one listener: made once, since making one per
     * message was most of the 2 % the gnmic reader lost to keeping the first value.
     */
    public static ObjectReader reader(final ObjectMapper mapper, final Consumer<String> repeated) {
        return mapper.reader().with(new Factory(repeated));
    }

    /** The value at the parser's current token as a tree. */
    public static JsonNode readTree(final ObjectMapper mapper, final JsonParser p, final Consumer<String> repeated)
            throws IOException {
        return reader(mapper, repeated).readTree(p);
    }

    private static final class Factory extends JsonNodeFactory {
        private final transient Consumer<String> repeated;

        Factory(final Consumer<String> repeated) {
            this.repeated = repeated;
        }

        @Override
        public ObjectNode objectNode() {
            return new KeepFirstNode(this, repeated);
        }
    }

    /** Jackson's tree reader adds each field with {@link #replace}: a second one of a name is refused and reported. */
    private static final class KeepFirstNode extends ObjectNode {
        private final transient Consumer<String> repeated;

        KeepFirstNode(final JsonNodeFactory factory, final Consumer<String> repeated) {
            super(factory);
            this.repeated = repeated;
        }

        @Override
        public JsonNode replace(final String name, final JsonNode value) {
            // one hash lookup a field, as ObjectNode's own replace takes
            if (_children.putIfAbsent(name, value == null ? nullNode() : value) != null) {
                repeated.accept(name); // nothing replaced: the first value stands
            }
            return null;
        }
    }
}
