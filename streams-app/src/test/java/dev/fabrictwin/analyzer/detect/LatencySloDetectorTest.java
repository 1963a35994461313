package dev.fabrictwin.analyzer.detect;

import static dev.fabrictwin.analyzer.tick.HandTicks.assertFinding;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.LongFunction;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.tick.HandTicks;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;

class LatencySloDetectorTest {

    private static final PortRef UPLINK = new PortRef("leaf-0", "eth2");
    private static final DetectionCalibration CAL = DetectionCalibration.defaults();
    /** Healthy ticks before a port judges its P99. */
    private static final int WARM_UP = CAL.learnWarmUp();

    /** Ticks a departure must hold (1 s ticks). */
    private static final int PERSIST = (int) CAL.latencyPersistSeconds();

    private final HandTicks hand = HandTicks.on(HandTicks.spineLeaf(2));
    private final LatencySloDetector detector = new LatencySloDetector();

    /** leaf-0/eth2 (towards spine-0) reports this P99 while the twin expects {@code expectedUs}. */
    private HandTicks.TickBuilder latency(final long index, final double p99Us, final double expectedUs) {
        return hand.tick(index).port("leaf-0", "eth2")
            .gauge(CounterNames.LATENCY_P99_US, p99Us).expectedGauge(CounterNames.LATENCY_P99_US, expectedUs);
    }

    /** Ticks 1..WARM_UP at a steady {@code p99Us} (± 1 %, alternating): the port learns its level. */
    private void learn(final double p99Us) {
        for (int i = 1; i <= WARM_UP; i++) {
            assertThat(latency(i, p99Us * (i % 2 == 0 ? 1.01 : 0.99), 1.5).detect(detector)).isEmpty();
        }
    }

    /** Ticks 1..WARM_UP at a steady {@code p99Us} on host-0's NIC. */
    private void learnNic(final double p99Us) {
        for (int i = 1; i <= WARM_UP; i++) {
            hand.tick(i).port("host-0", "nic0").gauge(CounterNames.LATENCY_P99_US, p99Us).detect(detector);
        }
    }

    /** Ticks {@code from..from + PERSIST - 1} built by {@code tick}: nothing before the last, whose findings it returns. */
    private List<Finding> persistently(final long from, final LongFunction<HandTicks.TickBuilder> tick) {
        for (long i = from; i < from + PERSIST - 1; i++) {
            assertThat(tick.apply(i).detect(detector)).as("tick %d, before the departure has held", i).isEmpty();
        }
        return tick.apply(from + PERSIST - 1).detect(detector);
    }

    @Test
    void shouldWaitUntilADepartureHasHeldItsSeconds() {
        learn(1.4);
        assertThat(persistently(WARM_UP + 1, i -> latency(i, 2_090, 1.5))).hasSize(1);
        // one tick back at its level breaks the streak
        assertThat(latency(WARM_UP + PERSIST + 1, 1.4, 1.5).detect(detector)).isEmpty();
        assertThat(latency(WARM_UP + PERSIST + 2, 2_090, 1.5).detect(detector)).isEmpty();
    }

    @Test
    void shouldStaySilentBeforeThePortHasLearnedItsLevel() {
        for (int i = 1; i < WARM_UP; i++) {
            assertThat(latency(i, 1.5, 1.5).detect(detector)).isEmpty();
        }
        assertThat(latency(WARM_UP, 5_000, 1.5).detect(detector)).isEmpty();
    }

    @Test
    void shouldReportADepartureFromThePortsOwnLevelAsARootCause() {
        learn(1.4);
        final List<Finding> out = persistently(WARM_UP + 1, i -> latency(i, 2_090, 1.5));

        assertThat(out).singleElement().satisfies(f -> {
            assertThat(f.rootCandidate()).isTrue();
            assertThat(f.entity()).isEqualTo(Entity.port(UPLINK));
            assertThat(f.observed()).isEqualTo(2_090);
            assertThat(f.expected()).isCloseTo(1.4 * 1.01, Assertions.within(1e-6));
            assertThat(f.summary()).contains("leaf-0 eth2", "2090.0 µs", "learned 1.4 µs").doesNotContain("queueing");
        });
    }

    @Test
    void shouldAcceptAHighLevelThePortAlwaysHad() {
        // an all-to-all's NIC sits at ~500 µs at a few % of line rate: its normal, not a fault
        learn(500);
        for (int i = WARM_UP + 1; i <= 3 * WARM_UP; i++) {
            assertThat(latency(i, 500 * (i % 2 == 0 ? 1.02 : 0.98), 1.5).detect(detector)).isEmpty();
        }
    }

    @Test
    void shouldNeedTheFloorFactorOverTheLearnedLevel() {
        learn(100);
        assertThat(LatencySloDetector.departs(levelsOf(100), 0, 2.9 * 101, CAL)).isFalse();
        assertThat(LatencySloDetector.departs(levelsOf(100), 0, 3.1 * 101, CAL)).isTrue();
        assertThat(persistently(WARM_UP + 1, i -> latency(i, 400, 1.5))).hasSize(1);
        assertThat(persistently(WARM_UP + 1 + PERSIST, i -> latency(i, 250, 1.5))).isEmpty();
    }

    @Test
    void shouldNeedTheSpreadMultipleOverAPortWhoseTailSwings() {
        // healthy 2..16 µs: 90th percentile 15, spread 15 - 3 = 12: the bar is 15 + 3 × 12 = 51 µs, not 3 × 15
        final LearnedLevels swinging = new LearnedLevels(1, 16, 16);
        for (int i = 0; i < 16; i++) {
            swinging.learn(0, 2 + i * 14.0 / 15);
        }
        final double high = swinging.quantile(0, 0.9);
        final double bar = high + CAL.latencySpreadMultiple() * (high - swinging.quantile(0, 0.1));
        assertThat(bar).isGreaterThan(CAL.latencyFloorFactor() * high);
        assertThat(LatencySloDetector.departs(swinging, 0, bar - 0.01, CAL)).isFalse();
        assertThat(LatencySloDetector.departs(swinging, 0, bar + 0.01, CAL)).isTrue();
    }

    @Test
    void shouldNotJudgeATrafficRegimeThePortNeverShowedHealthy() {
        learn(1.4);
        // the same port now sends at 60 % of line rate (a job started): a regime it has not learned
        assertThat(persistently(WARM_UP + 1, i -> latency(i, 500, 1.5)
            .observed(CounterNames.TX_BYTES, 0.6 * HandTicks.LINE_BYTES_PER_S))).isEmpty();
    }

    /** leaf-0/eth2's own device, or spine-0 across its link. */
    @ParameterizedTest
    @ValueSource(strings = {"leaf-0", "spine-0"})
    void shouldNotLearnWhileAnOpenAlertCoversThePortsDeviceOrItsPeer(final String covered) {
        hand.covering(covered);
        for (int i = 1; i <= WARM_UP; i++) {
            latency(i, 1.4, 1.5).detect(detector);
        }
        assertThat(persistently(WARM_UP + 1, i -> latency(i, 2_000, 1.5))).isEmpty();
    }

    @Test
    void shouldLearnWhileAnAlertElsewhereIsOpen() {
        // faults back to back elsewhere must not starve a port: it learns from what no alert covers
        hand.covering("leaf-1", "host-3");
        learn(1.4);
        assertThat(persistently(WARM_UP + 1, i -> latency(i, 2_000, 1.5))).singleElement().satisfies(f -> {
            assertThat(f.rootCandidate()).isTrue();
            assertThat(f.entity()).isEqualTo(Entity.port(UPLINK));
        });
    }

    @Test
    void shouldAcceptALevelThePortShowedHealthyBeforeInTheSameRegime() {
        // a bursty phase of the port's traffic (P99 ~300 µs), then a smooth one long enough to fill the ring (~50 µs):
        // the bursty phase coming back is the port's own normal, not a departure
        long i = 1;
        for (; i <= WARM_UP; i++) {
            assertThat(latency(i, 300 * (i % 2 == 0 ? 1.01 : 0.99), 1.5).detect(detector)).isEmpty();
        }
        for (; i <= 4L * WARM_UP; i++) {
            assertThat(latency(i, 50 * (i % 2 == 0 ? 1.01 : 0.99), 1.5).detect(detector)).isEmpty();
        }
        assertThat(persistently(i, t -> latency(t, 290, 1.5))).isEmpty();
    }

    @Test
    void shouldNotLearnADeparture() {
        learn(1.4);
        persistently(WARM_UP + 1, i -> latency(i, 2_000, 1.5));
        for (int i = WARM_UP + PERSIST; i <= 3 * WARM_UP; i++) {
            assertThat(latency(i, 2_000, 1.5).detect(detector)).as("tick %d", i).hasSize(1);
        }
    }

    @Test
    void shouldCallADepartureWithAQueueBeyondTheTwinsASymptomOfItsLinksCongestion() {
        learn(1.4);
        final List<Finding> out = persistently(WARM_UP + 1, i -> latency(i, 200, 1.5)
            .gauge(CounterNames.QUEUE_DEPTH_BYTES, CAL.pfc().queueExcessBytes() + 1));

        assertThat(out).singleElement().satisfies(f -> {
            assertThat(f.rootCandidate()).isFalse();
            assertThat(f.cause()).isEqualTo(Entity.link("leaf-0", "spine-0"));
            assertThat(f.summary()).endsWith("(queueing)");
        });
    }

    @Test
    void shouldCallANicsDepartureASymptomWhenItsSwitchQueues() {
        learnNic(347);
        // host-0's leaf queues towards spine-1 (another port of its first hop): congestion the NIC suffers
        final List<Finding> out = persistently(WARM_UP + 1, i -> hand.tick(i).port("host-0", "nic0")
            .gauge(CounterNames.LATENCY_P99_US, 1_450)
            .port("leaf-0", "eth3").gauge(CounterNames.QUEUE_DEPTH_BYTES, 2e6));

        assertThat(out).singleElement().satisfies(f -> {
            assertThat(f.entity()).isEqualTo(Entity.port(new PortRef("host-0", "nic0")));
            assertThat(f.rootCandidate()).isFalse();
        });
    }

    @Test
    void shouldCallANicsDepartureASymptomWhenCnpsTellItOfCongestionFurtherOn() {
        learnNic(7);
        // a queue on the far leaf marks host-0's packets: its own switch is calm, the CNPs say where it waits
        final List<Finding> out = persistently(WARM_UP + 1, i -> hand.tick(i).port("host-0", "nic0")
            .gauge(CounterNames.LATENCY_P99_US, 27).observed(CounterNames.CNP_HANDLED, 9_000));

        assertThat(out).singleElement().satisfies(f -> assertThat(f.rootCandidate()).isFalse());
    }

    @Test
    void shouldKeepANicsDepartureARootWithoutCnpsOrPauses() {
        learnNic(7);
        final List<Finding> out = persistently(WARM_UP + 1, i -> hand.tick(i).port("host-0", "nic0")
            .gauge(CounterNames.LATENCY_P99_US, 27).observed(CounterNames.CNP_HANDLED, 0));

        assertThat(out).singleElement().satisfies(f -> assertThat(f.rootCandidate()).isTrue());
    }

    @Test
    void shouldKeepASwitchPortsDepartureARootWhenOnlyAnotherPortOfItsSwitchQueues() {
        learn(1.4);
        final List<Finding> out = persistently(WARM_UP + 1, i -> latency(i, 2_090, 1.5)
            .port("leaf-0", "eth0").gauge(CounterNames.QUEUE_DEPTH_BYTES, 2e6));

        assertThat(out).singleElement().satisfies(f -> assertThat(f.rootCandidate()).isTrue());
    }

    @Test
    void shouldCallADepartureOnAPortThatMarksAnyPacketASymptom() {
        // a device that marks 0.07 % of its packets when it queues: far under any share threshold, still queueing
        learn(1.5);
        final List<Finding> out = persistently(WARM_UP + 1, i -> latency(i, 8, 1.5)
            .observed(CounterNames.TX_PACKETS, 721_000).observed(CounterNames.ECN_MARKED, 481));

        assertThat(out).singleElement().satisfies(f -> assertThat(f.rootCandidate()).isFalse());
    }

    @Test
    void shouldCallARiseItsOwnBufferExplainsASymptom() {
        // 100G: a 100 kB peak drains in 8 µs; twice that explains a rise from 0.66 to 3.4 µs, not one to 50 µs
        learn(0.66);
        final List<Finding> small = persistently(WARM_UP + 1, i -> latency(i, 3.4, 1.5)
            .gauge(CounterNames.BUFFER_WATERMARK_BYTES, 100_000));
        assertThat(small).singleElement().satisfies(f -> assertThat(f.rootCandidate()).isFalse());
        // (the departure goes on: the streak holds)
        final List<Finding> large = latency(WARM_UP + 1 + PERSIST, 50, 1.5)
            .gauge(CounterNames.BUFFER_WATERMARK_BYTES, 100_000).detect(detector);
        assertThat(large).singleElement().satisfies(f -> assertThat(f.rootCandidate()).isTrue());
    }

    @Test
    void shouldFindNothingWhenThePortReportsNoLatency() {
        learn(1.4);
        assertThat(hand.tick(WARM_UP + 1).everyPort().port("leaf-0", "eth2")
            .expectedGauge(CounterNames.LATENCY_P99_US, 1.5).detect(detector)).isEmpty();
    }

    /** An operator's SLO: reported whatever the port learned, over the SLO and the twin's + 5 µs + 50 %. */
    @Test
    void shouldReportAnOperatorsSloBreachFromTheFirstTick() {
        final HandTicks withSlo = hand.withConfig(hand.config().withLatencySloUs(30));
        final List<Finding> out = withSlo.tick(1).port("leaf-0", "eth2").gauge(CounterNames.LATENCY_P99_US, 40)
            .expectedGauge(CounterNames.LATENCY_P99_US, 1.5).detect(detector);

        assertThat(out).singleElement().satisfies(f -> {
            assertFinding(f, Finding.root(FaultType.LATENCY_SLO, Entity.port(UPLINK), "latency_p99_us", 40, 1.5,
                Severity.WARNING, null));
            assertThat(f.summary()).contains("40.0 µs", "30 µs SLO", "twin's 1.5 µs");
        });
        assertThat(withSlo.tick(2).port("leaf-0", "eth2").gauge(CounterNames.LATENCY_P99_US, 30)
            .expectedGauge(CounterNames.LATENCY_P99_US, 1.5).detect(detector)).isEmpty();
        // the twin expects 40 µs here: up to 40 × 1.5 + 5 = 65 µs is no finding, though over the SLO
        assertThat(withSlo.tick(3).port("leaf-0", "eth2").gauge(CounterNames.LATENCY_P99_US, 65)
            .expectedGauge(CounterNames.LATENCY_P99_US, 40).detect(detector)).isEmpty();
    }

    @Test
    void shouldReportNothingOverThirtyMicrosecondsWithoutAnSlo() {
        assertThat(hand.config().latencySlo()).isEmpty();
        assertThat(latency(1, 40, 1.5).detect(detector)).isEmpty();
    }

    private static LearnedLevels levelsOf(final double level) {
        final LearnedLevels levels = new LearnedLevels(1, 16, 16);
        for (int i = 0; i < 16; i++) {
            levels.learn(0, level * (i % 2 == 0 ? 1.01 : 0.99));
        }
        return levels;
    }
}
