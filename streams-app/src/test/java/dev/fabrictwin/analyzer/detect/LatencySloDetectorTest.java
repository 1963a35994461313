package dev.fabrictwin.analyzer.detect;

import static dev.fabrictwin.analyzer.tick.HandTicks.assertFinding;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.tick.HandTicks;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;

class LatencySloDetectorTest {

    /** {@code AnalyzerConfig.defaults}: 30 µs. */
    private static final double SLO_US = 30;

    private static final PortRef UPLINK = new PortRef("leaf-0", "eth2");

    private final HandTicks hand = HandTicks.on(HandTicks.spineLeaf(2));
    private final LatencySloDetector detector = new LatencySloDetector();

    /** leaf-0/eth2 (towards spine-0) reports this P99 while the twin expects {@code expectedUs}. */
    private HandTicks.TickBuilder latency(final long index, final double p99Us, final double expectedUs) {
        return hand.tick(index).port("leaf-0", "eth2")
            .gauge(CounterNames.LATENCY_P99_US, p99Us).expectedGauge(CounterNames.LATENCY_P99_US, expectedUs);
    }

    @Test
    void shouldReportAPortOverTheSloThatTheTwinDoesNotExplainAsARootCause() {
        final List<Finding> out = latency(1, 40, 1.5).detect(detector);

        assertThat(hand.config().latencySloUs()).isEqualTo(SLO_US);
        assertThat(out).singleElement().satisfies(f -> {
            assertFinding(f, Finding.root(FaultType.LATENCY_SLO, Entity.port(UPLINK), "latency_p99_us", 40, 1.5,
                Severity.WARNING, null));
            assertThat(f.summary()).contains("leaf-0 eth2", "40.0 µs", "30 µs SLO", "twin's 1.5 µs")
                .doesNotContain("queueing");
        });
    }

    @Test
    void shouldFindNothingWhenLatencyMatchesTheTwin() {
        assertThat(latency(1, 1.5, 1.5).detect(detector)).isEmpty();
    }

    @Test
    void shouldReportLatencyJustAboveTheSloButNotAtIt() {
        assertThat(latency(1, SLO_US, 1.5).detect(detector)).isEmpty();
        assertThat(latency(2, SLO_US + 0.01, 1.5).detect(detector)).hasSize(1);
    }

    @Test
    void shouldAllowTheTwinsLatencyPlusHalfOfItPlusFiveMicroseconds() {
        // the twin expects 40 µs here: up to 40 × 1.5 + 5 = 65 µs is no finding, though over the SLO
        assertThat(latency(1, 65, 40).detect(detector)).isEmpty();
        assertThat(latency(2, 65.01, 40).detect(detector)).singleElement()
            .satisfies(f -> assertThat(f.expected()).isEqualTo(40));
    }

    @Test
    void shouldCallLatencyFromAQueueBeyondTheTwinsASymptomOfItsLinksCongestion() {
        final List<Finding> out = latency(1, 200, 1.5)
            .gauge(CounterNames.QUEUE_DEPTH_BYTES, PfcOriginDetector.QUEUE_EXCESS_BYTES + 1)
            .detect(detector);

        assertThat(out).singleElement().satisfies(f -> {
            assertFinding(f, Finding.symptom(FaultType.LATENCY_SLO, Entity.port(UPLINK), Entity.link("leaf-0", "spine-0"),
                "latency_p99_us", 200, 1.5, null));
            assertThat(f.summary()).endsWith("(queueing)");
        });
    }

    @Test
    void shouldCallLatencyAtAPortMarkingEcnASymptom() {
        // 2,000 marks over 1e6 packets: above the 0.1% that says the egress cannot drain what it is offered
        final List<Finding> out = latency(1, 200, 1.5)
            .observed(CounterNames.TX_PACKETS, 1e6).observed(CounterNames.ECN_MARKED, 2_000)
            .detect(detector);

        assertThat(out).singleElement().satisfies(f -> {
            assertThat(f.rootCandidate()).isFalse();
            assertThat(f.cause()).isEqualTo(Entity.link("leaf-0", "spine-0"));
        });
    }

    @Test
    void shouldKeepItARootCauseWhenTheQueueIsOneTheTwinExpects() {
        final List<Finding> out = latency(1, 200, 1.5)
            .gauge(CounterNames.QUEUE_DEPTH_BYTES, 500_000).expectedGauge(CounterNames.QUEUE_DEPTH_BYTES, 500_000)
            .detect(detector);

        assertThat(out).singleElement().satisfies(f -> assertThat(f.rootCandidate()).isTrue());
    }

    @Test
    void shouldFindNothingWhenThePortReportsNoLatency() {
        assertThat(hand.tick(1).everyPort().port("leaf-0", "eth2").expectedGauge(CounterNames.LATENCY_P99_US, 1.5)
            .detect(detector)).isEmpty();
    }

    @Test
    void shouldReportEveryPortOverTheSlo() {
        final List<Finding> out = hand.tick(1).everyPort()
            .port("host-0", "nic0").gauge(CounterNames.LATENCY_P99_US, 50)
            .port("spine-1", "eth1").gauge(CounterNames.LATENCY_P99_US, 60)
            .detect(detector);

        assertThat(out).extracting(f -> f.entity().key())
            .containsExactlyInAnyOrder("port:host-0/nic0", "port:spine-1/eth1");
    }
}
