package dev.fabrictwin.analyzer.detect;

import static dev.fabrictwin.analyzer.tick.HandTicks.assertFinding;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.tick.HandTicks;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;

class LinkErrorDetectorTest {

    /** Errors in one 1 s tick of a 100G link at the floor of 1e-8 per line bit. */
    private static final double FLOOR_ERRORS = LinkErrorDetector.FLOOR_PER_BIT * HandTicks.LINK_BPS;

    private final HandTicks hand = HandTicks.on(HandTicks.spineLeaf(2));
    private final LinkErrorDetector detector = new LinkErrorDetector();

    private List<Finding> corrected(final long index, final double errors) {
        return hand.tick(index).everyPort().port("leaf-0", "eth2").observed(CounterNames.FEC_CORRECTED, errors)
            .detect(detector);
    }

    @Test
    void shouldReportADegradedLinkWhenErrorsRiseFarAboveTheFloor() {
        final List<Finding> out = corrected(1, 1e6);

        assertThat(out).singleElement().satisfies(f -> {
            assertFinding(f, Finding.root(FaultType.LINK_DEGRADED, Entity.link("leaf-0", "spine-0"), "link_errors/s",
                1e6, 0, Severity.CRITICAL, null));
            assertThat(f.summary()).contains("leaf-0—spine-0", "at leaf-0 eth2", "1.0e-05 per line bit");
        });
    }

    @Test
    void shouldFindNothingOnAHealthyTick() {
        assertThat(hand.tick(1).everyPort().port("leaf-0", "eth2").matching(CounterNames.FEC_CORRECTED, 500)
            .detect(detector)).isEmpty();
    }

    @Test
    void shouldReportErrorsJustAboveTheFloorButNotAtIt() {
        assertThat(corrected(1, FLOOR_ERRORS)).isEmpty();
        assertThat(corrected(2, FLOOR_ERRORS + 1)).hasSize(1);
    }

    @Test
    void shouldAddUpCorrectedUncorrectableAndFcsErrors() {
        final List<Finding> out = hand.tick(1).everyPort().port("spine-1", "eth1")
            .observed(CounterNames.FEC_CORRECTED, 400)
            .observed(CounterNames.FEC_UNCORRECTABLE, 300)
            .observed(CounterNames.FCS_ERRORS, 301)
            .detect(detector);

        assertThat(out).singleElement().satisfies(f -> {
            assertThat(f.entity()).isEqualTo(Entity.link("leaf-1", "spine-1"));
            assertThat(f.observed()).isEqualTo(1001);
        });
    }

    @Test
    void shouldRaiseTheLimitByWhatTheTwinExpects() {
        final double expected = 5_000;
        final List<Finding> atLimit = hand.tick(1).everyPort().port("leaf-0", "eth2")
            .observed(CounterNames.FEC_CORRECTED, expected + FLOOR_ERRORS).expected(CounterNames.FEC_CORRECTED, expected)
            .detect(detector);
        final List<Finding> above = hand.tick(2).everyPort().port("leaf-0", "eth2")
            .observed(CounterNames.FEC_CORRECTED, expected + FLOOR_ERRORS + 1)
            .expected(CounterNames.FEC_CORRECTED, expected)
            .detect(detector);

        assertThat(atLimit).isEmpty();
        assertThat(above).singleElement().satisfies(f -> {
            assertThat(f.observed()).isEqualTo(expected + FLOOR_ERRORS + 1);
            assertThat(f.expected()).isEqualTo(expected);
        });
    }

    @Test
    void shouldJudgeAPortAgainstTwentyTimesTheHealthyLevelItLearned() {
        for (int i = 1; i <= 300; i++) {
            assertThat(corrected(i, FLOOR_ERRORS)).as("healthy tick %d", i).isEmpty();
        }
        // learned ≈ (1 − 0.98^300) × 1e-8 per bit: the limit is now ≈ 19,950 errors a tick, no longer 1,000
        // (the finding first: a tick without one teaches the level)
        assertThat(corrected(301, LinkErrorDetector.FACTOR * FLOOR_ERRORS + 1)).singleElement()
            .satisfies(f -> assertThat(f.observed()).isEqualTo(20_001));
        assertThat(corrected(302, 19_900)).isEmpty();
    }

    @Test
    void shouldNotLearnTheHealthyLevelFromAFaultyTick() {
        assertThat(corrected(1, 1e9)).hasSize(1);

        assertThat(corrected(2, FLOOR_ERRORS + 1)).hasSize(1);
    }

    @Test
    void shouldReportALinkOnceWithTheWorseOfItsTwoEnds() {
        final List<Finding> out = hand.tick(1).everyPort()
            .port("leaf-0", "eth2").observed(CounterNames.FEC_CORRECTED, 2e6)
            .port("spine-0", "eth0").observed(CounterNames.FEC_CORRECTED, 5e6)
            .detect(detector);

        assertThat(out).singleElement().satisfies(f -> {
            assertThat(f.entity()).isEqualTo(Entity.link("leaf-0", "spine-0"));
            assertThat(f.observed()).isEqualTo(5e6);
            assertThat(f.summary()).contains("at spine-0 eth0");
        });
    }

    @Test
    void shouldGiveTheErrorRatePerSecondOfAnIntervalLongerThanATick() {
        final List<Finding> out = hand.tick(1).port("host-3", "nic0").observed(CounterNames.FCS_ERRORS, 1e6)
            .seconds(2).detect(detector);

        assertThat(out).singleElement().satisfies(f -> {
            assertThat(f.entity()).isEqualTo(Entity.link("host-3", "leaf-1"));
            assertThat(f.observed()).isCloseTo(5e5, within(1e-6));
        });
    }

    @Test
    void shouldSkipAnIntervalTooShortToTellAnErrorRateButJudgeOneOfABillionBits() {
        // 100G: 5 ms carry 5e8 line bits (< 1e9), 10 ms carry 1e9
        assertThat(hand.tick(1).port("leaf-0", "eth2").observed(CounterNames.FEC_CORRECTED, 1e6).seconds(0.005)
            .detect(detector)).isEmpty();
        assertThat(hand.tick(2).port("leaf-0", "eth2").observed(CounterNames.FEC_CORRECTED, 1e6).seconds(0.01)
            .detect(detector)).hasSize(1);
    }

    @Test
    void shouldSkipADownPort() {
        assertThat(hand.tick(1).port("leaf-0", "eth2").observed(CounterNames.FEC_CORRECTED, 1e6).down()
            .detect(detector)).isEmpty();
    }

    @Test
    void shouldSkipAPortWithAResetOrAGap() {
        assertThat(hand.tick(1).port("leaf-0", "eth2").observed(CounterNames.FEC_CORRECTED, 1e6).reset()
            .detect(detector)).isEmpty();
        assertThat(hand.tick(2).port("leaf-0", "eth2").observed(CounterNames.FEC_CORRECTED, 1e6).gap()
            .detect(detector)).isEmpty();
    }
}
