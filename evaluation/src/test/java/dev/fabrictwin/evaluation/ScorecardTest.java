package dev.fabrictwin.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.contract.truth.TruthRecord;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultTarget;
import dev.fabrictwin.twin.fault.FaultType;

/** docs/contracts.md scoring, computed by hand on small runs. */
class ScorecardTest {

    private static final long S = 1_000;
    private static final TruthRecord STORM = new TruthRecord("fault-0", FaultType.PFC_STORM,
        FaultTarget.port("host-5", "nic0"), 100 * S, 200 * S, Map.of());
    private static final TruthRecord DEGRADED = new TruthRecord("fault-1", FaultType.LINK_DEGRADED,
        FaultTarget.link("leaf-2", "spine-1"), 300 * S, 400 * S, Map.of());

    private static Alert open(final FaultType type, final Entity entity, final long firstSeen, final boolean root) {
        return new Alert(Alert.id(type, entity), type, Alert.State.OPEN, Severity.CRITICAL, entity, root,
            root ? null : "x", firstSeen, firstSeen + S, 1, 0, "m", List.of(), "s");
    }

    @Test
    void shouldCountDetectionLocalizationPrecisionAndTimeToDetect() {
        final List<Alert> alerts = List.of(
            open(FaultType.PFC_STORM, Entity.port(new PortRef("host-5", "nic0")), 102 * S, true),
            // right type in the window but the wrong entity: detects (not localized) and is a false alert
            open(FaultType.LINK_DEGRADED, Entity.link("leaf-3", "spine-1"), 299 * S, true),
            // victims and impacts are never scored
            open(FaultType.PFC_STORM, Entity.port(new PortRef("leaf-1", "eth0")), 103 * S, false),
            open(FaultType.JOB_BOTTLENECK, Entity.job("llm-a"), 104 * S, true),
            // a false root alert in a healthy stretch
            open(FaultType.ECMP_IMBALANCE, Entity.ecmpGroup("leaf-0"), 600 * S, true));

        final Scorecard card = Scorecard.score(List.of(STORM, DEGRADED), alerts, S, 0, 3_600 * S);

        assertThat(card.overall().faults()).isEqualTo(2);
        assertThat(card.overall().recall()).isEqualTo(1.0);
        assertThat(card.overall().localization()).isEqualTo(0.5);
        assertThat(card.overall().precision()).isCloseTo(1 / 3.0, within(1e-9));
        assertThat(card.overall().ttdMs()).containsExactly(-1 * S, 2 * S);
        assertThat(card.overall().ttdMedianSec()).isEqualTo(-1.0);
        // healthy (no fault active): 3600 s minus [100, 200] and [300, 400] = 3400 s. The wrong-entity degraded
        // alert opens at 299 s, outside its fault's [300, 400]: a false alert in a healthy stretch too
        assertThat(card.overall().falseAlertsPerHour()).isCloseTo(2 / (3_400 / 3_600.0), within(1e-9));
        assertThat(card.byType()).containsOnlyKeys("PFC_STORM", "LINK_DEGRADED", "ECMP_IMBALANCE");
        assertThat(card.byType().get("PFC_STORM").precision()).isEqualTo(1.0);
        assertThat(card.byType().get("ECMP_IMBALANCE").recall()).isNaN();
    }

    @Test
    void shouldLetEachOfTwoConcurrentFaultsOfOneTypeBeLocalizedByItsOwnAlert() {
        final TruthRecord other = new TruthRecord("fault-9", FaultType.PFC_STORM, FaultTarget.port("host-9", "nic0"),
            100 * S, 200 * S, Map.of());
        final List<Alert> alerts = List.of(
            open(FaultType.PFC_STORM, Entity.port(new PortRef("host-9", "nic0")), 101 * S, true),
            open(FaultType.PFC_STORM, Entity.port(new PortRef("host-5", "nic0")), 104 * S, true));

        final Scorecard card = Scorecard.score(List.of(STORM, other), alerts, S, 0, 300 * S);

        assertThat(card.overall().localization()).isEqualTo(1.0);
        assertThat(card.overall().ttdMs()).containsExactly(1 * S, 4 * S);
        assertThat(card.overall().precision()).isEqualTo(1.0);
    }

    @Test
    void shouldLeavePrecisionUndefinedWhenNothingOpened() {
        final Scorecard card = Scorecard.score(List.of(STORM), List.of(), S, 0, 300 * S);

        assertThat(card.overall().recall()).isZero();
        assertThat(card.overall().precision()).isNaN();
    }

    @Test
    void shouldMissAnAlertOpeningOutsideTheWindowAndIgnoreFaultsAfterTheRun() {
        final List<Alert> alerts = List.of(
            open(FaultType.PFC_STORM, Entity.port(new PortRef("host-5", "nic0")), 204 * S, true));

        final Scorecard card = Scorecard.score(List.of(STORM, DEGRADED), alerts, S, 0, 250 * S);

        assertThat(card.overall().faults()).as("the degraded link starts after the run ended").isEqualTo(1);
        assertThat(card.overall().recall()).isZero();
        assertThat(card.overall().precision()).as("one alert opened, none true").isZero();
        assertThat(card.overall().ttdMedianSec()).isNaN();
    }

    @Test
    void shouldNotCountAnInjectedJobBottleneckAsAFaultToFind() {
        final TruthRecord capped = new TruthRecord("fault-2", FaultType.JOB_BOTTLENECK, new FaultTarget(null, null, null, "llm-a"),
            100 * S, 200 * S, Map.of());

        final Scorecard card = Scorecard.score(List.of(capped), List.of(
            open(FaultType.JOB_BOTTLENECK, Entity.job("llm-a"), 101 * S, true)), S, 0, 300 * S);

        assertThat(card.overall().faults()).isZero();
        assertThat(card.overall().alerts()).isZero();
        assertThat(card.byType()).isEmpty();
    }

    @Test
    void shouldPoolRunsAsOneLongRun() {
        final Scorecard a = Scorecard.score(List.of(STORM), List.of(
            open(FaultType.PFC_STORM, Entity.port(new PortRef("host-5", "nic0")), 102 * S, true)),
            S, 0, 3_600 * S);
        final Scorecard b = Scorecard.score(List.of(STORM), List.of(), 10 * S, 0, 3_600 * S);

        final Scorecard pooled = Scorecard.merge(List.of(a, b));

        assertThat(pooled.overall().faults()).isEqualTo(2);
        assertThat(pooled.overall().recall()).isEqualTo(0.5);
        assertThat(pooled.overall().ttdIntervals()).containsExactly(2.0);
        assertThat(pooled.byType().get("PFC_STORM").faults()).isEqualTo(2);
    }

    @Test
    void shouldNameALinkEitherWayRound() {
        assertThat(Entity.link("spine-1", "leaf-2").names(FaultTarget.link("leaf-2", "spine-1"))).isTrue();
        assertThat(Entity.device("leaf-2").names(FaultTarget.link("leaf-2", "spine-1"))).isFalse();
    }
}
