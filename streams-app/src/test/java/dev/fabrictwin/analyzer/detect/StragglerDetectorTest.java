package dev.fabrictwin.analyzer.detect;

import static dev.fabrictwin.analyzer.tick.HandTicks.assertFinding;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.tick.HandTicks;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.workload.Pattern;

/**
 * A ring over host-0..3 (one NIC each); {@code leaf-0/eth0,eth1} face host-0 and host-1, {@code leaf-1/eth0,eth1}
 * face host-2 and host-3. A fast NIC takes in 96% of line rate a tick, a slow one 24%.
 */
class StragglerDetectorTest {

    private static final DetectionCalibration CAL = DetectionCalibration.defaults();

    private static final int WINDOW = CAL.straggler().windowTicks();
    private static final double LINE = HandTicks.LINE_BYTES_PER_S;
    private static final double FAST = 0.96 * LINE;
    private static final double SLOW = 0.24 * LINE;
    private static final PortRef HOST_1 = new PortRef("host-1", "nic0");

    private final HandTicks hand = HandTicks.on(HandTicks.spineLeaf(2),
        HandTicks.job("j", Pattern.RING_ALLREDUCE, "host-0", "host-1", "host-2", "host-3")).slowdown("j", 2.0);
    private final StragglerDetector detector = new StragglerDetector();

    /** Adds host-h's NIC taking in {@code rx} bytes and the leaf port facing it, queueing beyond the twin or not. */
    private static HandTicks.TickBuilder nic(final HandTicks.TickBuilder tick, final int host, final double rx,
                                             final boolean queued) {
        return tick.port("host-" + host, "nic0").observed(CounterNames.RX_BYTES, rx)
            .port("leaf-" + host / 2, "eth" + host % 2).gauge(CounterNames.QUEUE_DEPTH_BYTES, queued ? 200_000 : 0);
    }

    /** Tick {@code index}: the hosts in {@code slow} take in {@code slowRx} behind queueing ports (if {@code queued}). */
    private static HandTicks.TickBuilder ring(final HandTicks on, final long index, final Set<Integer> slow,
                                              final double slowRx, final boolean queued) {
        final HandTicks.TickBuilder tick = on.tick(index).everyPort();
        for (int h = 0; h < 4; h++) {
            nic(tick, h, slow.contains(h) ? slowRx : FAST, slow.contains(h) && queued);
        }
        return tick;
    }

    private HandTicks.TickBuilder ring(final long index, final Set<Integer> slow, final double slowRx,
                                       final boolean queued) {
        return ring(hand, index, slow, slowRx, queued);
    }

    private HandTicks.Run slowFor(final int ticks, final Set<Integer> slow, final double slowRx) {
        return hand.drive(detector, ticks, i -> ring(i, slow, slowRx, true));
    }

    @Test
    void shouldNameTheOneNicThatIsSlowToTakeInWhatItsQueueingSwitchSendsIt() {
        final HandTicks.Run perTick = slowFor(WINDOW, Set.of(1), SLOW);

        assertThat(perTick.upTo(WINDOW - 1)).isEmpty();
        assertThat(perTick.last()).singleElement().satisfies(f -> {
            assertFinding(f, Finding.root(FaultType.STRAGGLER, Entity.port(HOST_1), "rx_line_share", 0.24,
                CAL.straggler().lineShare(), Severity.WARNING, null));
            assertThat(f.summary()).isEqualTo("host-1 nic0 is a straggler: job j's comm runs up to 2.0× slower than "
                + "usual while the switch port facing it queues and it takes in 24% of line rate");
        });
    }

    @Test
    void shouldFindNothingWhenEveryNicKeepsUp() {
        assertThat(hand.drive(detector, 2 * WINDOW, i -> ring(i, Set.of(), 0, false)).all()).isEmpty();
    }

    @Test
    void shouldJudgeNothingUnlessTheJobRunsMoreThanThirtyPercentSlower() {
        hand.slowdown("j", 1.3);
        assertThat(slowFor(WINDOW, Set.of(1), SLOW).all()).isEmpty();

        hand.slowdown("j", 1.31);
        assertThat(hand.drive(detector, 1, i -> ring(WINDOW + i, Set.of(1), SLOW, true)).last())
            .extracting(Finding::entity).containsExactly(Entity.port(HOST_1));
    }

    /** Ticks of a calm past: every NIC keeps up, no port queues, the job at its usual pace (unless told otherwise). */
    private static final int PAST = CAL.straggler().calmPastTicks() + WINDOW;

    @Test
    void shouldNeedOnlyFifteenPercentWhenAPortThatWasCalmStartsQueueingAndTheJobWasSteady() {
        // the phase lock's estimate lags and wavers while a slowdown sets in: 1.2 is all it says in the first ticks
        final HandTicks.Run perTick = hand.drive(detector, PAST + WINDOW, i -> {
            hand.slowdown("j", i <= PAST ? 1.0 : 1.2);
            return i <= PAST ? ring(i, Set.of(), 0, false) : ring(i, Set.of(1), SLOW, true);
        });

        // the port queues in 3 of the window's 4 ticks after three slow ones
        assertThat(perTick.upTo(PAST + 2)).isEmpty();
        assertThat(perTick.tick(PAST + 3)).singleElement().satisfies(f -> assertThat(f.summary())
            .startsWith("host-1 nic0 is a straggler: job j's comm runs up to 1.2× slower than usual"));
    }

    @Test
    void shouldRememberTheJobsSlowdownOfTheTickBeforeForTheLesserThreshold() {
        // 1.51, 1.10, 1.49 (infiniband draw 2): the tick at 1.10 counts the 1.51 before it
        final HandTicks.Run perTick = hand.drive(detector, PAST + WINDOW + 1, i -> {
            hand.slowdown("j", i <= PAST + WINDOW - 1 ? 1.0 : i == PAST + WINDOW ? 1.2 : 1.1);
            return i <= PAST ? ring(i, Set.of(), 0, false) : ring(i, Set.of(1), SLOW, true);
        });

        assertThat(perTick.tick(PAST + WINDOW)).hasSize(1);
        assertThat(perTick.tick(PAST + WINDOW + 1)).hasSize(1);
    }

    @Test
    void shouldNotLowerTheThresholdForAPortThatOftenQueuedBefore() {
        // a third of its past ticks queueing beyond the twin (a buffer or threshold the twin does not know): no change
        final HandTicks.Run perTick = hand.drive(detector, PAST + 2 * WINDOW, i -> {
            hand.slowdown("j", i <= PAST ? 1.0 : 1.2);
            return i <= PAST ? ring(i, Set.of(1), FAST, i % 3 == 0) : ring(i, Set.of(1), SLOW, true);
        });

        assertThat(perTick.all()).isEmpty();
    }

    @Test
    void shouldNotLowerTheThresholdForAJobWhoseSlowdownWavered() {
        // a healthy all-to-all's estimate swings 0.6 to 1.3: its 1.2 says nothing
        final HandTicks.Run perTick = hand.drive(detector, PAST + 2 * WINDOW, i -> {
            hand.slowdown("j", i <= PAST ? (i % 4 == 0 ? 0.7 : 1.0) : 1.2);
            return i <= PAST ? ring(i, Set.of(), 0, false) : ring(i, Set.of(1), SLOW, true);
        });

        assertThat(perTick.all()).isEmpty();
    }

    @Test
    void shouldNotLowerTheThresholdForAnAllToAllWhoseNicsTakeInFromEveryPeerAtOnce() {
        // its ports queue in bursts (incasts) whenever the twin misjudges a buffer: four false stragglers in a healthy
        // two-hour run (healthy-2h draw 2) when its 1.2 counted
        final HandTicks a2a = HandTicks.on(HandTicks.spineLeaf(2),
            HandTicks.job("a", Pattern.ALL_TO_ALL, "host-0", "host-1", "host-2", "host-3"));
        final HandTicks.Run perTick = a2a.drive(new StragglerDetector(), PAST + 2 * WINDOW, i -> {
            a2a.slowdown("a", i <= PAST ? 1.0 : 1.2);
            return i <= PAST ? ring(a2a, i, Set.of(), 0, false) : ring(a2a, i, Set.of(1), SLOW, true);
        });

        assertThat(perTick.all()).isEmpty();
        a2a.slowdown("a", 1.31);
        assertThat(a2a.drive(new StragglerDetector(), WINDOW, i -> ring(a2a, i, Set.of(1), SLOW, true)).last())
            .extracting(Finding::entity).containsExactly(Entity.port(HOST_1));
    }

    @Test
    void shouldNeedTheFacingPortQueueingInMostTicksOfTheWindow() {
        final IntPredicate twoOfFour = i -> i % 2 == 0;
        final IntPredicate threeOfFour = i -> i != 1;

        final HandTicks.Run half = hand.drive(detector, WINDOW,
            i -> ring(i, Set.of(1), SLOW, twoOfFour.test(i)));
        final HandTicks.Run most = hand.drive(new StragglerDetector(), WINDOW,
            i -> ring(i, Set.of(1), SLOW, threeOfFour.test(i)));

        assertThat(half.all()).isEmpty();
        assertThat(most.last()).extracting(Finding::entity).containsExactly(Entity.port(HOST_1));
    }

    @Test
    void shouldNeedTheNicToTakeInUnderSeventyPercentOfLineRate() {
        assertThat(slowFor(WINDOW, Set.of(1), 0.7 * LINE).last()).isEmpty();
        assertThat(hand.drive(new StragglerDetector(), WINDOW, i -> ring(i, Set.of(1), 0.69 * LINE, true)).last())
            .singleElement().satisfies(f -> assertThat(f.observed()).isCloseTo(0.69, within(1e-12)));
    }

    @Test
    void shouldLeaveTwoOrThreeSlowNicsOfFourToTheDetectorsOfWhatSlowsThem() {
        assertThat(slowFor(WINDOW, Set.of(1, 2), SLOW).last()).isEmpty();
        assertThat(hand.drive(new StragglerDetector(), WINDOW, i -> ring(i, Set.of(0, 1, 2), SLOW, true)).last())
            .isEmpty();
    }

    @Test
    void shouldBlameTheJobAsAWholeWhenMoreThanThreeQuartersOfItsNicsAreSlow() {
        final HandTicks.Run perTick = slowFor(WINDOW, Set.of(0, 1, 2, 3), SLOW);

        assertThat(perTick.last()).singleElement().satisfies(f -> {
            assertFinding(f, Finding.root(FaultType.JOB_BOTTLENECK, Entity.job("j"), "slowdown", 2.0, 1,
                Severity.WARNING, null));
            assertThat(f.summary()).contains("held back at its own NICs: 4 of 4");
        });
    }

    @Test
    void shouldNotFillTheWindowWithATickTheNicWasDownOrLostSamples() {
        final HandTicks.Run downInTickTwo = hand.drive(detector, WINDOW + 1,
            i -> i == 2 ? ring(i, Set.of(1), SLOW, true).port("host-1", "nic0").down() : ring(i, Set.of(1), SLOW, true));
        final HandTicks.Run gapInTickTwo = hand.drive(new StragglerDetector(), WINDOW + 1,
            i -> i == 2 ? ring(i, Set.of(1), SLOW, true).port("host-1", "nic0").gap() : ring(i, Set.of(1), SLOW, true));

        for (final HandTicks.Run perTick : List.of(downInTickTwo, gapInTickTwo)) {
            assertThat(perTick.upTo(WINDOW)).isEmpty();
            assertThat(perTick.last()).extracting(Finding::entity).containsExactly(Entity.port(HOST_1));
        }
    }

    @Test
    void shouldNotFillTheWindowWithATickMissingTheSwitchPortFacingTheNic() {
        final HandTicks.Run perTick = hand.drive(detector, WINDOW + 1, i -> i == 2
            ? nic(nic(nic(hand.tick(i), 0, FAST, false), 2, FAST, false), 3, FAST, false)
                .port("host-1", "nic0").observed(CounterNames.RX_BYTES, SLOW)
            : ring(i, Set.of(1), SLOW, true));

        assertThat(perTick.upTo(WINDOW)).isEmpty();
        assertThat(perTick.last()).hasSize(1);
    }

    @Test
    void shouldNotJudgeBackgroundTraffic() {
        final HandTicks background = HandTicks.on(HandTicks.spineLeaf(2),
            HandTicks.job("bg", Pattern.BACKGROUND, "host-0", "host-1", "host-2", "host-3")).slowdown("bg", 2.0);

        assertThat(background.drive(detector, 2 * WINDOW, i -> ring(background, i, Set.of(0, 1, 2, 3), SLOW, true))
            .all()).isEmpty();
    }

    @Test
    void shouldGateAStragglerOnItsIntakeTheJobsShareOfSlowNicsAndTheFacingPortsCalmPast() {
        final DetectionCalibration.Straggler cal = CAL.straggler();

        assertThat(StragglerDetector.starved(69.9, 100, cal)).isTrue();
        assertThat(StragglerDetector.starved(70, 100, cal)).isFalse();
        assertThat(StragglerDetector.wholeJob(7, 8, cal)).as("7 of 8 > 75 %").isTrue();
        assertThat(StragglerDetector.wholeJob(6, 8, cal)).isFalse();
        assertThat(StragglerDetector.pattern(2, 8, cal)).as("2 of 8 > 10 % and > 1").isTrue();
        assertThat(StragglerDetector.pattern(1, 8, cal)).as("one NIC is a straggler").isFalse();
        assertThat(StragglerDetector.usuallyCalm(8, 32, cal)).isTrue();
        assertThat(StragglerDetector.usuallyCalm(9, 32, cal)).as("over 25 % backed up").isFalse();
        assertThat(StragglerDetector.usuallyCalm(0, 31, cal)).as("under 32 ticks known").isFalse();
    }
}
