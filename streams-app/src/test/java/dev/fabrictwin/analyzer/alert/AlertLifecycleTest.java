package dev.fabrictwin.analyzer.alert;

import static dev.fabrictwin.analyzer.alert.AlertFixtures.LEAF0_IMBALANCE;
import static dev.fabrictwin.analyzer.alert.AlertFixtures.LEAF0_SPINE0;
import static dev.fabrictwin.analyzer.alert.AlertFixtures.LINK0_DOWN;
import static dev.fabrictwin.analyzer.alert.AlertFixtures.endOf;
import static dev.fabrictwin.analyzer.alert.AlertFixtures.id;
import static dev.fabrictwin.analyzer.alert.AlertFixtures.startOf;
import static dev.fabrictwin.twin.fault.FaultType.LINK_DEGRADED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;

class AlertLifecycleTest {

    /** k, m and r told apart: open after 3 ticks, update every 5, resolve after 4 clean ones. */
    private static final int OPEN_AFTER = 3;
    private static final int UPDATE_EVERY = 5;
    private static final int RESOLVE_AFTER = 4;

    private static final String DOWN_ID = "LINK_DOWN:link:leaf-0~spine-0";
    private static final String IMBALANCE_ID = "ECMP_IMBALANCE:ecmp-group:leaf-0";

    private static final Correlated DOWN_ROOT = new Correlated(DOWN_ID, LINK0_DOWN, true, null, List.of("train"));
    private static final Correlated IMBALANCE_VICTIM = new Correlated(IMBALANCE_ID, LEAF0_IMBALANCE, false, DOWN_ID,
        List.of("train"));
    private static final Correlated IMBALANCE_ROOT = new Correlated(IMBALANCE_ID, LEAF0_IMBALANCE, true, null,
        List.of("train"));

    private final Run run = new Run(new AlertLifecycle(OPEN_AFTER, UPDATE_EVERY, RESOLVE_AFTER));

    // ---- opening ----

    @Test
    void shouldOpenExactlyAfterOpenAfterConsecutiveTicksWithFirstSeenAtTheFirstTick() {
        run.skipTo(40);
        run.ticks(OPEN_AFTER - 1, DOWN_ROOT);
        assertThat(run.events()).as("before k ticks").isEmpty();
        assertThat(run.lifecycle.openRoots()).isEmpty();

        run.tick(DOWN_ROOT);

        assertThat(run.events()).containsExactly("42 OPEN " + DOWN_ID);
        assertThat(run.last()).isEqualTo(new Alert(DOWN_ID, FaultType.LINK_DOWN, Alert.State.OPEN, Severity.CRITICAL, LEAF0_SPINE0,
            true, null, startOf(40), endOf(42), LINK0_DOWN.observed(), 1.0, "link_down_metric", List.of("train"),
            "LINK_DOWN at link:leaf-0~spine-0"));
        assertThat(run.lifecycle.openRoots()).containsExactly(Map.entry(DOWN_ID, LINK0_DOWN));
    }

    @Test
    void shouldRestartTheOpeningCountAfterAGap() {
        run.ticks(OPEN_AFTER - 1, DOWN_ROOT);
        run.idle(1);
        assertThat(run.lifecycle.states()).as("a finding that never opened is forgotten").isEmpty();
        run.ticks(OPEN_AFTER - 1, DOWN_ROOT);
        assertThat(run.events()).isEmpty();

        run.tick(DOWN_ROOT);

        assertThat(run.events()).containsExactly("5 OPEN " + DOWN_ID);
        assertThat(run.last().firstSeen()).isEqualTo(startOf(3));
        assertThat(run.last().lastSeen()).isEqualTo(endOf(5));
    }

    @Test
    void shouldNeverPublishAFindingThatLastsFewerThanOpenAfterTicks() {
        run.ticks(OPEN_AFTER - 1, DOWN_ROOT);
        run.idle(RESOLVE_AFTER + 1);

        assertThat(run.events()).isEmpty();
        assertThat(run.lifecycle.states()).isEmpty();
        assertThat(run.lifecycle.openAlerts()).isEmpty();
    }

    // ---- updates ----

    @Test
    void shouldRepublishAnOpenAlertAsUpdateAtMostEveryUpdateEveryTicksWithItsLatestValues() {
        for (int tick = 0; tick <= 17; tick++) {
            final Finding f = Finding.root(LINK_DEGRADED, LEAF0_SPINE0, "link_errors/s", 100 + tick, 0,
                Severity.WARNING, "errors at tick " + tick);
            run.tick(new Correlated(id(f), f, true, null, List.of("train")));
        }

        final String degraded = "LINK_DEGRADED:link:leaf-0~spine-0";
        assertThat(run.events()).containsExactly("2 OPEN " + degraded, "7 UPDATE " + degraded,
            "12 UPDATE " + degraded, "17 UPDATE " + degraded);
        assertThat(run.published()).extracting(Alert::firstSeen, Alert::lastSeen, Alert::observed, Alert::summary)
            .containsExactly(
                tuple(startOf(0), endOf(2), 102.0, "errors at tick 2"),
                tuple(startOf(0), endOf(7), 107.0, "errors at tick 7"),
                tuple(startOf(0), endOf(12), 112.0, "errors at tick 12"),
                tuple(startOf(0), endOf(17), 117.0, "errors at tick 17"));
    }

    @Test
    void shouldPublishAnUpdateAtOnceWhenAnOpenAlertChangesBetweenVictimAndRoot() {
        run.ticks(OPEN_AFTER, DOWN_ROOT, IMBALANCE_VICTIM);
        run.tick(IMBALANCE_ROOT);
        run.tick(IMBALANCE_VICTIM);

        assertThat(run.events()).containsExactly("2 OPEN " + DOWN_ID, "2 OPEN " + IMBALANCE_ID,
            "3 UPDATE " + IMBALANCE_ID, "4 UPDATE " + IMBALANCE_ID);
        assertThat(run.published()).extracting(Alert::id, Alert::rootCause, Alert::causedBy)
            .containsExactly(
                tuple(DOWN_ID, true, null),
                tuple(IMBALANCE_ID, false, DOWN_ID),
                tuple(IMBALANCE_ID, true, null),
                tuple(IMBALANCE_ID, false, DOWN_ID));
    }

    // ---- resolving ----

    @Test
    void shouldResolveAfterExactlyResolveAfterCleanTicks() {
        run.ticks(5, DOWN_ROOT);
        run.idle(RESOLVE_AFTER - 1);
        assertThat(run.events()).containsExactly("2 OPEN " + DOWN_ID);
        assertThat(run.lifecycle.openAlerts()).extracting(Alert::id).containsExactly(DOWN_ID);

        run.idle(1);

        assertThat(run.events()).containsExactly("2 OPEN " + DOWN_ID, "8 RESOLVED " + DOWN_ID);
        assertThat(run.last()).extracting(Alert::state, Alert::rootCause, Alert::firstSeen, Alert::lastSeen)
            .containsExactly(Alert.State.RESOLVED, true, startOf(0), endOf(4));
        assertThat(run.lifecycle.openAlerts()).isEmpty();
        assertThat(run.lifecycle.openRoots()).isEmpty();
        assertThat(run.lifecycle.states()).isEmpty();
    }

    @Test
    void shouldRestartTheCleanCountWhenTheFindingReturns() {
        run.ticks(OPEN_AFTER, DOWN_ROOT);
        run.idle(RESOLVE_AFTER - 1);
        run.tick(DOWN_ROOT);
        run.idle(RESOLVE_AFTER - 1);
        assertThat(run.events()).containsExactly("2 OPEN " + DOWN_ID);

        run.idle(1);

        assertThat(run.events()).containsExactly("2 OPEN " + DOWN_ID, "10 RESOLVED " + DOWN_ID);
        assertThat(run.last().firstSeen()).isEqualTo(startOf(0));
        assertThat(run.last().lastSeen()).isEqualTo(endOf(6));
    }

    @Test
    void shouldReopenAResolvedAlertUnderTheSameIdWithAFreshFirstSeen() {
        run.ticks(OPEN_AFTER, DOWN_ROOT);
        run.idle(RESOLVE_AFTER);
        run.ticks(OPEN_AFTER, DOWN_ROOT);

        assertThat(run.events()).containsExactly("2 OPEN " + DOWN_ID, "6 RESOLVED " + DOWN_ID, "9 OPEN " + DOWN_ID);
        assertThat(run.last().firstSeen()).isEqualTo(startOf(7));
    }

    // ---- ids ----

    @Test
    void shouldNameAnAlertByItsTypeAndEntity() {
        assertThat(Alert.id(FaultType.LINK_DOWN, Entity.link("spine-0", "leaf-0")))
            .isEqualTo(Alert.id(FaultType.LINK_DOWN, Entity.link("leaf-0", "spine-0")))
            .isEqualTo("LINK_DOWN:link:leaf-0~spine-0");
        assertThat(Alert.id(FaultType.PFC_STORM, Entity.port(new PortRef("leaf-0", "eth2")))).isEqualTo("PFC_STORM:port:leaf-0/eth2");
        assertThat(Alert.id(FaultType.ECN_MISCONFIG, Entity.device("spine-1"))).isEqualTo("ECN_MISCONFIG:device:spine-1");
        assertThat(Alert.id(FaultType.ECMP_IMBALANCE, Entity.ecmpGroup("leaf-1"))).isEqualTo("ECMP_IMBALANCE:ecmp-group:leaf-1");
        assertThat(Alert.id(FaultType.JOB_BOTTLENECK, Entity.job("train"))).isEqualTo("JOB_BOTTLENECK:job:train");
    }

    @Test
    void shouldKeepOneIdFromOpenThroughUpdatesToResolved() {
        run.ticks(OPEN_AFTER + UPDATE_EVERY, DOWN_ROOT);
        run.idle(RESOLVE_AFTER);

        assertThat(run.published()).extracting(Alert::state, Alert::id).containsExactly(
            tuple(Alert.State.OPEN, DOWN_ID), tuple(Alert.State.UPDATE, DOWN_ID), tuple(Alert.State.RESOLVED, DOWN_ID));
    }

    // ---- victims ----

    @Test
    void shouldOpenAVictimOnlyOnceItsCauseIsOpen() {
        run.ticks(5, IMBALANCE_VICTIM);
        assertThat(run.events()).as("cause not open").isEmpty();

        run.ticks(OPEN_AFTER, DOWN_ROOT, IMBALANCE_VICTIM);

        assertThat(run.events()).containsExactly("7 OPEN " + DOWN_ID, "7 OPEN " + IMBALANCE_ID);
        assertThat(run.published()).extracting(Alert::id, Alert::rootCause, Alert::causedBy, Alert::firstSeen)
            .containsExactly(
                tuple(DOWN_ID, true, null, startOf(5)),
                tuple(IMBALANCE_ID, false, DOWN_ID, startOf(0)));
        assertThat(run.lifecycle.openRoots()).containsOnlyKeys(DOWN_ID);
        assertThat(run.lifecycle.openAlerts()).extracting(Alert::id).containsExactlyInAnyOrder(DOWN_ID, IMBALANCE_ID);
    }

    @Test
    void shouldResolveARootAndItsVictimTogetherWhenTheFaultClears() {
        final Run analyzed = Run.analyzing(AnalyzerConfig.defaults(1_000)); // k = 2, m = 10, r = 3

        analyzed.analyzeTicks(5, LEAF0_IMBALANCE, LINK0_DOWN);
        analyzed.analyzeTicks(3);

        assertThat(analyzed.events()).containsExactly("1 OPEN " + DOWN_ID, "1 OPEN " + IMBALANCE_ID,
            "7 RESOLVED " + DOWN_ID, "7 RESOLVED " + IMBALANCE_ID);
        assertThat(analyzed.published()).extracting(Alert::rootCause, Alert::causedBy, Alert::firstSeen,
                Alert::lastSeen)
            .containsExactly(
                tuple(true, null, startOf(0), endOf(1)),
                tuple(false, DOWN_ID, startOf(0), endOf(1)),
                tuple(true, null, startOf(0), endOf(4)),
                tuple(false, DOWN_ID, startOf(0), endOf(4)));
        assertThat(analyzed.lifecycle.states()).isEmpty();
    }

    @Test
    void shouldTurnAnOpenVictimIntoARootOnceItsCauseHasResolved() {
        final Run analyzed = Run.analyzing(AnalyzerConfig.defaults(1_000)); // k = 2, m = 10, r = 3

        analyzed.analyzeTicks(5, LEAF0_IMBALANCE, LINK0_DOWN);
        analyzed.analyzeTicks(5, LEAF0_IMBALANCE);
        analyzed.analyzeTicks(3);

        assertThat(analyzed.events()).containsExactly("1 OPEN " + DOWN_ID, "1 OPEN " + IMBALANCE_ID,
            "7 RESOLVED " + DOWN_ID, "8 UPDATE " + IMBALANCE_ID, "12 RESOLVED " + IMBALANCE_ID);
        assertThat(analyzed.published().subList(3, 5)).extracting(Alert::rootCause, Alert::causedBy,
                Alert::firstSeen, Alert::lastSeen)
            .containsExactly(tuple(true, null, startOf(0), endOf(8)), tuple(true, null, startOf(0), endOf(9)));
    }

    /** Ticks one after another through a lifecycle (optionally behind the correlator); logs what it publishes. */
    private static final class Run {

        private final AlertLifecycle lifecycle;
        private final Correlator correlator = AlertFixtures.correlator();
        private final List<Alert> published = new ArrayList<>();
        private final List<String> events = new ArrayList<>();
        private long tick;

        Run(final AlertLifecycle lifecycle) {
            this.lifecycle = lifecycle;
        }

        /** The lifecycle behind the correlator, as {@code FabricAnalyzer} drives them. */
        static Run analyzing(final AnalyzerConfig config) {
            return new Run(new AlertLifecycle(config.openAfterTicks(), config.updateEveryTicks(),
                config.resolveAfterTicks()));
        }

        void skipTo(final long next) {
            tick = next;
        }

        /** One tick with already correlated findings. */
        void tick(final Correlated... findings) {
            final List<Alert> out = lifecycle.onTick(tick, startOf(tick), endOf(tick), List.of(findings));
            out.forEach(a -> events.add(tick + " " + a.state() + " " + a.id()));
            published.addAll(out);
            tick++;
        }

        void ticks(final int count, final Correlated... findings) {
            for (int i = 0; i < count; i++) {
                tick(findings);
            }
        }

        void idle(final int count) {
            ticks(count);
        }

        /** Ticks with raw findings, correlated against the lifecycle's open roots first. */
        void analyzeTicks(final int count, final Finding... findings) {
            for (int i = 0; i < count; i++) {
                tick(correlator.correlate(List.of(findings), lifecycle.openRoots()).toArray(Correlated[]::new));
            }
        }

        List<String> events() {
            return events;
        }

        List<Alert> published() {
            return published;
        }

        Alert last() {
            return published.get(published.size() - 1);
        }
    }
}
