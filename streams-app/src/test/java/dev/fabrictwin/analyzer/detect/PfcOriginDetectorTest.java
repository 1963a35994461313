package dev.fabrictwin.analyzer.detect;

import static dev.fabrictwin.analyzer.tick.HandTicks.assertFinding;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.tick.HandTicks;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CongestionModel;
import dev.fabrictwin.twin.model.CounterNames;

/**
 * On the 2×2 spine-leaf: {@code leaf-i/eth0,eth1} face its hosts, {@code leaf-i/eth2} faces {@code spine-0/eth<i>}
 * and {@code leaf-i/eth3} faces {@code spine-1/eth<i>}.
 */
class PfcOriginDetectorTest {

    private static final DetectionCalibration CAL = DetectionCalibration.defaults();

    /** Pause frames a 100G port sends in one second while holding its peer paused all the time (≈ 5,960). */
    private static final double FRAMES = CongestionModel.pauseFramesPerSecond(HandTicks.LINK_BPS);
    private static final String TX_PAUSE = CounterNames.perPriority(CounterNames.TX_PFC_PAUSE, 3);
    private static final String RX_PAUSE = CounterNames.perPriority(CounterNames.RX_PFC_PAUSE, 3);
    private static final PortRef HOST_0 = new PortRef("host-0", "nic0");

    private final HandTicks hand = HandTicks.on(HandTicks.spineLeaf(2));
    private final PfcOriginDetector detector = new PfcOriginDetector();

    /** The share of the tick a port sending {@code share × FRAMES} pause frames (rounded) holds its peer paused. */
    private static double share(final double share) {
        return Math.round(share * FRAMES) / FRAMES;
    }

    /** The share of whole pause frames a tick just below {@code share}. */
    private static double justBelow(final double share) {
        return Math.floor(share * FRAMES) / FRAMES;
    }

    /** The share of whole pause frames a tick just above {@code share}. */
    private static double justAbove(final double share) {
        return Math.ceil(share * FRAMES) / FRAMES;
    }

    private HandTicks.TickBuilder pausing(final double share, final String... senders) {
        return hand.pausing(share, senders);
    }

    @Test
    void shouldNameAHostNicSendingPausesTheOriginOfAStorm() {
        final List<Finding> out = pausing(0.5, "host-0/nic0").detect(detector);

        assertThat(out).singleElement().satisfies(f -> {
            assertFinding(f, Finding.root(FaultType.PFC_STORM, Entity.port(HOST_0), "pfc_paused_share", share(0.5), 0,
                Severity.CRITICAL, null));
            assertThat(f.summary()).isEqualTo("host-0 nic0 is storming PFC: it holds its peer paused 50% of the time "
                + "with no congestion to explain it");
        });
    }

    @Test
    void shouldAddUpThePausesOfEveryPriority() {
        final List<Finding> out = pausing(0.3, "host-0/nic0")
            .observed(CounterNames.perPriority(CounterNames.TX_PFC_PAUSE, 4), 0.2 * FRAMES).detect(detector);

        assertThat(out).singleElement().satisfies(f -> assertThat(f.observed()).isCloseTo(0.5, within(1e-3)));
    }

    @Test
    void shouldTracePausesSpreadingUpstreamBackToTheNicThatStartedThem() {
        final List<Finding> out = pausing(0.3, "host-0/nic0", "leaf-0/eth2", "spine-0/eth1", "leaf-1/eth0")
            .detect(detector);

        assertThat(out).filteredOn(Finding::rootCandidate).extracting(Finding::entity)
            .containsExactly(Entity.port(HOST_0));
        assertThat(out).filteredOn(f -> !f.rootCandidate()).hasSize(3).allSatisfy(f -> {
            assertThat(f.type()).isEqualTo(FaultType.PFC_STORM);
            assertThat(f.cause()).isEqualTo(Entity.port(HOST_0));
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.summary()).contains("passing on pauses that start at host-0 nic0");
        }).extracting(f -> f.entity().key())
            .containsExactlyInAnyOrder("port:leaf-0/eth2", "port:spine-0/eth1", "port:leaf-1/eth0");
    }

    @Test
    void shouldNameASwitchPortTheOriginWhenNothingPausesOrCongestsItsDevice() {
        final List<Finding> out = pausing(0.1, "leaf-0/eth2").detect(detector);

        assertThat(out).singleElement().satisfies(f -> {
            assertThat(f.entity()).isEqualTo(Entity.port(new PortRef("leaf-0", "eth2")));
            assertThat(f.rootCandidate()).isTrue();
            assertThat(f.observed()).isCloseTo(0.1, within(1e-3));
        });
    }

    @Test
    void shouldNameASwitchPortTheOriginOnlyAboveFivePercentOfTheTime() {
        assertThat(pausing(justBelow(CAL.pfc().switchOriginShare()), "leaf-0/eth2").detect(detector)).isEmpty();
        assertThat(pausing(justAbove(CAL.pfc().switchOriginShare()), "leaf-0/eth2").detect(detector))
            .singleElement()
            .satisfies(f -> assertThat(f.rootCandidate()).isTrue());
    }

    @Test
    void shouldCountAPortAsSendingPausesOnlyAboveTwoPercentOfTheTime() {
        assertThat(pausing(justBelow(CAL.pausedShare()), "host-0/nic0").detect(detector)).isEmpty();
        assertThat(pausing(justAbove(CAL.pausedShare()), "host-0/nic0").detect(detector)).singleElement()
            .satisfies(f -> assertThat(f.entity()).isEqualTo(Entity.port(HOST_0)));
    }

    @Test
    void shouldCallSwitchPausesASymptomOfACongestedEgressOnTheirDevice() {
        final List<Finding> out = pausing(0.1, "leaf-0/eth2")
            .port("leaf-0", "eth0").gauge(CounterNames.QUEUE_DEPTH_BYTES, 200_000)
            .detect(detector);

        assertThat(out).singleElement().satisfies(f -> {
            assertFinding(f, Finding.symptom(FaultType.PFC_STORM, Entity.port(new PortRef("leaf-0", "eth2")),
                Entity.link("host-0", "leaf-0"), "pfc_paused_share", share(0.1), 0, null));
            assertThat(f.summary()).endsWith("because link:host-0~leaf-0 is congested");
        });
    }

    @Test
    void shouldTakeEcnMarksBeyondTwiceTheTwinsForCongestion() {
        final List<Finding> marking = pausing(0.1, "leaf-0/eth2").port("leaf-0", "eth1")
            .observed(CounterNames.TX_PACKETS, 1e6).observed(CounterNames.ECN_MARKED, 2_000)
            .expected(CounterNames.ECN_MARKED, 400).detect(detector);
        final List<Finding> asTheTwinExpects = pausing(0.1, "leaf-0/eth2").port("leaf-0", "eth1")
            .observed(CounterNames.TX_PACKETS, 1e6).observed(CounterNames.ECN_MARKED, 2_000)
            .expected(CounterNames.ECN_MARKED, 1_000).detect(detector);

        assertThat(marking).singleElement()
            .satisfies(f -> assertThat(f.cause()).isEqualTo(Entity.link("host-1", "leaf-0")));
        assertThat(asTheTwinExpects).singleElement().satisfies(f -> assertThat(f.rootCandidate()).isTrue());
    }

    /**
     * An all-to-all over oversubscribed uplinks: the leaf pauses its hosts because its uplink marks every packet.
     * The twin expected that much marking (on its own guess of the hashes, perhaps on another uplink), yet an
     * egress marking 1 % or more is overloaded whatever the twin said: the pauses are its symptom, not a storm.
     */
    @Test
    void shouldTakeHeavyMarkingOrADeepQueueForOverloadEvenWhereTheTwinExpectsIt() {
        final List<Finding> marking = pausing(0.07, "leaf-0/eth0").port("leaf-0", "eth2")
            .observed(CounterNames.TX_PACKETS, 1e6).observed(CounterNames.ECN_MARKED, 1e6)
            .expected(CounterNames.ECN_MARKED, 1e6).detect(detector);
        final List<Finding> queueing = pausing(0.07, "leaf-0/eth0").port("leaf-0", "eth3")
            .gauge(CounterNames.QUEUE_DEPTH_BYTES, 100_000).expectedGauge(CounterNames.QUEUE_DEPTH_BYTES, 100_000)
            .detect(detector);
        final List<Finding> lightly = pausing(0.07, "leaf-0/eth0").port("leaf-0", "eth2")
            .observed(CounterNames.TX_PACKETS, 1e6).observed(CounterNames.ECN_MARKED, 9_000)
            .expected(CounterNames.ECN_MARKED, 9_000).detect(detector);

        assertThat(marking).singleElement()
            .satisfies(f -> assertThat(f.cause()).isEqualTo(Entity.link("leaf-0", "spine-0")));
        assertThat(queueing).singleElement()
            .satisfies(f -> assertThat(f.cause()).isEqualTo(Entity.link("leaf-0", "spine-1")));
        assertThat(lightly).singleElement().satisfies(f -> assertThat(f.rootCandidate()).isTrue());
    }

    /** A pause loop through a congested egress is congestion spreading both ways, not a deadlock. */
    @Test
    void shouldCallAPauseLoopThroughACongestedEgressASymptomOfIt() {
        final List<Finding> out = pausing(0.1, "leaf-0/eth2", "spine-0/eth1", "leaf-1/eth3", "spine-1/eth0")
            .port("leaf-1", "eth0").gauge(CounterNames.QUEUE_DEPTH_BYTES, 200_000)
            .detect(detector);

        assertThat(out).hasSize(4).allSatisfy(f -> assertThat(f.rootCandidate()).isFalse());
    }

    @Test
    void shouldFollowAPausedPortBeforeBlamingCongestion() {
        // leaf-0 is paused by host-0 (which reports no pause counters itself) and also congests towards host-1
        final List<Finding> out = pausing(0.1, "leaf-0/eth2")
            .port("leaf-0", "eth0").observed(RX_PAUSE, 0.4 * FRAMES)
            .port("leaf-0", "eth1").gauge(CounterNames.QUEUE_DEPTH_BYTES, 200_000)
            .detect(detector);

        assertThat(out).singleElement().satisfies(f -> {
            assertThat(f.rootCandidate()).isFalse();
            assertThat(f.cause()).isEqualTo(Entity.port(HOST_0));
        });
    }

    @Test
    void shouldNotFollowAPortPausedForTwoPercentOfTheTimeOrLess() {
        final List<Finding> out = pausing(0.1, "leaf-0/eth2")
            .port("leaf-0", "eth0").observed(RX_PAUSE, justBelow(CAL.pausedShare()) * FRAMES)
            .detect(detector);

        assertThat(out).singleElement().satisfies(f -> {
            assertThat(f.entity()).isEqualTo(Entity.port(new PortRef("leaf-0", "eth2")));
            assertThat(f.rootCandidate()).isTrue();
        });
    }

    @Test
    void shouldNotFollowPausesTheSendingPortReceivesItself() {
        final List<Finding> out = pausing(0.1, "leaf-0/eth2").observed(RX_PAUSE, 0.5 * FRAMES).detect(detector);

        assertThat(out).singleElement().satisfies(f -> assertThat(f.rootCandidate()).isTrue());
    }

    @Test
    void shouldFindNothingWhenTheTwinExpectsThePauses() {
        final List<Finding> out = pausing(0.5, "host-0/nic0").expected(TX_PAUSE, 0.5 * FRAMES).detect(detector);

        assertThat(out).isEmpty();
    }

    @Test
    void shouldFindNothingOnAHealthyTick() {
        assertThat(hand.tick(1).everyPort().detect(detector)).isEmpty();
    }

    @Test
    void shouldStopWalkingAPauseLoopAndReportEachOfItsSendersOnce() {
        // a cyclic buffer dependency: leaf-0 → spine-0 → leaf-1 → spine-1 → leaf-0, each pausing the next
        final List<Finding> out = pausing(0.1, "leaf-0/eth2", "spine-0/eth1", "leaf-1/eth3", "spine-1/eth0")
            .detect(detector);

        assertThat(out).extracting(f -> f.entity().key()).containsExactlyInAnyOrder("port:leaf-0/eth2",
            "port:spine-0/eth1", "port:leaf-1/eth3", "port:spine-1/eth0");
    }

    @Test
    void shouldSendPausesAboveThePausedShareAndStormFromASwitchOnlyAboveTheOriginShare() {
        assertThat(PfcOriginDetector.sendsPauses(0.02, CAL)).isFalse();
        assertThat(PfcOriginDetector.sendsPauses(0.0201, CAL)).isTrue();
        assertThat(PfcOriginDetector.storms(0.0499, false, CAL.pfc())).isFalse();
        assertThat(PfcOriginDetector.storms(0.05, false, CAL.pfc())).isTrue();
        assertThat(PfcOriginDetector.storms(0.0201, true, CAL.pfc())).as("a host NIC at any share").isTrue();
    }
}
