package dev.fabrictwin.analyzer.detect;

import static dev.fabrictwin.analyzer.tick.HandTicks.assertFinding;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.tick.HandTicks;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.workload.Pattern;

/**
 * Four single-NIC hosts a leaf and an all-to-all job over all eight: the twin hashes the 16 flows from leaf-0's
 * hosts to leaf-1's over leaf-0's uplinks {@code eth4} (to spine-0) and {@code eth5} (to spine-1). Every tick takes
 * the twin's expectation, which advances the replica to it.
 */
class EcmpSpreadDetectorTest {

    private static final DetectionCalibration CAL = DetectionCalibration.defaults();

    private static final int WINDOW = CAL.ecmp().windowTicks();

    private final HandTicks hand = allToAll(4);
    private final EcmpSpreadDetector detector = new EcmpSpreadDetector();

    private static HandTicks allToAll(final int hostsPerLeaf) {
        final String[] hosts = IntStream.range(0, 2 * hostsPerLeaf).mapToObj(h -> "host-" + h).toArray(String[]::new);
        return HandTicks.on(HandTicks.spineLeaf(hostsPerLeaf), HandTicks.job("a2a", Pattern.ALL_TO_ALL, hosts));
    }

    /** Every port of the fabric; leaf-0 sends these bytes up to spine-0 and spine-1. */
    private static HandTicks.TickBuilder uplinks(final HandTicks on, final long index, final double toSpine0,
                                                 final double toSpine1) {
        final int first = on.fabric().node("leaf-0").map(n -> on.fabric().degree(n.index()) - 2).orElseThrow();
        return on.tick(index).everyPort().expectedFromTwin()
            .port("leaf-0", "eth" + first).observed(CounterNames.TX_BYTES, toSpine0)
            .port("leaf-0", "eth" + (first + 1)).observed(CounterNames.TX_BYTES, toSpine1);
    }

    private HandTicks.Run polarized(final HandTicks on, final int count) {
        return on.drive(new EcmpSpreadDetector(), count, i -> uplinks(on, i, 2e9, 0));
    }

    @Test
    void shouldReportAGroupWhoseBusiestMemberCarriesWhatHashingTheTwinsFlowsWouldNot() {
        final HandTicks.Run perTick = hand.drive(detector, WINDOW, i -> uplinks(hand, i, 2e9, 0));

        assertThat(perTick.upTo(WINDOW - 1)).isEmpty();
        assertThat(perTick.tick(WINDOW)).singleElement().satisfies(f -> {
            assertFinding(f, Finding.root(FaultType.ECMP_IMBALANCE, Entity.ecmpGroup("leaf-0"), "busiest_member_share",
                1.0, 0.5, Severity.WARNING, null));
            assertThat(f.summary()).startsWith("leaf-0's ECMP group is imbalanced: spine-0 carries 100% of its 2 "
                + "uplinks' traffic; hashing its 16 flows would do that by chance with p < ");
        });
    }

    @Test
    void shouldNotJudgeAWindowInWhichAMemberSentOrReceivedPauses() {
        // the same polarized traffic, with flow control at work on spine-0's member in the first tick only
        final int first = hand.fabric().node("leaf-0").map(n -> hand.fabric().degree(n.index()) - 2).orElseThrow();
        final HandTicks.Run run = hand.drive(detector, WINDOW + 1, i -> uplinks(hand, i, 2e9, 0)
            .port("leaf-0", "eth" + first).observed("rx_pfc_pause.3", i == 1 ? 7_000 : 0));

        assertThat(run.upTo(WINDOW)).as("while the paused tick is in the window").isEmpty();
        assertThat(run.tick(WINDOW + 1)).as("once it has left").hasSize(1);
    }

    @Test
    void shouldReportAGroupWhoseHashMovedTheSameFlowsToAnotherMember() {
        // 60/40 for 40 ticks (plausible luck for 16 flows, this group's normal), then 25/75: a share no hashing test
        // calls (16 flows, 12 on one of two members happens by chance), but the same flows moved (28 Gb/s of them)
        final int calm = 40;
        final HandTicks.Run run = hand.drive(detector, calm + 3 * WINDOW,
            i -> i <= calm ? uplinks(hand, i, 6e9, 4e9) : uplinks(hand, i, 2.5e9, 7.5e9));

        assertThat(run.upTo(calm)).isEmpty();
        assertThat(run.last()).singleElement().satisfies(f -> {
            assertThat(f.rootCandidate()).isTrue();
            assertThat(f.entity()).isEqualTo(Entity.ecmpGroup("leaf-0"));
            assertThat(f.expected()).isCloseTo(0.4, Assertions.within(1e-6));
            assertThat(f.summary()).contains("moved its traffic: spine-1 carries 75%", "at most 40%", "same 16 flows");
        });
    }

    @Test
    void shouldNotCallAMoveWhileTheGroupCarriesFarLessThanUsual() {
        // a job a storm or a straggler stalls keeps its flows in the twin, not on the wire: what is left says
        // nothing of the hash
        final int calm = 40;
        final HandTicks.Run run = hand.drive(detector, calm + 3 * WINDOW,
            i -> i <= calm ? uplinks(hand, i, 0.6e9, 0.4e9) : uplinks(hand, i, 0.1e9, 0.3e9));

        assertThat(run.all()).isEmpty();
    }

    @Test
    void shouldNotCallAMoveWhileAnotherRootIsOpen() {
        final int calm = 40;
        final HandTicks.Run before = hand.drive(detector, calm, i -> uplinks(hand, i, 0.6e9, 0.4e9));
        hand.calm(false);
        final List<List<Finding>> after = new ArrayList<>();
        for (int i = calm + 1; i <= calm + 3 * WINDOW; i++) {
            after.add(uplinks(hand, i, 0.25e9, 0.75e9).detect(detector));
        }

        assertThat(before.all()).isEmpty();
        assertThat(after).allSatisfy(f -> assertThat(f).isEmpty());
    }

    @Test
    void shouldNotCallAMoveThatLastsLessThanAWindow() {
        final int calm = 40;
        final HandTicks.Run run = hand.drive(detector, calm + 4 * WINDOW,
            i -> i > calm && i <= calm + 2 ? uplinks(hand, i, 0.25e9, 0.75e9) : uplinks(hand, i, 0.6e9, 0.4e9));

        assertThat(run.upTo(calm + 4 * WINDOW)).isEmpty();
    }

    @Test
    void shouldNameTheBusiestMemberWhicheverItIs() {
        final HandTicks.Run perTick = hand.drive(detector, WINDOW, i -> uplinks(hand, i, 1e7, 2e9));

        assertThat(perTick.tick(WINDOW)).singleElement().satisfies(f -> {
            assertThat(f.observed()).isEqualTo(2e9 / (2e9 + 1e7));
            assertThat(f.summary()).contains("spine-1 carries 100%");
        });
    }

    /** Ticks of a balanced group before a window of it is part of its calm past (it waits a window to count). */
    private static final int CALM = CAL.ecmp().calmLearned() + 2 * WINDOW;

    @Test
    void shouldCallALesserImbalanceAtOnceWhenItsBusiestMemberRisesAboveItsCalmPastAndQueuesBeyondTheTwin() {
        // 14 of 16 equal flows on one of two members: 4e-3 by chance, above 1e-3 over the fabric's 2 groups, under 0.05
        final HandTicks.Run alone = hand.drive(detector, CALM + 2 * WINDOW,
            i -> i <= CALM ? uplinks(hand, i, 1e9, 1e9) : uplinks(hand, i, 1.75e9, 0.25e9));
        final HandTicks queueing = allToAll(4);
        final HandTicks.Run congested = queueing.drive(new EcmpSpreadDetector(), CALM + WINDOW, i -> i <= CALM
            ? uplinks(queueing, i, 1e9, 1e9) : queuingOnSpine0(queueing, uplinks(queueing, i, 1.75e9, 0.25e9)));

        // without the queueing, only the move itself, once it has held a window (the same 16 flows, the hash moved)
        assertThat(alone.upTo(CALM + WINDOW)).isEmpty();
        assertThat(alone.last()).singleElement().satisfies(f -> assertThat(f.summary()).contains("moved its traffic"));
        assertThat(congested.upTo(CALM)).isEmpty();
        assertThat(congested.tick(CALM + WINDOW)).singleElement().satisfies(f -> assertThat(f.summary())
            .contains("spine-0 carries 88% of its 2 uplinks' traffic (at most 50% before) and queues beyond the twin"));
    }

    @Test
    void shouldNotTakeTheQueueingOfAMemberHashingOverloadedFromTheFirstTickAsASecondPieceOfEvidence() {
        // the same share and queue, there from the first tick: this group's normal (the hash is fixed for the run), and
        // a member carrying more than a twin that spreads evenly queues beyond it whether or not anything is wrong
        final HandTicks queueing = allToAll(4);

        assertThat(queueing.drive(new EcmpSpreadDetector(), CALM + 2 * WINDOW,
            i -> queuingOnSpine0(queueing, uplinks(queueing, i, 1.75e9, 0.25e9))).all()).isEmpty();
    }

    @Test
    void shouldLearnTheCalmPastOnlyFromWindowsAWholeWindowOld() {
        // the share ramps up over the window's ticks; had its first steps been learned as calm, the past would have
        // risen with it and the 88 % would never stand 10 points above it
        final HandTicks queueing = allToAll(4);
        final HandTicks.Run ramp = queueing.drive(new EcmpSpreadDetector(), CALM + 3 * WINDOW, i -> i <= CALM
            ? uplinks(queueing, i, 1e9, 1e9)
            : queuingOnSpine0(queueing, uplinks(queueing, i, Math.min(1.75e9, 1e9 + 0.15e9 * (i - CALM)),
                2e9 - Math.min(1.75e9, 1e9 + 0.15e9 * (i - CALM)))));

        assertThat(ramp.all()).extracting(Finding::entity).isNotEmpty().containsOnly(Entity.ecmpGroup("leaf-0"));
    }

    private static HandTicks.TickBuilder queuingOnSpine0(final HandTicks on, final HandTicks.TickBuilder tick) {
        final String toSpine0 = "eth" + on.fabric().node("leaf-0").map(n -> on.fabric().degree(n.index()) - 2)
            .orElseThrow();
        return tick.port("leaf-0", toSpine0).gauge(CounterNames.BUFFER_WATERMARK_BYTES, 2e6);
    }

    @Test
    void shouldFindNothingWhenTheGroupIsBalanced() {
        assertThat(hand.drive(detector, 2 * WINDOW, i -> uplinks(hand, i, 1e9, 1e9)).all()).isEmpty();
    }

    @Test
    void shouldNotJudgeAShareOfSixtyPercentOrLess() {
        assertThat(hand.drive(detector, 2 * WINDOW, i -> uplinks(hand, i, 1.2e9, 0.8e9)).all()).isEmpty();
    }

    @Test
    void shouldFindAModerateImbalanceOfSixteenFlowsPlausibleLuck() {
        // 80% on one member: hashing 16 flows puts 13 or more on one of two members about 2% of the time
        assertThat(hand.drive(detector, 2 * WINDOW, i -> uplinks(hand, i, 1.6e9, 0.4e9)).all()).isEmpty();
    }

    @Test
    void shouldNotBlameAGroupThatTheTwinSeesTooFewFlowsCrossToJudge() {
        // two hosts a leaf: 4 flows cross leaf-0's uplinks, and all on one member happens 1 time in 8
        final HandTicks small = allToAll(2);

        assertThat(polarized(small, 2 * WINDOW).all()).isEmpty();
    }

    @Test
    void shouldNotBlameAGroupWhenTheTwinRoutesNoFlowsOverIt() {
        final HandTicks idle = HandTicks.on(HandTicks.spineLeaf(4));

        assertThat(polarized(idle, 2 * WINDOW).all()).isEmpty();
    }

    @Test
    void shouldStartTheWindowOverWhenAMemberGoesDown() {
        final HandTicks.Run perTick = hand.drive(detector, 2 * WINDOW,
            i -> i == WINDOW ? uplinks(hand, i, 2e9, 0).port("leaf-0", "eth5").down() : uplinks(hand, i, 2e9, 0));

        assertThat(perTick.upTo(2 * WINDOW - 1)).isEmpty();
        assertThat(perTick.tick(2 * WINDOW)).extracting(Finding::entity).containsExactly(Entity.ecmpGroup("leaf-0"));
    }

    @Test
    void shouldStartOverAfterAGapAndCountATickInWhichAMemberDidNotReportAsNothingFromIt() {
        // tick 3: a gap on eth5 (the window starts over); tick 4: eth4 missing (counted as 0: its bytes come with its
        // next sample); the window fills with ticks 4 to 8
        final HandTicks.Run perTick = hand.drive(detector, WINDOW + 3, i -> switch (i) {
            case 3 -> uplinks(hand, i, 2e9, 0).port("leaf-0", "eth5").gap();
            case 4 -> hand.tick(i).port("leaf-0", "eth5").observed(CounterNames.TX_BYTES, 0).expectedFromTwin();
            default -> uplinks(hand, i, 2e9, 0);
        });

        assertThat(perTick.upTo(WINDOW + 2)).isEmpty();
        assertThat(perTick.tick(WINDOW + 3)).hasSize(1);
    }

    /**
     * A bursty job (a burst every sixth tick, so some windows hold none) over a balanced group; one member's sample is lost in a burst tick and
     * its bytes come with its next one. Skipping the lost tick for everyone left that catch-up alone in the window: the
     * member one whole burst ahead, a false imbalance (seen on a 320-GPU all-to-all during a PFC storm).
     */
    @Test
    void shouldNotReadALostSamplesCatchUpAsAnImbalance() {
        final HandTicks wide = allToAll(8);
        final int first = wide.fabric().node("leaf-0").map(n -> wide.fabric().degree(n.index()) - 2).orElseThrow();
        final int lostAt = 18;
        final HandTicks.Run perTick = wide.drive(new EcmpSpreadDetector(), 6 * WINDOW, i -> {
            final double burst = i % 6 == 0 ? 5e9 : 1e7;
            if (i == lostAt) {
                return wide.tick(i).port("leaf-0", "eth" + (first + 1)).observed(CounterNames.TX_BYTES, burst)
                    .expectedFromTwin(); // eth-first's sample is lost
            }
            return uplinks(wide, i, i == lostAt + 1 ? burst + 5e9 : burst, burst);
        });

        assertThat(perTick.all()).isEmpty();
    }

    /** Three samples lost in a row, then a catch-up marked as a gap: the lost ticks must not read as an imbalance. */
    @Test
    void shouldNotReadLostTicksWhoseCatchUpIsAGapAsAnImbalance() {
        final HandTicks wide = allToAll(8); // 64 flows over two members: 71 % on one would not be luck
        final int first = wide.fabric().node("leaf-0").map(n -> wide.fabric().degree(n.index()) - 2).orElseThrow();
        final HandTicks.Run perTick = wide.drive(new EcmpSpreadDetector(), 6 * WINDOW, i -> {
            if (i >= 10 && i <= 12) {
                return wide.tick(i).port("leaf-0", "eth" + (first + 1)).observed(CounterNames.TX_BYTES, 1e9)
                    .expectedFromTwin();
            }
            return i == 13 ? uplinks(wide, i, 1e9, 1e9).port("leaf-0", "eth" + first).gap() : uplinks(wide, i, 1e9, 1e9);
        });

        assertThat(perTick.all()).isEmpty();
    }

    @Test
    void shouldStopOnceTheImbalanceHasLeftTheWindow() {
        final HandTicks.Run perTick = hand.drive(detector, 2 * WINDOW,
            i -> i <= WINDOW ? uplinks(hand, i, 2e9, 0) : uplinks(hand, i, 1e9, 1e9));

        assertThat(perTick.tick(WINDOW)).hasSize(1);
        assertThat(perTick.tick(2 * WINDOW)).isEmpty();
    }

    @Test
    void shouldGiveTheChanceThatHashingPutsAShareOnTheBusiestMember() {
        final double[] sixteen = new double[16];
        Arrays.fill(sixteen, 1);
        final double[] four = {1, 1, 1, 1};

        // all 16 on one of two members: 2 × 2^-16 ≈ 3e-5, about 1 in 40,000 trials
        assertThat(EcmpSpreadDetector.chanceOfShare(sixteen, 2, 1.0, 7, CAL.ecmp())).isLessThan(CAL.ecmp().pValue());
        // all 4 on one: 1 in 8; the count stops as soon as the answer is sure to reach the p-value
        assertThat(EcmpSpreadDetector.chanceOfShare(four, 2, 1.0, 7, CAL.ecmp())).isGreaterThanOrEqualTo(CAL.ecmp().pValue());
        // one elephant flow explains its member's share whatever the hash does
        assertThat(EcmpSpreadDetector.chanceOfShare(new double[] {10, 1, 1}, 2, 10.0 / 12, 7, CAL.ecmp()))
            .isGreaterThanOrEqualTo(CAL.ecmp().pValue());
        assertThat(EcmpSpreadDetector.chanceOfShare(new double[] {0, 0}, 2, 1.0, 7, CAL.ecmp())).isEqualTo(1);
    }

    @Test
    void shouldBoundTheChanceWithoutTrialsWhenFlowsAreManyAndNeverClaimMoreThanTheTrialsCanShow() {
        final double[] many = new double[10_000];
        Arrays.fill(many, 1);
        // 30 % on one of four members, 10,000 equal flows: Bernstein's bound is astronomically small already
        assertThat(EcmpSpreadDetector.bernstein(many, 4, 0.05 * many.length)).isLessThan(1e-20);
        assertThat(EcmpSpreadDetector.chanceOfShare(many, 4, 0.30, 7, 1e-9, CAL.ecmp())).isLessThan(1e-9);
        // 26 %: within what hashing 10,000 flows does (2.5 standard deviations): not significant
        assertThat(EcmpSpreadDetector.chanceOfShare(many, 4, 0.26, 7, 1e-3, CAL.ecmp())).isGreaterThanOrEqualTo(1e-3);

        final double[] sixteen = new double[16];
        Arrays.fill(sixteen, 1);
        // at a level no affordable count of trials can show, the bound decides: all 16 on one of two is 3e-5 by
        // chance, not below 1e-9, so it is not called significant there
        assertThat(EcmpSpreadDetector.chanceOfShare(sixteen, 2, 1.0, 7, 1e-9, CAL.ecmp())).isGreaterThanOrEqualTo(1e-9);
        // 10 of 16 equal flows on one of four members happens by chance with p ≈ 6.5e-3 (binomial): never below 1e-3
        for (long seed = 0; seed < 20; seed++) {
            assertThat(EcmpSpreadDetector.chanceOfShare(sixteen, 4, 10.0 / 16, seed, 1e-3, CAL.ecmp()))
                .as("seed %d", seed).isGreaterThanOrEqualTo(1e-3);
        }
    }

    @Test
    void shouldDepartOnlyOnceTheGroupHasACalmPastAndOnlyMoreThanTheDepartureAboveItsHighestShare() {
        final CalmShares past = new CalmShares(2, 0, CAL.ecmp());
        for (int w = 0; w <= CAL.ecmp().calmLearned(); w++) {
            assertThat(EcmpSpreadDetector.departs(past, 0, 0.9, CAL.ecmp())).as("window %d", w)
                .isEqualTo(w == CAL.ecmp().calmLearned());
            past.add(new double[] {0.5, 0.5}, 16, 1e9);
        }
        assertThat(EcmpSpreadDetector.departs(past, 0, 0.6, CAL.ecmp())).isFalse();
        assertThat(EcmpSpreadDetector.departs(past, 0, 0.6001, CAL.ecmp())).isTrue();
    }
}
