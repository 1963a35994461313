package dev.fabrictwin.analyzer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.CapturedIntervals;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.whatif.LearnedPins;

/** The paths an analysis learned, read off its checkpoint store as the what-if reads them. */
class LearnedPathsTest {

    /** The learned section of a real analysis' checkpoint (CheckpointCompatibilityTest's): 9 flows pinned. */
    private static final Path COMMITTED = Path.of("src", "test", "resources", "checkpoint", "mixed-down-drop-ecn-120s.learned");

    @Test
    void shouldReadThePinsOfARealAnalysisCheckpointAsJobFlowsOfItsFabric() throws Exception {
        final Scenario scenario = CapturedIntervals.of("mixed-down-drop-ecn.yaml").scenario();
        final Map<String, byte[]> store = store(Files.readAllBytes(COMMITTED), 2);

        final LearnedPaths.Read read = LearnedPaths.read(store, scenario.fabric().build(scenario.name())).orElseThrow();

        assertThat(read.dropped()).isZero();
        assertThat(read.pins()).hasSize(9).allSatisfy(p -> {
            assertThat(p.source()).matches("[a-z]+-\\d+/.+");
            assertThat(p.destination()).matches("[a-z]+-\\d+/.+");
            assertThat(p.via()).startsWith("spine-");
        });
        // every pin is a running job's flow, through one of its first hops: the what-if keeps them all
        final LearnedPins pinned = LearnedPins.onto(scenario, read.pins());
        assertThat(pinned.pinned()).isEqualTo(9);
        assertThat(pinned.dropped()).isZero();
        assertThat(pinned.scenario().pins()).containsExactlyElementsOf(read.pins());
    }

    @Test
    void shouldDropThePinsOfPortsTheFabricLacksAndFindNoneWithoutALearnedSection() throws Exception {
        final Scenario other = ScenarioParser.parse(ScenarioParser.tree("""
            name: tiny
            duration: 10s
            fabric: {kind: spine-leaf, spines: 2, leaves: 2, hostsPerLeaf: 1}
            jobs: []
            """), Path.of("."));
        final Map<String, byte[]> store = store(Files.readAllBytes(COMMITTED), 1);

        final LearnedPaths.Read read = LearnedPaths.read(store, other.fabric().build(other.name())).orElseThrow();
        assertThat(read.pins().size() + read.dropped()).isEqualTo(9);
        assertThat(read.dropped()).as("pins naming hosts or spines the tiny fabric lacks").isPositive();

        store.remove(LearnedPaths.sectionKey());
        assertThat(LearnedPaths.read(store, other.fabric().build(other.name()))).isEmpty();
        assertThat(LearnedPaths.changelogTopic("fabric-twin-analyzer"))
            .isEqualTo("fabric-twin-analyzer-analysis-checkpoint-changelog");
    }

    /** A checkpoint store holding {@code learned} as its learned section, in {@code chunks} chunks. */
    static Map<String, byte[]> store(final byte[] learned, final int chunks) {
        final Map<String, byte[]> store = new HashMap<>();
        final int size = (learned.length + chunks - 1) / chunks;
        for (int i = 0; i < chunks; i++) {
            store.put("learned-chunk-" + i, Arrays.copyOfRange(learned, i * size, Math.min(learned.length, (i + 1) * size)));
        }
        store.put(LearnedPaths.sectionKey(), ByteBuffer.allocate(Integer.BYTES).putInt(chunks).array());
        store.put("meta", new byte[] {0, 0, 0, 1}); // the exact section: not read
        return store;
    }
}
