package dev.fabrictwin.contract.document;

import org.apache.kafka.common.serialization.Serde;

import dev.fabrictwin.contract.JsonSerdes;

/** A declared job's JSON (twin-engine's {@code JobJson}) as published on {@code fabric.jobs}. */
public final class JobDocument extends JsonDocument {

    /** Writes the bytes unchanged; reading refuses what is not a JSON object ({@link DocumentFormatException}). */
    public static final Serde<JobDocument> SERDE = JsonSerdes.of(JsonDocument::wire, JobDocument::of);

    private JobDocument(final byte[] bytes) {
        super(bytes);
    }

    /** @throws DocumentFormatException when {@code bytes} are not one JSON object */
    public static JobDocument of(final byte[] bytes) {
        return new JobDocument(bytes);
    }
}
