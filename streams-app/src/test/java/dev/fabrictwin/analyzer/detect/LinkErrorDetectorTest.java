package dev.fabrictwin.analyzer.detect;

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
import dev.fabrictwin.twin.model.CounterNames;

class LinkErrorDetectorTest {

    private static final DetectionCalibration CAL = DetectionCalibration.defaults();

    private final HandTicks hand = HandTicks.on(HandTicks.spineLeaf(2));
    private final LinkErrorDetector detector = new LinkErrorDetector();

    private List<Finding> errors(final long index, final String counter, final double count) {
        return hand.tick(index).everyPort().port("leaf-0", "eth2").observed(counter, count).detect(detector);
    }

    /** Ticks 1..n in which leaf-0/eth2 counts no error. */
    private void quiet(final int n) {
        for (int i = 1; i <= n; i++) {
            assertThat(errors(i, CounterNames.FCS_ERRORS, 0)).isEmpty();
        }
    }

    @Test
    void shouldReportALinkThatGoesFromNoErrorsToAFewFcsErrorsASecond() {
        // a BER of ~1e-11: far under any per-bit floor, yet a link that never erred now errs every second
        quiet(120);
        assertThat(errors(121, CounterNames.FCS_ERRORS, 6)).singleElement().satisfies(f -> {
            assertThat(f.type()).isEqualTo(FaultType.LINK_DEGRADED);
            assertThat(f.entity()).isEqualTo(Entity.link("leaf-0", "spine-0"));
            assertThat(f.rootCandidate()).isTrue();
            assertThat(f.severity()).isEqualTo(Severity.CRITICAL);
            assertThat(f.summary()).contains("leaf-0—spine-0", "at leaf-0 eth2");
        });
    }

    @Test
    void shouldJudgeNothingBeforeThePortHasLearnedItsWarmUpSeconds() {
        quiet((int) CAL.linkErrorWarmUpSeconds() - 1);
        assertThat(errors((long) CAL.linkErrorWarmUpSeconds(), CounterNames.FCS_ERRORS, 1e6)).isEmpty();
    }

    @Test
    void shouldAddErrorsUpOverTheWindowSoSlowRatesAtFastPollsShow() {
        final HandTicks fast = hand.withTickMs(100);
        final LinkErrorDetector d = new LinkErrorDetector();
        for (int i = 1; i <= 400; i++) {
            fast.tick(i).everyPort().detect(d);
        }
        // 7.4 errors a second at 100 ms polls: 0 or 1 a tick, found once the 5 s window holds enough of them
        boolean found = false;
        for (int i = 401; i <= 450 && !found; i++) {
            found = !fast.tick(i).everyPort().port("leaf-0", "eth2").seconds(0.1)
                .observed(CounterNames.FCS_ERRORS, i % 4 == 0 ? 2 : 1).detect(d).isEmpty();
        }
        assertThat(found).isTrue();
    }

    @Test
    void shouldAcceptTheRateAPortAlwaysHad() {
        // a link that always corrects ~5,000 codewords a second: its normal, whatever its BER
        for (int i = 1; i <= 300; i++) {
            assertThat(errors(i, CounterNames.FEC_CORRECTED, i % 2 == 0 ? 4_000 : 6_000)).as("tick %d", i).isEmpty();
        }
        assertThat(errors(301, CounterNames.FEC_CORRECTED, 9_000)).isEmpty();
        assertThat(errors(302, CounterNames.FEC_CORRECTED, 1e6)).hasSize(1);
    }

    @Test
    void shouldNeedTheTailProbabilityAndTheFactor() {
        // the factor alone: 11 errors where 1 is expected is 11× but not improbable enough (P ≈ 1e-8)
        assertThat(LinkErrorDetector.departs(11, 1, CAL)).isFalse();
        assertThat(LinkErrorDetector.departs(14, 1, CAL)).isTrue();
        // improbability alone: 1.2 × a large mean is far in a Poisson tail but under the factor
        assertThat(LinkErrorDetector.departs(1.2e6, 1e6, CAL)).isFalse();
        assertThat(LinkErrorDetector.departs(0, 0, CAL)).isFalse();
    }

    @Test
    void shouldLearnTheRateFromHealthySecondsWithOnePseudoError() {
        assertThat(LinkErrorDetector.learnedRate(0, 100, CAL)).isCloseTo(0.01, within(1e-12));
        assertThat(LinkErrorDetector.learnedRate(9, 100, CAL)).isCloseTo(0.1, within(1e-12));
        assertThat(LinkErrorDetector.learnedRate(0, 0, CAL)).isCloseTo(1 / CAL.linkErrorWindowSeconds(), within(1e-12));
    }

    @Test
    void shouldNotLearnTheRateWhileARootCauseIsOpen() {
        quiet(60);
        final int port = hand.fabric().portIndex(new PortRef("leaf-0", "eth2"));
        hand.calm(false);
        for (int i = 61; i <= 160; i++) {
            assertThat(errors(i, CounterNames.FCS_ERRORS, 1)).isEmpty(); // plausible, but not learned
        }
        assertThat(detector.learnedRate(port, CAL)).isCloseTo(1 / 60.0, within(1e-6));
        hand.calm(true);
        errors(161, CounterNames.FCS_ERRORS, 1);
        assertThat(detector.learnedRate(port, CAL)).isCloseTo(2 / 61.0, within(1e-6));
    }

    @Test
    void shouldNotLearnFromADeparture() {
        quiet(60);
        for (int i = 61; i <= 200; i++) {
            assertThat(errors(i, CounterNames.FCS_ERRORS, 50)).as("tick %d", i).hasSize(1);
        }
    }

    @Test
    void shouldAddUpCorrectedUncorrectableAndFcsErrors() {
        quiet(60);
        final List<Finding> out = hand.tick(61).everyPort().port("spine-1", "eth1")
            .observed(CounterNames.FEC_CORRECTED, 400)
            .observed(CounterNames.FEC_UNCORRECTABLE, 300)
            .observed(CounterNames.FCS_ERRORS, 301)
            .detect(detector);

        assertThat(out).singleElement().satisfies(f -> {
            assertThat(f.entity()).isEqualTo(Entity.link("leaf-1", "spine-1"));
            assertThat(f.observed()).isCloseTo(1001, within(1e-6)); // errors per second of the window so far
        });
    }

    @Test
    void shouldReportALinkOnceWithTheWorseOfItsTwoEnds() {
        quiet(60);
        final List<Finding> out = hand.tick(61).everyPort()
            .port("leaf-0", "eth2").observed(CounterNames.FEC_CORRECTED, 2e6)
            .port("spine-0", "eth0").observed(CounterNames.FEC_CORRECTED, 5e6)
            .detect(detector);

        assertThat(out).singleElement().satisfies(f -> {
            assertThat(f.entity()).isEqualTo(Entity.link("leaf-0", "spine-0"));
            assertThat(f.summary()).contains("at spine-0 eth0");
        });
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
