package dev.fabrictwin.analyzer.detect;

import static dev.fabrictwin.analyzer.tick.HandTicks.assertFinding;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.IntFunction;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.tick.HandTicks;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CongestionModel;
import dev.fabrictwin.twin.model.CounterNames;

class EcnMisconfigDetectorTest {

    private static final DetectionCalibration CAL = DetectionCalibration.defaults();

    /** Past the marking threshold of any switch (150 kB) and beyond the twin's empty queue by far more than 50 kB. */
    private static final double DEEP_QUEUE = 300_000;

    private final HandTicks hand = HandTicks.on(HandTicks.spineLeaf(2));

    /** leaf-0/eth2 (towards spine-0) queues {@code queue} bytes, sends {@code packets} and marks {@code marks}. */
    private HandTicks.TickBuilder egress(final long index, final double queue, final double packets, final double marks) {
        return hand.tick(index).port("leaf-0", "eth2").gauge(CounterNames.QUEUE_DEPTH_BYTES, queue)
            .observed(CounterNames.TX_PACKETS, packets).observed(CounterNames.ECN_MARKED, marks);
    }

    /** A fresh detector through ticks 1..count. */
    private HandTicks.Run run(final int count, final IntFunction<HandTicks.TickBuilder> tick) {
        return hand.drive(new EcnMisconfigDetector(), count, tick);
    }

    private HandTicks.Run tenTicks(final double queue, final double packets, final double marks) {
        return run(CAL.ecn().windowTicks(), i -> egress(i, queue, packets, marks));
    }

    @Test
    void shouldBlameTheDeviceOnceThreeSecondsOfDeepQueuesGoWithoutAMarkBeforeItsCurveIsLearned() {
        final HandTicks.Run perTick = tenTicks(DEEP_QUEUE, 1e6, 0);

        assertThat(perTick.upTo(CAL.ecn().minSeconds() - 1)).isEmpty();
        assertThat(perTick.tick(CAL.ecn().minSeconds())).singleElement().satisfies(f -> {
            assertFinding(f, Finding.root(FaultType.ECN_MISCONFIG, Entity.device("leaf-0"), "ecn_marked", 0, 0,
                Severity.WARNING, null));
            assertThat(f.summary()).contains("leaf-0 queues 3.00e+06 packets", "in 3 ticks", "marked none");
        });
    }

    /** Judging only the whole window kept the marks from before marking stopped, a window late. */
    @Test
    void shouldFindMarkingThatStopsWithinThreeTicksThoughTheWindowStillHoldsTheMarksFromBefore() {
        final HandTicks.Run perTick = run(20, i -> egress(i, DEEP_QUEUE, 1e6, i <= 12 ? 1e5 : 0));

        assertThat(perTick.upTo(14)).isEmpty();
        assertThat(perTick.tick(15)).singleElement().satisfies(f -> assertThat(f.summary()).contains("in 3 ticks"));
    }

    @Test
    void shouldFindASwitchThatStopsMarkingAtQueuesWhereItUsedToMark() {
        // 40 healthy ticks marking 7.5 % at 400 kB, then a 250th of that at the same depth
        final HandTicks.Run perTick = run(45, i -> egress(i, 400_000, 1e6, i <= 40 ? 75_000 : 300));

        assertThat(perTick.upTo(42)).isEmpty();
        assertThat(perTick.tick(43)).singleElement().satisfies(f -> {
            assertThat(f.observed()).isEqualTo(3 * 300);
            assertThat(f.expected()).isCloseTo(3 * 75_000, Assertions.within(1.0));
            assertThat(f.summary()).contains("learned marking");
        });
    }

    @Test
    void shouldNotTakeAPortThatNeverMarkedForOneThatStopped() {
        // leaf-0's eth2 (a fan-in's bursts) marks 7.5 % at 400 kB, its eth3 (a ring's steady queue of the same mean)
        // never marks; then the fan-in's traffic leaves eth2 (a link went down and it took another path) and eth3
        // queues as it always did: no mark is missing (a spine of mixed-down-drop-ecn, draw 8)
        final HandTicks.Run perTick = run(50, i -> {
            final HandTicks.TickBuilder tick = hand.tick(i).port("leaf-0", "eth3").gauge(CounterNames.QUEUE_DEPTH_BYTES, 400_000)
                .observed(CounterNames.TX_PACKETS, 1e6).observed(CounterNames.ECN_MARKED, 0);
            return i <= 40 ? tick.port("leaf-0", "eth2").gauge(CounterNames.QUEUE_DEPTH_BYTES, 400_000)
                .observed(CounterNames.TX_PACKETS, 1e6).observed(CounterNames.ECN_MARKED, 75_000) : tick;
        });

        assertThat(perTick.all()).isEmpty();
    }

    @Test
    void shouldJudgeADepthItNeverLearnedByTheFallbackOnly() {
        // learned at 400 kB; at 2 MB (never seen) a share of marks is no departure, none at all is
        assertThat(run(50, i -> egress(i, i <= 40 ? 400_000 : 2e6, 1e6, i <= 40 ? 75_000 : 10)).all()).isEmpty();
        assertThat(run(45, i -> egress(i, i <= 40 ? 400_000 : 2e6, 1e6, i <= 40 ? 75_000 : 0)).tick(43)).singleElement()
            .satisfies(f -> assertThat(f.summary()).contains("marked none"));
    }

    @Test
    void shouldNeverBlameAQuietMarkerThatKeepsItsOwnShare() {
        // 0.1 % of packets marked at deep queues: far under the twin's curve, but this device's normal
        assertThat(run(60, i -> egress(i, i % 2 == 0 ? DEEP_QUEUE : 2e6, 1e6, 1_000)).all()).isEmpty();
    }

    @Test
    void shouldFindNothingWhileADeviceMarksATwentiethOfWhatItUsedTo() {
        // a 250th of its old share departs; a twentieth only marks less (an incast's standing queue marks less per
        // packet than bursts at the same mean): the bar is a hundredth of its low quantile
        final HandTicks.Run twentieth = run(45, i -> egress(i, 400_000, 1e6, i <= 40 ? 75_000 : 3_750));
        final HandTicks.Run small = run(45, i -> egress(i, 400_000, 1e6, i <= 40 ? 75_000 : 300));

        assertThat(twentieth.all()).isEmpty();
        assertThat(small.last()).hasSize(1);
    }

    @Test
    void shouldIgnoreAQueueBehindAPausedPort() {
        // the start of a PFC storm: the egress is held paused, its queue is the pause's, not congestion to mark
        final double frames = CongestionModel.pauseFramesPerSecond(HandTicks.LINK_BPS);
        assertThat(run(10, i -> egress(i, 2e6, 1e6, 0)
            .observed(CounterNames.perPriority(CounterNames.RX_PFC_PAUSE, 3), 0.5 * frames)).all()).isEmpty();
    }

    @Test
    void shouldJudgeMarksNothingOnlyWhenTheCurveCallsForEnough() {
        final var cal = hand.config().calibration();
        assertThat(EcnMisconfigDetector.marksNothing(0, 99, cal)).isFalse();
        assertThat(EcnMisconfigDetector.marksNothing(0, 100, cal)).isTrue();
        assertThat(EcnMisconfigDetector.marksNothing(1, 100, cal)).isTrue();
        assertThat(EcnMisconfigDetector.marksNothing(2, 100, cal)).isFalse();
    }

    @Test
    void shouldFallBackOnlyOnNotASingleMark() {
        assertThat(EcnMisconfigDetector.unmarkedCongestion(0, 1e5, CAL)).isTrue();
        assertThat(EcnMisconfigDetector.unmarkedCongestion(1, 1e9, CAL)).isFalse();
        assertThat(EcnMisconfigDetector.unmarkedCongestion(0, 99_999, CAL)).isFalse();
    }

    @Test
    void shouldFindNothingWhileTheDeviceMarksAsTheTwinExpects() {
        final HandTicks.Run perTick = run(12, i -> egress(i, DEEP_QUEUE, 1e6, 2e4)
            .expectedGauge(CounterNames.QUEUE_DEPTH_BYTES, DEEP_QUEUE).expected(CounterNames.ECN_MARKED, 2e4));

        assertThat(perTick.all()).isEmpty();
    }

    @Test
    void shouldNeedAHundredThousandCongestedPacketsInTheWindow() {
        assertThat(tenTicks(DEEP_QUEUE, 9_999, 0).last()).isEmpty();
        assertThat(tenTicks(DEEP_QUEUE, 10_000, 0).last()).singleElement()
            .satisfies(f -> assertThat(f.summary()).contains("queues 1.00e+05 packets"));
    }

    @Test
    void shouldNotCallAQueueBelowAnySwitchsMarkingThresholdCongested() {
        assertThat(EcnMisconfigDetector.markingQueueBytes(CAL)).isEqualTo(150_000);
        assertThat(tenTicks(EcnMisconfigDetector.markingQueueBytes(CAL), 1e6, 0).last()).isEmpty();
        assertThat(tenTicks(EcnMisconfigDetector.markingQueueBytes(CAL) + 1, 1e6, 0).last())
            .hasSize(1);
    }

    @Test
    void shouldNotCallAQueueCongestedUnlessItExceedsTheTwinsByFiftyKilobytes() {
        final double twinQueue = DEEP_QUEUE - CAL.pfc().queueExcessBytes();
        final HandTicks.Run atExcess = run(10, i -> egress(i, DEEP_QUEUE, 1e6, 0)
            .expectedGauge(CounterNames.QUEUE_DEPTH_BYTES, twinQueue));
        final HandTicks.Run beyond = run(10, i -> egress(i, DEEP_QUEUE, 1e6, 0)
            .expectedGauge(CounterNames.QUEUE_DEPTH_BYTES, twinQueue - 1));

        assertThat(atExcess.last()).isEmpty();
        assertThat(beyond.last()).hasSize(1);
    }

    @Test
    void shouldCountMarksFromEveryPortOfTheDevice() {
        final HandTicks.Run perTick = run(10, i -> egress(i, DEEP_QUEUE, 1e6, 0)
            .port("leaf-0", "eth0").observed(CounterNames.ECN_MARKED, 1e4));

        assertThat(perTick.all()).isEmpty();
    }

    @Test
    void shouldIgnoreHostPorts() {
        final HandTicks.Run perTick = run(10, i -> hand.tick(i).port("host-0", "nic0")
            .gauge(CounterNames.QUEUE_DEPTH_BYTES, DEEP_QUEUE).observed(CounterNames.TX_PACKETS, 1e6));

        assertThat(perTick.all()).isEmpty();
    }

    @Test
    void shouldJudgeTheWholeWindowSoOneCongestedTickFiresUntilItSlidesOut() {
        // congested in tick 10 only: the device is judged from tick 10 (the window is full) through tick 19
        final HandTicks.Run perTick = run(20, i -> egress(i, i == 10 ? DEEP_QUEUE : 0, 1e6, 0));

        assertThat(perTick.upTo(9)).isEmpty();
        assertThat(perTick.ticks(10, 19)).allSatisfy(f -> assertThat(f).extracting(Finding::entity)
            .containsExactly(Entity.device("leaf-0")));
        assertThat(perTick.tick(20)).isEmpty();
    }

    @Test
    void shouldNeedThreeSecondsOfTicksWhenTicksAreFaster() {
        final HandTicks fast = hand.withTickMs(100);
        final HandTicks.Run perTick = fast.drive(new EcnMisconfigDetector(), 100, i -> fast.tick(i).port("leaf-0", "eth2")
            .gauge(CounterNames.QUEUE_DEPTH_BYTES, DEEP_QUEUE).observed(CounterNames.TX_PACKETS, 1e5));

        assertThat(perTick.upTo(29)).isEmpty();
        assertThat(perTick.tick(30)).singleElement().satisfies(f -> assertThat(f.summary()).contains("in 30 ticks"));
    }

    @Test
    void shouldCallAQueueDeepForTheFallbackPastOneAndAHalfKminAndTheTwinsQueueByTheCongestedExcess() {
        final double deep = EcnMisconfigDetector.markingQueueBytes(CAL);

        assertThat(EcnMisconfigDetector.deepBeyondTwin(deep + 1, 0, CAL)).isTrue();
        assertThat(EcnMisconfigDetector.deepBeyondTwin(deep, 0, CAL)).as("not past the marking queue").isFalse();
        assertThat(EcnMisconfigDetector.deepBeyondTwin(deep + 1, deep + 1 - 50_000, CAL)).as("the twin's own").isFalse();
        assertThat(EcnMisconfigDetector.deepBeyondTwin(deep + 1, deep - 50_000, CAL)).isTrue();
    }
}
