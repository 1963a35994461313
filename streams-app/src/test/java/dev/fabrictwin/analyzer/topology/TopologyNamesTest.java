package dev.fabrictwin.analyzer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.TopologyException;
import org.apache.kafka.streams.processor.StateStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.analyzer.runtime.AnalyzerApp;

/**
 * The analyzer's internal topics, stores and processors are a compatibility surface: a running application's
 * changelogs, its lane repartition topics ({@code analyzer-intervals-lane-N}) and its committed offsets are found by
 * these names, so renaming one (or a new processor shifting the generated names after it) strands a deployed
 * application's state. The topology's description is pinned in test resources ({@code topology/}); a deliberate change
 * regenerates it with {@code -Dfabric.topology.regenerate=true} and says so in docs/analyzer.md's upgrade notes.
 */
class TopologyNamesTest {

    private static final Path PINNED = Path.of("src/test/resources/topology");

    @ParameterizedTest(name = "{0} shards")
    @ValueSource(ints = {0, 4})
    void shouldKeepTheNamesADeployedApplicationsStateIsFoundBy(final int shards) throws IOException {
        final AnalyzerSettings settings = shards == 0 ? AnalyzerSettings.defaults(1_000)
            : AnalyzerSettings.defaults(1_000).withShards(shards);
        // under the application's own settings: ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING refuses a generated name
        final Properties app = AnalyzerApp.streamsConfig(new Properties(), settings);
        app.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        final String described = AnalyzerTopology.build(settings, AnalyzerListener.NONE, app).describe().toString();
        final Path pinned = PINNED.resolve(shards == 0 ? "unsharded.txt" : "sharded-" + shards + ".txt");
        if (Boolean.getBoolean("fabric.topology.regenerate")) {
            Files.createDirectories(PINNED);
            Files.writeString(pinned, described, StandardCharsets.UTF_8);
        }
        assertThat(described).as("the topology's description against %s", pinned)
            .isEqualTo(Files.readString(pinned, StandardCharsets.UTF_8));
    }

    @Test
    void shouldRefuseAGeneratedInternalNameUnderTheApplicationsSettings() {
        final Properties app = AnalyzerApp.streamsConfig(new Properties(), AnalyzerSettings.defaults(1_000));
        app.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        final StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(app)));
        builder.stream("in").repartition().to("out"); // a repartition topic left to a generated name

        assertThatThrownBy(builder::build).isInstanceOf(TopologyException.class)
            .hasMessageContaining("repartition");
    }

    /**
     * A restart must find its process id (and so the transactional ids it fences) and no corrupted task: one persistent
     * store, the topology's global one; every task store in memory (a killed run's persistent task store is wiped under
     * exactly-once, and the whole group rebalances before the task runs again).
     */
    @ParameterizedTest(name = "{0} shards")
    @ValueSource(ints = {0, 4})
    void shouldKeepOnePersistentStoreAndItAGlobalOne(final int shards, @TempDir final Path stateDir) {
        final AnalyzerSettings settings = shards == 0 ? AnalyzerSettings.defaults(1_000)
            : AnalyzerSettings.defaults(1_000).withShards(shards);
        final Properties app = AnalyzerApp.streamsConfig(new Properties(), settings);
        app.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        app.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        try (TopologyTestDriver driver = new TopologyTestDriver(AnalyzerTopology.build(settings, AnalyzerListener.NONE, app),
            app)) {
            final Map<String, StateStore> stores = driver.getAllStateStores();
            assertThat(stores).containsKeys(AnalyzerTopology.TOPOLOGY_STORE, AnalyzerTopology.OPEN_ALERTS_STORE);
            assertThat(stores.values().stream().filter(StateStore::persistent).map(StateStore::name))
                .containsExactly(AnalyzerTopology.TOPOLOGY_STORE);
        }
    }
}
