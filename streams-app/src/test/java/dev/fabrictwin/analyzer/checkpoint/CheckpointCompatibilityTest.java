package dev.fabrictwin.analyzer.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import dev.fabrictwin.analyzer.CapturedIntervals;
import dev.fabrictwin.analyzer.FabricAnalyzer;
import dev.fabrictwin.analyzer.rates.PortInterval;

/**
 * What an upgrade keeps. {@code checkpoint/mixed-down-drop-ecn-120s.learned} is the learned section of a checkpoint,
 * committed by the build that introduced it (the analysis of the library's {@code mixed-down-drop-ecn} after 120 s).
 * The checkpoint's exact section is Java serialization, which any later change of the analyzer's classes makes
 * unreadable, and that is fine; this section must stay readable, part by part, by every later build — a codec change
 * bumps its part's version and regenerates this file deliberately ({@code -Dfabric.checkpoint.regenerate=true}), and
 * docs/analyzer.md says which parts an upgrade keeps.
 */
class CheckpointCompatibilityTest {

    private static final Path COMMITTED = Path.of("src", "test", "resources", "checkpoint", "mixed-down-drop-ecn-120s.learned");
    private static final List<String> PARTS = List.of("link-errors", "ecn-misconfig", "unexpected-traffic",
        "ecmp-calm-shares", "latency-slo", "job-baselines", "phase-locks", "learned-paths");

    @Test
    void anUpgradedAnalysisTakesBackEveryLearnedPartOfTheCommittedCheckpoint() throws Exception {
        final LearnedState learned = LearnedState.fromBytes(Files.readAllBytes(COMMITTED));
        final FabricAnalyzer fresh = CapturedIntervals.of("mixed-down-drop-ecn.yaml").analyzer();

        assertThat(learned.parts().keySet()).containsExactlyInAnyOrderElementsOf(PARTS);
        assertThat(fresh.relearn(learned)).containsExactlyInAnyOrderElementsOf(PARTS);
        // every part read what it wrote: written again, the section is the committed one, byte for byte
        assertThat(fresh.learned().toBytes()).isEqualTo(learned.toBytes());
    }

    @Test
    void aFabricOtherThanTheOneThatLearnedTakesNothingBack() throws Exception {
        final LearnedState learned = LearnedState.fromBytes(Files.readAllBytes(COMMITTED));

        assertThat(CapturedIntervals.of("straggler.yaml").analyzer().relearn(learned)).isEmpty();
    }

    @Test
    void aPartAtAVersionThisBuildCannotReadIsLearnedAfresh() throws Exception {
        final LearnedState learned = LearnedState.fromBytes(Files.readAllBytes(COMMITTED));
        final Map<String, LearnedState.Part> parts = new LinkedHashMap<>(learned.parts());
        parts.put("latency-slo", new LearnedState.Part(99, parts.get("latency-slo").bytes()));

        assertThat(CapturedIntervals.of("mixed-down-drop-ecn.yaml").analyzer()
            .relearn(new LearnedState(learned.fabricFingerprint(), parts))).doesNotContain("latency-slo").hasSize(PARTS.size() - 1);
    }

    /** Writes the committed checkpoint anew: only when a learned part's codec changed, with its version bumped. */
    @Test
    @EnabledIfSystemProperty(named = "fabric.checkpoint.regenerate", matches = "true")
    void regenerate() throws Exception {
        final CapturedIntervals capture = CapturedIntervals.of("mixed-down-drop-ecn.yaml");
        final FabricAnalyzer analyzer = capture.analyzer();
        final long until = capture.intervals().get(0).t1() + 120_000;
        for (final PortInterval i : capture.intervals()) {
            if (i.t1() > until) {
                break;
            }
            analyzer.accept(i);
        }
        Files.createDirectories(COMMITTED.getParent());
        Files.write(COMMITTED, analyzer.learned().toBytes());
    }

    @Test
    void bytesThatAreNoLearnedStateAreRefusedInOneLine() {
        assertThatThrownBy(() -> LearnedState.fromBytes(new byte[] {1, 2, 3, 4, 5}))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("not a learned state");
    }
}
