package dev.fabrictwin.analyzer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Test;

class FabricDocumentsTest {

    private final Store topologies = new Store();
    private final Store jobs = new Store();
    private final FabricDocuments.Reader reader = new FabricDocuments.Reader();

    private static byte[] utf8(final String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aDocumentIsParsedOnceWhileItsBytesStayTheSame() {
        topologies.map.put("lab", utf8("{\"id\":\"lab\"}"));
        jobs.map.put("a", utf8("{\"id\":\"a\"}"));
        final FabricDocuments first = reader.read(topologies, jobs);
        final FabricDocuments again = reader.read(topologies, jobs);

        assertThat(again.topology()).isSameAs(first.topology());
        assertThat(again.jobs().get(0)).isSameAs(first.jobs().get(0));
        assertThat(again.version()).isEqualTo(first.version());
        // another reader (a restarted task) computes the same versions from the same content
        assertThat(new FabricDocuments.Reader().read(topologies, jobs)).satisfies(d -> {
            assertThat(d.version()).isEqualTo(first.version());
            assertThat(d.topologyVersion()).isEqualTo(first.topologyVersion());
        });

        jobs.map.put("a", utf8("{\"id\":\"a\",\"hosts\":2}"));
        final FabricDocuments changed = reader.read(topologies, jobs);
        assertThat(changed.jobs().get(0).path("hosts").asInt()).isEqualTo(2);
        assertThat(changed.version()).isNotEqualTo(first.version());
        assertThat(changed.topologyVersion()).isEqualTo(first.topologyVersion());
        assertThat(changed.topology()).isSameAs(first.topology());
    }

    @Test
    void aDocumentThatIsNoJsonObjectIsSkipped() {
        // a restored global store may hold what the store's processor refused
        topologies.map.put("lab", utf8("{\"id\":\"lab\"}"));
        jobs.map.put("a", utf8("{\"id\":"));
        jobs.map.put("b", utf8("{\"id\":\"b\"}"));
        final FabricDocuments docs = reader.read(topologies, jobs);
        assertThat(docs.jobs()).extracting(j -> j.path("id").asText()).containsExactly("b");
        assertThat(reader.read(topologies, jobs).version()).isEqualTo(docs.version());
        assertThat(reader.read(new Store(), jobs).topology()).isNull();
    }

    @Test
    void anEarlierBuildsVersionsStandForTheHashesOfTheSameDocumentsOnly() {
        final byte[] topology = utf8("{\"id\":\"lab\"}");
        final byte[] job = utf8("{\"id\":\"a\"}");
        topologies.map.put("lab", topology);
        jobs.map.put("a", job);
        final FabricDocuments docs = reader.read(topologies, jobs);
        // as the earlier build computed them
        final int legacyTopology = 31 * 17 + Arrays.hashCode(topology);
        final int legacy = 31 * legacyTopology + Arrays.hashCode(job);

        assertThat(docs.versionOfLegacy(legacy)).isEqualTo(docs.version());
        assertThat(docs.topologyVersionOfLegacy(legacyTopology)).isEqualTo(docs.topologyVersion());
        assertThat(docs.versionOfLegacy(legacy + 1)).isZero();
        assertThat(docs.topologyVersionOfLegacy(legacy)).isZero();
    }

    /** A global store as the processors read it, in key order. */
    private static final class Store implements ReadOnlyKeyValueStore<String, byte[]> {
        final TreeMap<String, byte[]> map = new TreeMap<>();

        @Override
        public byte[] get(final String key) {
            return map.get(key);
        }

        @Override
        public KeyValueIterator<String, byte[]> range(final String from, final String to) {
            return iterator(map.subMap(from, true, to, true));
        }

        @Override
        public KeyValueIterator<String, byte[]> all() {
            return iterator(map);
        }

        @Override
        public long approximateNumEntries() {
            return map.size();
        }

        private static KeyValueIterator<String, byte[]> iterator(final Map<String, byte[]> entries) {
            final Iterator<Map.Entry<String, byte[]>> it = entries.entrySet().iterator();
            return new KeyValueIterator<>() {
                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public KeyValue<String, byte[]> next() {
                    final Map.Entry<String, byte[]> e = it.next();
                    return KeyValue.pair(e.getKey(), e.getValue());
                }

                @Override
                public String peekNextKey() {
                    throw new UnsupportedOperationException();
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
