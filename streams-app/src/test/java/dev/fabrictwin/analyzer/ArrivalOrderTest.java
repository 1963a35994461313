package dev.fabrictwin.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.fabrictwin.analyzer.rates.PortInterval;

/**
 * What the analysis publishes is a function of the telemetry, not of the order it arrives in. Live, the intervals
 * come in lanes (one per sample partition, each in its devices' order) whose batches interleave however the rates
 * tasks committed; a backlog, a replay or a restarted instance interleaves them otherwise. Every alert and every
 * job-health figure must come out the same, to the last bit (the chaos test compares a killed and restarted
 * analysis with one that never stopped, fed at another pace).
 */
class ArrivalOrderTest {

    private static final int LANES = 6;

    @ParameterizedTest
    @ValueSource(strings = {"mixed-down-drop-ecn.yaml", "straggler.yaml", "ecmp-imbalance.yaml"})
    void lanesInterleavedOtherwisePublishTheSame(final String scenario) throws Exception {
        final CapturedIntervals capture = CapturedIntervals.of(scenario);
        final CapturedIntervals.Run inOrder = capture.analyze();
        final long tickMs = capture.scenario().sampleInterval().toMillis();
        for (final long seed : new long[] {1, 2}) {
            final CapturedIntervals.Run interleaved = capture.analyze(interleave(capture.intervals(), 3 * tickMs, seed));
            assertThat(interleaved.alerts()).as("alerts, lanes interleaved (seed %d)", seed)
                .containsExactlyElementsOf(inOrder.alerts());
            assertThat(interleaved.health()).as("job health, lanes interleaved (seed %d)", seed)
                .containsExactlyElementsOf(inOrder.health());
        }
        assertThat(inOrder.alerts()).isNotEmpty();
        assertThat(inOrder.health()).isNotEmpty();
    }

    /**
     * A task builds its replica on the first interval it gets, which a slow start, a backlog or another instance makes
     * a different one: here a device's second interval, one tick later than the first round (not late: that tick
     * has not closed). The replica starts at the first tick closed all the same, so every figure is the same.
     */
    @Test
    void whicheverIntervalArrivesFirstTheReplicaStartsAtTheFirstTick() throws Exception {
        final CapturedIntervals capture = CapturedIntervals.of("mixed-down-drop-ecn.yaml");
        final long tickMs = capture.scenario().sampleInterval().toMillis();
        final List<PortInterval> inOrder = capture.intervals();
        final PortInterval first = inOrder.get(0);
        final int later = IntStream.range(0, inOrder.size())
            .filter(i -> Math.floorDiv(inOrder.get(i).t0(), tickMs) > Math.floorDiv(first.t0(), tickMs)).findFirst().orElseThrow();
        final List<PortInterval> laterFirst = new ArrayList<>(inOrder);
        laterFirst.add(0, laterFirst.remove(later));

        final CapturedIntervals.Run reference = CapturedIntervals.analyze(capture.analyzer(epochOf(first, tickMs)), inOrder);
        final FabricAnalyzer builtOnLater = capture.analyzer(epochOf(laterFirst.get(0), tickMs));
        final CapturedIntervals.Run run = CapturedIntervals.analyze(builtOnLater, laterFirst);

        assertThat(builtOnLater.lateIntervals()).isZero();
        assertThat(run.health()).as("job health, built on a later interval").containsExactlyElementsOf(reference.health());
        assertThat(run.alerts()).as("alerts, built on a later interval").containsExactlyElementsOf(reference.alerts());
        assertThat(reference.health()).isNotEmpty();
    }

    private static long epochOf(final PortInterval interval, final long tickMs) {
        return Math.floorDiv(interval.t0(), tickMs) * tickMs;
    }

    /**
     * The intervals as lanes deliver them: each device's in its lane, in order; per window of {@code batchMs} of
     * event time, the lanes' batches one after another in a random order.
     */
    private static List<PortInterval> interleave(final List<PortInterval> intervals, final long batchMs, final long seed) {
        final Random random = new Random(seed);
        final List<PortInterval> out = new ArrayList<>(intervals.size());
        int from = 0;
        while (from < intervals.size()) {
            final long windowEnd = Math.floorDiv(intervals.get(from).t1(), batchMs) * batchMs + batchMs;
            int to = from;
            while (to < intervals.size() && intervals.get(to).t1() < windowEnd) {
                to++;
            }
            final List<List<PortInterval>> lanes = new ArrayList<>();
            for (int l = 0; l < LANES; l++) {
                lanes.add(new ArrayList<>());
            }
            for (final PortInterval i : intervals.subList(from, to)) {
                lanes.get(Math.floorMod(i.device().hashCode(), LANES)).add(i);
            }
            Collections.shuffle(lanes, random);
            lanes.forEach(out::addAll);
            from = to;
        }
        return out;
    }
}
