package dev.fabrictwin.contract.document;

import org.apache.kafka.common.serialization.Serde;

import dev.fabrictwin.contract.JsonSerdes;

/** The fabric's topology JSON (twin-engine's {@code FabricJson}) as published on {@code fabric.topology}. */
public final class TopologyDocument extends JsonDocument {

    /** Writes the bytes unchanged; reading refuses what is not a JSON object ({@link DocumentFormatException}). */
    public static final Serde<TopologyDocument> SERDE = JsonSerdes.of(JsonDocument::wire, TopologyDocument::of);

    private TopologyDocument(final byte[] bytes) {
        super(bytes);
    }

    /** @throws DocumentFormatException when {@code bytes} are not one JSON object */
    public static TopologyDocument of(final byte[] bytes) {
        return new TopologyDocument(bytes);
    }
}
