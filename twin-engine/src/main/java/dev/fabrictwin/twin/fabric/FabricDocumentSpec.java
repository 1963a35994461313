package dev.fabrictwin.twin.fabric;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A fabric from a topology document already read (see {@link FabricJson}): a file's, or the latest value of
 * {@code fabric.topology}. {@code defaultId} names it when the document has no {@code id}; {@code source} (a file, a
 * topic) prefixes what is wrong with it.
 */
public record FabricDocumentSpec(JsonNode document, String defaultId, String source, Technology technology)
    implements FabricSpec {

    @Override
    public Fabric build(final String id) {
        try {
            return FabricJson.fromJson(document, defaultId, technology);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
    }

    @Override
    public int hostCount() {
        return build(defaultId).hosts().size();
    }

    @Override
    public long linkCount() {
        return build(defaultId).links().size();
    }
}
