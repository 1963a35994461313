package dev.fabrictwin.analyzer.topology;

import java.io.IOException;
import java.util.Arrays;

import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.fabric.PortNames;
import dev.fabrictwin.twin.fabric.Technology;

/**
 * Whether a sample's device/port names meet a port of the declared topology, asked by the rates stage before the
 * sample costs any per-name state: a name that meets none would be dropped by the analysis anyway,
 * after its last sample, its store entry, its changelog record and its device clock had been kept. The names meet as
 * the analysis's do (the topology's {@code names} section and the built-in spellings, {@link PortNames}).
 *
 * <p>The topology is read from its global store when first asked, then again each {@value #CHECK_EVERY_MS} ms of
 * event time (as often as the analysis looks at its documents), and parsed again only when its bytes changed. Until a
 * usable topology arrives every name passes: the analysis counts what it cannot analyze yet ({@code no-topology}). A
 * topology that cannot be used keeps the one before it, as in the analysis. Memory: the topology and its resolver,
 * whose cache of names that meet nothing is capped ({@code PortNames.UNKNOWN_CACHE_LIMIT}).
 */
final class KnownPorts {

    static final long CHECK_EVERY_MS = 5_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ReadOnlyKeyValueStore<String, byte[]> topologies;
    private PortNames.Resolver resolver;
    private int version;
    private long checkedAt = Long.MIN_VALUE;

    KnownPorts(final ReadOnlyKeyValueStore<String, byte[]> topologies) {
        this.topologies = topologies;
    }

    /**
     * Null when {@code device}/{@code port} meets a topology port, or no usable topology is known yet; else why not
     * ({@code unknown-device}, {@code unknown-port}). {@code ts} is the sample's time: it paces the topology checks.
     */
    String unmatched(final String device, final String port, final long ts) {
        if (checkedAt == Long.MIN_VALUE || ts - checkedAt >= CHECK_EVERY_MS) {
            checkedAt = ts;
            refresh();
        }
        if (resolver == null) {
            return null;
        }
        final PortNames.Resolution r = resolver.resolve(device, port);
        return r.matched() ? null : r.reason();
    }

    /** Rebuilds the resolver when the topology documents changed: from the last one that parses, as the analysis. */
    private void refresh() {
        int v = 17;
        try (KeyValueIterator<String, byte[]> it = topologies.all()) {
            while (it.hasNext()) {
                final byte[] doc = it.next().value;
                if (doc != null) {
                    v = 31 * v + Arrays.hashCode(doc);
                }
            }
        }
        if (v == version) {
            return;
        }
        version = v;
        JsonNode topology = null;
        try (KeyValueIterator<String, byte[]> it = topologies.all()) {
            while (it.hasNext()) {
                final byte[] doc = it.next().value;
                try {
                    topology = doc == null ? topology : JSON.readTree(doc);
                } catch (IOException e) {
                    // skipped, as the analysis skips it (FabricDocuments)
                }
            }
        }
        if (topology == null) {
            return;
        }
        try {
            resolver = PortNames.fromJson(topology.get("names"))
                .bind(FabricJson.fromJson(topology, "fabric", Technology.ROCE_V2));
        } catch (IllegalArgumentException e) {
            // the analysis reports it (bad-document) and keeps its previous topology: so does this
        }
    }
}
