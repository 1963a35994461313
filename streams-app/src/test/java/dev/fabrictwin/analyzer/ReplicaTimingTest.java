package dev.fabrictwin.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/**
 * The replica's share of an analysis is timed on the clock it is given ({@code bench streams --scenario} gives the
 * thread's CPU time, which a GC pause does not advance), not on the wall clock.
 */
class ReplicaTimingTest {

    @Test
    void theReplicasTimeIsWhatTheGivenClockAdvancedDuringItsCalls() throws Exception {
        final CapturedIntervals capture = CapturedIntervals.of("mixed-down-drop-ecn.yaml");
        final FabricAnalyzer analyzer = capture.analyzer();
        final AtomicLong reads = new AtomicLong();
        // each read a microsecond later: a tick's consultation reads it twice (before and after) and counts 1,000 ns
        analyzer.timeTwinWith(() -> reads.incrementAndGet() * 1_000);

        CapturedIntervals.analyze(analyzer, capture.intervals());

        assertThat(reads.get()).as("clock reads: two per tick the replica was consulted for").isGreaterThan(10).isEven();
        assertThat(analyzer.twinNanos()).isEqualTo(reads.get() / 2 * 1_000);
    }
}
