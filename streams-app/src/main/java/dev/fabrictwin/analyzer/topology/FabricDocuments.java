package dev.fabrictwin.analyzer.topology;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The declared fabric as the global stores hold it: the topology document (one per fabric id) and the jobs
 * (one per job id, tombstones removed). {@link #version()} changes whenever any document does, {@link #topologyVersion()} when the topology does.
 */
record FabricDocuments(JsonNode topology, List<JsonNode> jobs, int version, int topologyVersion) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Reads the stores; empty topology (null) when none has arrived yet. Unparseable documents are skipped. */
    static FabricDocuments read(final ReadOnlyKeyValueStore<String, byte[]> topologies,
                                final ReadOnlyKeyValueStore<String, byte[]> jobStore) {
        JsonNode topology = null;
        int version = 17;
        try (KeyValueIterator<String, byte[]> it = topologies.all()) {
            while (it.hasNext()) {
                final var kv = it.next();
                final JsonNode doc = parse(kv.value);
                if (doc != null) {
                    topology = doc;
                    version = 31 * version + Arrays.hashCode(kv.value);
                }
            }
        }
        final int topologyVersion = version;
        final List<JsonNode> jobs = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = jobStore.all()) {
            while (it.hasNext()) {
                final var kv = it.next();
                final JsonNode doc = parse(kv.value);
                if (doc != null) {
                    jobs.add(doc);
                    version = 31 * version + Arrays.hashCode(kv.value);
                }
            }
        }
        return new FabricDocuments(topology, jobs, version, topologyVersion);
    }

    private static JsonNode parse(final byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return JSON.readTree(bytes);
        } catch (IOException e) {
            return null;
        }
    }
}
