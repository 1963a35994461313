package dev.fabrictwin.analyzer.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.twin.scenario.ScenarioParser;

/**
 * The analysis cut into shards finds what the whole-fabric analysis finds: the same root-cause alerts (ids), each
 * fault named, victims attached — PFC storms whose pauses cross from one pod into the others through the spines,
 * loss and congestion on spine links, jobs spanning every shard, unexpected traffic whose sources sit in other shards
 * than where it lands.
 */
class ShardedScenariosTest {

    @TempDir
    Path dir;

    static Stream<Arguments> scenarios() {
        return Stream.of(Arguments.of("pfc-storm.yaml", 4), Arguments.of("mixed-down-drop-ecn.yaml", 3),
            Arguments.of("mixed-degraded-straggler-latency.yaml", 2), Arguments.of("ecmp-imbalance.yaml", 8),
            Arguments.of("silent-drop.yaml", 4), Arguments.of("job-bottleneck.yaml", 4),
            Arguments.of("unexpected-traffic.yaml", 4));
    }

    @ParameterizedTest(name = "{0} in {1} shards")
    @MethodSource("scenarios")
    void shardsOpenTheRootCausesTheWholeFabricOpens(final String file, final int shards) throws IOException {
        final var scenario = ScenarioParser.parse(Path.of("..", "scenarios", file));
        final ScenarioRun whole = ScenarioRun.of(scenario, dir.resolve("whole"));
        final ScenarioRun sharded = ScenarioRun.of(scenario, dir.resolve("sharded"), shards);
        assertThat(ids(sharded.openedRoots())).as("%s: root causes opened in %d shards", file, shards)
            .containsExactlyInAnyOrderElementsOf(ids(whole.openedRoots()));
        for (final var fault : sharded.truth()) {
            assertThat(sharded.openedRoots()).as("%s: %s named", file, fault.type())
                .anyMatch(a -> fault.localizedBy(a, sharded.intervalMs()));
        }
        assertThat(sharded.alerts()).as("victims name their root cause")
            .filteredOn(a -> !a.rootCause()).allMatch(a -> a.causedBy() != null);
    }

    private static List<String> ids(final List<Alert> alerts) {
        return alerts.stream().map(Alert::id).distinct().toList();
    }
}
