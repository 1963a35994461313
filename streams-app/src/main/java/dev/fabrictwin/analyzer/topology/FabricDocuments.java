package dev.fabrictwin.analyzer.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fabrictwin.contract.document.DocumentFormatException;
import dev.fabrictwin.contract.document.JobDocument;
import dev.fabrictwin.contract.document.JsonDocument;
import dev.fabrictwin.contract.document.TopologyDocument;

/**
 * The declared fabric as the global stores hold it: the topology documents (one per fabric id) and the jobs (one per
 * job id, tombstones removed). {@link #version()} changes whenever any document does, {@link #topologyVersion()} when
 * the topology does: 64-bit hashes of the documents' bytes, computed from the stores' content, so a restarted task
 * (whose global stores were restored without their processor) computes the same ones its checkpoint holds.
 */
record FabricDocuments(List<TopologyDocument> topologies, List<JobDocument> jobDocuments, long version,
                       long topologyVersion) {

    private static final long SEED = 17;
    private static final long MIX = 0x9E3779B97F4A7C15L;

    /** The topology the analysis follows (the last fabric id's), or null when none has arrived yet. */
    JsonNode topology() {
        return topologies.isEmpty() ? null : topologies.get(topologies.size() - 1).json();
    }

    List<JsonNode> jobs() {
        return jobDocuments.stream().map(JsonDocument::json).toList();
    }

    /**
     * The 64-bit version standing for {@code legacy}, a 32-bit one a checkpoint written before them holds: this
     * documents' when {@code legacy} was computed from them, else 0 (no documents' version), so a checkpoint of an
     * earlier build is continued when the documents did not change meanwhile.
     */
    long versionOfLegacy(final int legacy) {
        return legacy == legacyVersion(true) ? version : 0;
    }

    long topologyVersionOfLegacy(final int legacy) {
        return legacy == legacyVersion(false) ? topologyVersion : 0;
    }

    /** The 32-bit version earlier builds checkpointed: of the topologies and then (with {@code jobs}) the jobs. */
    private int legacyVersion(final boolean jobs) {
        int v = 17;
        for (final TopologyDocument t : topologies) {
            v = 31 * v + Arrays.hashCode(t.bytes());
        }
        for (final JobDocument j : jobs ? jobDocuments : List.<JobDocument>of()) {
            v = 31 * v + Arrays.hashCode(j.bytes());
        }
        return v;
    }

    /**
     * Reads the global stores, keeping each key's document parsed from one read to the next while its bytes stay the
     * same (a document changes rarely; the stores are read at every document check). One per processor.
     */
    static final class Reader {
        private final Parsed<TopologyDocument> topologies = new Parsed<>(TopologyDocument::of);
        private final Parsed<JobDocument> jobs = new Parsed<>(JobDocument::of);

        /** Documents that are no JSON object (a global store restored from its topic may hold one) are skipped. */
        FabricDocuments read(final ReadOnlyKeyValueStore<String, byte[]> topologyStore,
                             final ReadOnlyKeyValueStore<String, byte[]> jobStore) {
            final List<TopologyDocument> t = topologies.read(topologyStore);
            final List<JobDocument> j = jobs.read(jobStore);
            long version = SEED;
            for (final TopologyDocument d : t) {
                version = MIX * version + d.contentHash();
            }
            final long topologyVersion = version;
            for (final JobDocument d : j) {
                version = MIX * version + d.contentHash();
            }
            return new FabricDocuments(t, j, version, topologyVersion);
        }
    }

    /** One store's documents by key, as last read: reused while the store holds the same bytes for the key. */
    private static final class Parsed<D extends JsonDocument> {
        private final Function<byte[], D> parse;
        private Map<String, D> documents = new HashMap<>();
        private Map<String, byte[]> refused = new HashMap<>();

        Parsed(final Function<byte[], D> parse) {
            this.parse = parse;
        }

        List<D> read(final ReadOnlyKeyValueStore<String, byte[]> store) {
            final Map<String, D> read = new HashMap<>();
            final Map<String, byte[]> unreadable = new HashMap<>();
            final List<D> inOrder = new ArrayList<>();
            try (KeyValueIterator<String, byte[]> it = store.all()) {
                while (it.hasNext()) {
                    final var kv = it.next();
                    if (kv.value == null) {
                        continue;
                    }
                    D doc = documents.get(kv.key);
                    if (doc == null || !doc.isWrittenAs(kv.value)) {
                        if (Arrays.equals(refused.get(kv.key), kv.value)) {
                            unreadable.put(kv.key, kv.value);
                            continue;
                        }
                        try {
                            doc = parse.apply(kv.value);
                        } catch (DocumentFormatException e) {
                            unreadable.put(kv.key, kv.value);
                            continue;
                        }
                    }
                    read.put(kv.key, doc);
                    inOrder.add(doc);
                }
            }
            documents = read;
            refused = unreadable;
            return inOrder;
        }
    }
}
