package dev.fabrictwin.contract.document;

import java.io.IOException;
import java.util.Arrays;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A document of a compacted document topic: the bytes exactly as written (the wire form, written back unchanged)
 * and the JSON object they hold, parsed once. Equal when the bytes are; {@link #contentHash()} is a 64-bit hash of
 * the bytes, the same in every process (so it can be checkpointed).
 */
public abstract class JsonDocument {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private final byte[] bytes;
    private final JsonNode json;
    private final long contentHash;

    JsonDocument(final byte[] bytes) {
        this.bytes = bytes.clone();
        this.json = parse(this.bytes);
        this.contentHash = fnv1a(this.bytes);
    }

    /** The document as written; a copy. */
    public final byte[] bytes() {
        return bytes.clone();
    }

    /** The JSON object the bytes hold (a shared tree: read it, do not change it). */
    public final JsonNode json() {
        return json;
    }

    public final long contentHash() {
        return contentHash;
    }

    /** Whether {@code other} are the bytes of this document (no copy). */
    public final boolean isWrittenAs(final byte[] other) {
        return Arrays.equals(bytes, other);
    }

    /** The bytes as they go on the wire, not copied (the serializer's path). */
    final byte[] wire() {
        return bytes;
    }

    private static JsonNode parse(final byte[] bytes) {
        final JsonNode parsed;
        try {
            parsed = JSON.readTree(bytes);
        } catch (IOException e) {
            throw new DocumentFormatException("not JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (parsed == null || !parsed.isObject()) {
            throw new DocumentFormatException("not a JSON object");
        }
        return parsed;
    }

    /** FNV-1a, 64 bits: fixed by its definition, unlike {@code hashCode}, so a checkpointed hash stays comparable. */
    private static long fnv1a(final byte[] bytes) {
        long h = FNV_OFFSET;
        for (final byte b : bytes) {
            h = (h ^ (b & 0xff)) * FNV_PRIME;
        }
        return h;
    }

    @Override
    public final boolean equals(final Object o) {
        return o != null && o.getClass() == getClass() && Arrays.equals(bytes, ((JsonDocument) o).bytes);
    }

    @Override
    public final int hashCode() {
        return Long.hashCode(contentHash);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + json;
    }
}
