package dev.fabrictwin.analyzer.detect;

import static dev.fabrictwin.analyzer.tick.HandTicks.assertFinding;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntToDoubleFunction;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.tick.HandTicks;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;

/** A 100G NIC takes in 12.5e9 bytes a second: over the 5-tick window 20% of line rate is 2.5e9 bytes a tick. */
class UnexpectedTrafficDetectorTest {

    private static final DetectionCalibration CAL = DetectionCalibration.defaults();

    private static final int WINDOW = CAL.unexpectedTraffic().windowTicks();
    /** Quiet ticks, every port's background learned by the end (a full window, then one learned per window, a window late). */
    private static final int QUIET = quiet(WINDOW);
    private static final PortRef SOURCE = new PortRef("host-0", "nic0");
    private static final PortRef SINK = new PortRef("host-2", "nic0");

    private final HandTicks hand = HandTicks.on(HandTicks.spineLeaf(2));
    private final UnexpectedTrafficDetector detector = new UnexpectedTrafficDetector();

    /** host-0 sends {@code bytes} a tick and host-2 takes them in; the twin expects neither. */
    private HandTicks.TickBuilder flow(final long index, final double bytes) {
        return hand.tick(index).everyPort()
            .port("host-0", "nic0").observed(CounterNames.TX_BYTES, bytes)
            .port("host-2", "nic0").observed(CounterNames.RX_BYTES, bytes);
    }

    /** host-2 takes in {@code bytes} a tick where the twin expects {@code expected}; nobody is seen sending it. */
    private HandTicks.Run sink(final double bytes, final double expected) {
        return afterQuiet(hand, new UnexpectedTrafficDetector(), WINDOW, i -> hand.tick(i).everyPort()
            .port("host-2", "nic0").observed(CounterNames.RX_BYTES, bytes).expected(CounterNames.RX_BYTES, expected));
    }

    private static int quiet(final int window) {
        return window * (CAL.unexpectedTraffic().backgroundWarmUp() + 2);
    }

    /** {@link #quiet} ticks of a quiet fabric, then {@code ticks} more built by {@code tick}. */
    private static HandTicks.Run afterQuiet(final HandTicks h, final Detector detector, final int ticks,
                                            final IntFunction<HandTicks.TickBuilder> tick) {
        final int quiet = quiet(h.config().tickMs() < 1_000 ? (int) (WINDOW * 1_000 / h.config().tickMs()) : WINDOW);
        return h.drive(detector, quiet + ticks, i -> i <= quiet ? h.tick(i).everyPort() : tick.apply(i));
    }

    /** Undeclared traffic is the sender's; the NIC it lands on is its victim. */
    @Test
    void shouldBlameTheNicSendingTrafficNoJobExplainsAndCallWhereItLandsASymptom() {
        final HandTicks.Run perTick = afterQuiet(hand, detector, WINDOW, i -> flow(i, 5e9));

        assertThat(perTick.upTo(QUIET)).isEmpty();
        assertThat(perTick.last()).hasSize(2);
        assertThat(perTick.last()).filteredOn(Finding::rootCandidate).singleElement().satisfies(f -> {
            assertFinding(f, Finding.root(FaultType.UNEXPECTED_TRAFFIC, Entity.port(SOURCE), "tx_excess_share", 0.4, 0,
                Severity.WARNING, null));
            assertThat(f.summary()).isEqualTo("host-0 nic0 sends 40% of line rate more than the declared jobs and its "
                + "usual undeclared traffic explain");
        });
        assertThat(perTick.last()).filteredOn(f -> !f.rootCandidate()).singleElement().satisfies(f -> {
            assertFinding(f, Finding.symptom(FaultType.UNEXPECTED_TRAFFIC, Entity.port(SINK), Entity.port(SOURCE),
                "rx_excess_share", 0.4, 0, null));
            assertThat(f.summary()).isEqualTo("host-2 nic0 receives 40% of line rate more than the declared jobs and its "
                + "usual undeclared traffic explain, from host-0");
        });
    }

    /**
     * Traffic no job declares (storage, inference, test traffic) that runs from the start is the fabric's
     * normal; the same NIC sending 40 % of line rate more than that later is found, by the excess over its usual.
     */
    @Test
    void shouldTakeUndeclaredTrafficFromTheStartForItsNormalAndFindARiseAboveIt() {
        final int usual = 3 * QUIET;
        final HandTicks.Run perTick = hand.drive(detector, usual + WINDOW, i -> flow(i, i <= usual ? 5e9 : 1e10));

        assertThat(perTick.upTo(usual)).as("40 %% of line rate from the start, which no job declares").isEmpty();
        assertThat(perTick.last()).filteredOn(Finding::rootCandidate).singleElement().satisfies(f -> {
            assertThat(f.entity()).isEqualTo(Entity.port(SOURCE));
            assertThat(f.observed()).isCloseTo(0.4, within(1e-6)); // the background is learned as a float
        });
    }

    @Test
    void shouldJudgeNothingBeforeThePortHasLearnedItsBackground() {
        assertThat(hand.drive(detector, QUIET - 1, i -> flow(i, 1e10)).all()).isEmpty();
    }

    @Test
    void shouldFindNothingWhenTheTwinExpectsTheTraffic() {
        final HandTicks.Run perTick = hand.drive(detector, 2 * WINDOW, i -> hand.tick(i).everyPort()
            .port("host-0", "nic0").matching(CounterNames.TX_BYTES, 5e9)
            .port("host-2", "nic0").matching(CounterNames.RX_BYTES, 5e9));

        assertThat(perTick.all()).isEmpty();
    }

    @Test
    void shouldMakeTheReceiverTheRootWhenNoNicIsSeenSendingIt() {
        assertThat(sink(5e9, 0).last()).singleElement().satisfies(f -> {
            assertThat(f.entity()).isEqualTo(Entity.port(SINK));
            assertThat(f.rootCandidate()).isTrue();
            assertThat(f.metric()).isEqualTo("rx_excess_share");
            assertThat(f.summary()).doesNotContain("from");
        });
    }

    @Test
    void shouldReportAnExcessOfTwentyPercentOfLineRateButNotJustUnder() {
        assertThat(sink(2.5e9, 0).last()).singleElement()
            .satisfies(f -> assertThat(f.observed()).isEqualTo(CAL.unexpectedTraffic().excessShare()));
        assertThat(sink(2.5e9 - 1, 0).all()).isEmpty();
    }

    @Test
    void shouldNeedObservedAtLeastOneAndAHalfTimesTheTwins() {
        // 4e9 a tick beyond the twin's 8e9 is 32% of line rate, but a busy job's own noise below 1.5× the twin's
        assertThat(sink(1.19e10, 8e9).all()).isEmpty();
        assertThat(sink(1.2e10, 8e9).last()).singleElement()
            .satisfies(f -> assertThat(f.observed()).isCloseTo(0.32, within(1e-12)));
    }

    @Test
    void shouldPointEveryReceiverAtTheNicSendingTheMost() {
        final HandTicks.Run perTick = afterQuiet(hand, detector, WINDOW, i -> hand.tick(i).everyPort()
            .port("host-0", "nic0").observed(CounterNames.TX_BYTES, 5e9)
            .port("host-1", "nic0").observed(CounterNames.TX_BYTES, 4e9)
            .port("host-2", "nic0").observed(CounterNames.RX_BYTES, 9e9));

        assertThat(perTick.last()).filteredOn(Finding::rootCandidate).extracting(f -> f.entity().key(), Finding::observed)
            .containsExactlyInAnyOrder(tuple("port:host-0/nic0", 0.4), tuple("port:host-1/nic0", 0.32));
        assertThat(perTick.last()).filteredOn(f -> !f.rootCandidate()).singleElement()
            .satisfies(f -> assertThat(f.cause()).isEqualTo(Entity.port(SOURCE)));
    }

    @Test
    void shouldStartTheWindowOverAfterAResetOrAGap() {
        // the flow's first tick comes with a reset (or a gap): the window holds it only from the next tick on
        final HandTicks.Run reset = afterQuiet(hand, detector, 1 + WINDOW,
            i -> i == QUIET + 1 ? flow(i, 5e9).port("host-2", "nic0").reset().port("host-0", "nic0").reset() : flow(i, 5e9));
        final HandTicks.Run gap = afterQuiet(hand, new UnexpectedTrafficDetector(), 1 + WINDOW,
            i -> i == QUIET + 1 ? flow(i, 5e9).port("host-2", "nic0").gap().port("host-0", "nic0").gap() : flow(i, 5e9));

        for (final HandTicks.Run perTick : List.of(reset, gap)) {
            assertThat(perTick.upTo(QUIET + WINDOW)).isEmpty();
            assertThat(perTick.last()).hasSize(2);
        }
    }

    @Test
    void shouldIgnoreSwitchPorts() {
        final HandTicks.Run perTick = hand.drive(detector, 2 * WINDOW, i -> hand.tick(i).everyPort()
            .port("leaf-0", "eth0").observed(CounterNames.TX_BYTES, 5e9)
            .port("spine-0", "eth1").observed(CounterNames.RX_BYTES, 5e9));

        assertThat(perTick.all()).isEmpty();
    }

    @Test
    void shouldSpanFiveSecondsOfTicksWhenTicksAreFaster() {
        final HandTicks fast = hand.withTickMs(100);
        final int quiet = quiet(50);
        final HandTicks.Run perTick = afterQuiet(fast, detector, 50, i -> fast.tick(i)
            .port("host-2", "nic0").observed(CounterNames.RX_BYTES, 5e8));

        // 40 % of line rate averages the 20 % that is unexpected over the 5 s window after 2.5 s
        assertThat(perTick.upTo(quiet + 24)).isEmpty();
        assertThat(perTick.upTo(quiet + 25)).isNotEmpty();
        assertThat(perTick.last()).singleElement().satisfies(f -> assertThat(f.observed()).isCloseTo(0.4, within(1e-9)));
    }

    @Test
    void shouldCallAnExcessUnexpectedOnlyPastItsShareOfLineRateAndItsFactorOverTheTwin() {
        final DetectionCalibration.UnexpectedTraffic cal = CAL.unexpectedTraffic();

        assertThat(UnexpectedTrafficDetector.excess(25, 5, 100, cal)).hasValue(0.2);
        assertThat(UnexpectedTrafficDetector.excess(24.9, 5, 100, cal)).isEmpty();
        assertThat(UnexpectedTrafficDetector.excess(74, 50, 100, cal)).as("20 % of line but under 1.5x").isEmpty();
        assertThat(UnexpectedTrafficDetector.excess(75, 50, 100, cal)).hasValue(0.25);
        assertThat(UnexpectedTrafficDetector.excess(25, 5, 0, cal)).isEmpty();
    }

    private static final double LINE_PER_MINUTE = HandTicks.LINE_BYTES_PER_S * 60;
    private static final int DAY = 1_440;
    /** The analysis starts at noon of the first day, while the day's traffic runs: it is the fabric's normal. */
    private static final int NOON = 720;
    /** Minute ticks: a window is 5 minutes, a day 1,440 ticks; tick {@code i} ends {@code i} minutes past midnight. */
    private final HandTicks minutes = hand.withTickMs(60_000);

    /** host-0 sends undeclared traffic to host-2 twice as high by day (07:00–19:00) as by night: 50 % and 25 %. */
    private static double rhythm(final int minute) {
        final int ofDay = Math.floorMod(minute - 1, DAY);
        return ofDay >= 7 * 60 && ofDay < 19 * 60 ? 0.5 : 0.25;
    }

    /** As {@link #rhythm}, but rising over two hours from 06:00: the recent windows follow it and learn the day. */
    private static double rampingRhythm(final int minute) {
        final int ofDay = Math.floorMod(minute - 1, DAY);
        return ofDay >= 6 * 60 && ofDay < 8 * 60 ? 0.25 + 0.25 * (ofDay - 6 * 60) / 120.0 : rhythm(minute);
    }

    /** {@code days} of minute ticks from noon, host-0 sending {@code share.applyAsDouble(minute)} of line rate. */
    private HandTicks.Run days(final UnexpectedTrafficDetector detector, final double days,
                               final IntToDoubleFunction share) {
        return days(detector, NOON, days, share);
    }

    /** As above, from the minute after {@code from}. */
    private HandTicks.Run days(final UnexpectedTrafficDetector detector, final int from, final double days,
                               final IntToDoubleFunction share) {
        return minutes.drive(detector, (int) (days * DAY),
            i -> minuteFlow(from + i, share.applyAsDouble(from + i) * LINE_PER_MINUTE));
    }

    private HandTicks.TickBuilder minuteFlow(final int minute, final double bytes) {
        return minutes.tick(minute).everyPort()
            .port("host-0", "nic0").observed(CounterNames.TX_BYTES, bytes)
            .port("host-2", "nic0").observed(CounterNames.RX_BYTES, bytes);
    }

    /**
     * Undeclared traffic twice as high by day as by night is the port's normal at each time of day. Judged by
     * its recent windows only, the morning's rise over the night's level was unexpected every morning.
     */
    @Test
    void shouldLearnADailyRhythmAndRaiseNothingAtTheMorningsRise() {
        final HandTicks.Run perTick = days(detector, 3.5, UnexpectedTrafficDetectorTest::rhythm);

        assertThat(perTick.all()).isEmpty();
    }

    /**
     * A source adding 24 % of line rate at night, from the evening's fall on: 49 %, under the day's 50 %. Judged by its
     * recent windows (the day's, learned as the morning rose), it hid all night; judged by the night's hours it is found
     * once the slack around the evening's hours has passed, and all night.
     */
    @Test
    void shouldFindANightSourceThatStaysUnderTheDaysLevel() {
        final int evening = 2 * DAY + 19 * 60; // the third evening: every hour of day learned
        final HandTicks.Run perTick = days(detector, 3, m -> rampingRhythm(m) + (m > evening ? 0.24 : 0));
        final int at = evening - NOON; // the drive's tick of that minute

        assertThat(perTick.upTo(at)).isEmpty();
        for (int tick = at + 90; tick <= at + 11 * 60 - 30; tick++) { // 20:30 to 05:30
            assertThat(perTick.tick(tick)).as("tick %d", tick).filteredOn(Finding::rootCandidate).singleElement()
                .satisfies(f -> {
                    assertThat(f.entity()).isEqualTo(Entity.port(SOURCE));
                    assertThat(f.observed()).isCloseTo(0.24, within(1e-3));
                });
        }
    }

    /** A port whose background swings less than the rhythm's share is judged by its recent windows, as before hours. */
    @Test
    void shouldJudgeAFlatBackgroundByItsRecentWindowsAsBefore() {
        final int rise = 2 * DAY + 10 * 60; // a source of 30 % of line rate from the third morning
        final HandTicks.Run perTick = days(detector, 2.5,
            m -> 0.3 + 0.04 * Math.sin(2 * Math.PI * m / DAY) + (m > rise ? 0.3 : 0));
        final int at = rise - NOON;

        assertThat(perTick.upTo(at + 3)).as("under 20 %% of line rate over the window until its 4th minute").isEmpty();
        // 4 of the window's 5 minutes carry 30 % beyond a background of 30 % and a little
        assertThat(perTick.tick(at + 4)).filteredOn(Finding::rootCandidate).singleElement()
            .satisfies(f -> assertThat(f.observed()).isCloseTo(0.24, within(0.03)));
    }

    /** An upgrade takes the hours of day back with the recent windows: the morning after, the rise is still normal. */
    @Test
    void shouldTakeItsHoursOfDayBackFromTheCheckpointsLearnedSection() throws IOException {
        days(detector, 1.5, UnexpectedTrafficDetectorTest::rhythm); // to the second midnight
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        detector.writeLearned(new DataOutputStream(bytes));
        final UnexpectedTrafficDetector upgraded = new UnexpectedTrafficDetector();

        assertThat(upgraded.readLearned(new DataInputStream(
            new ByteArrayInputStream(bytes.toByteArray())), upgraded.learnedVersion())).isTrue();
        assertThat(days(upgraded, 2 * DAY, 1, UnexpectedTrafficDetectorTest::rhythm).all()).isEmpty();
    }

    /** A learned section from before hours of day (version 1) gives back the recent windows; the hours are relearned. */
    @Test
    void shouldTakeBackTheRecentWindowsOfAVersionOneSection() throws IOException {
        final int ports = hand.fabric().directedLinkCount();
        final LearnedLevels recent = new LearnedLevels(2 * ports, CAL.unexpectedTraffic().backgroundWindows(),
            CAL.unexpectedTraffic().backgroundWarmUp());
        for (int i = 0; i < CAL.unexpectedTraffic().backgroundWarmUp(); i++) {
            recent.learn(2 * hand.fabric().portIndex(SOURCE) + 1, 0.4);
        }
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        LearnedLevels.writeOrNone(recent, new DataOutputStream(bytes));

        assertThat(detector.readLearned(new DataInputStream(
            new ByteArrayInputStream(bytes.toByteArray())), 1)).isTrue();
        // judged from the first full window, 40 % beyond the 40 % it had learned
        assertThat(hand.drive(detector, WINDOW, i -> hand.tick(i).everyPort()
            .port("host-0", "nic0").observed(CounterNames.TX_BYTES, 1e10)).last()).singleElement()
            .satisfies(f -> assertThat(f.observed()).isCloseTo(0.4, within(1e-6)));
    }

    /** The detector takes its numbers from the analyzer's config, not from constants of its own. */
    @Test
    void shouldJudgeByTheConfiguredCalibration() {
        final DetectionCalibration d = CAL;
        final DetectionCalibration halfOfLine = new DetectionCalibration(d.learnRing(), d.learnWarmUp(),
            d.latencyRegimes(), d.latencyFloorFactor(), d.latencySpreadMultiple(), d.latencyPersistSeconds(),
            d.latencyPeakHalfLifeSeconds(), d.ecnBandBaseBytes(), d.ecnBands(), d.ecnShareQuantile(), d.ecnNothingShare(),
            d.ecnMinExpectedMarks(), d.ecnMinLearnPackets(), d.pausedShare(), d.linkErrorTail(), d.linkErrorFactor(),
            d.linkErrorWindowSeconds(), d.linkErrorHorizonSeconds(), d.linkErrorPriorErrors(), d.linkErrorWarmUpSeconds(),
            d.silentDrop(), d.ecmp(), new DetectionCalibration.UnexpectedTraffic(WINDOW, 0.5, 1.5,
                d.unexpectedTraffic().backgroundWindows(), d.unexpectedTraffic().backgroundWarmUp(),
                d.unexpectedTraffic().backgroundQuantile(), d.unexpectedTraffic().rhythmShare(),
                d.unexpectedTraffic().rhythmSlackMinutes(), d.unexpectedTraffic().rhythmDecline()), d.ecn(), d.pfc(),
            d.straggler(), d.latencySlo(), d.jobs(), d.correlation(), d.paths(), d.linkFlap());
        final HandTicks strict = hand.withConfig(hand.config().withCalibration(halfOfLine));

        assertThat(afterQuiet(hand, new UnexpectedTrafficDetector(), WINDOW, i -> flow(i, 5e9)).last()).hasSize(2);
        assertThat(afterQuiet(strict, new UnexpectedTrafficDetector(), WINDOW, i -> strict.tick(i).everyPort()
            .port("host-0", "nic0").observed(CounterNames.TX_BYTES, 5e9)
            .port("host-2", "nic0").observed(CounterNames.RX_BYTES, 5e9)).all()).as("40 % of line is under half").isEmpty();
    }
}
