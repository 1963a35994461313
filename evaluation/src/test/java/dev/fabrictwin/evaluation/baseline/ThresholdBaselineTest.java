package dev.fabrictwin.evaluation.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.rates.PortRates;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.sim.Twin;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * The baseline on hand-built samples: a 2-spine, 2-leaf, 4-host, 100G fabric where every port moves 10 % of
 * line rate each second, and each test writes one condition into a port's counters or gauges by hand.
 */
class ThresholdBaselineTest {

    private static final long T0 = 1_735_689_600_000L;
    private static final long LINE_BYTES_PER_S = 100_000_000_000L / 8;
    private static final PortRef UPLINK = new PortRef("leaf-0", "eth2");
    private static final PortRef NIC = new PortRef("host-1", "nic0");

    private Fabric fabric;
    private final Map<PortRef, Map<String, Long>> counters = new HashMap<>();
    private final List<PortRef> extraPorts = new ArrayList<>();

    @BeforeEach
    void setUp() {
        fabric = Twin.healthy(ScenarioParser.parse(ScenarioParser.tree("""
            name: tiny
            duration: 60s
            fabric: {kind: spine-leaf, spines: 2, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
            jobs: []
            """), Path.of(".")), ModelParams.defaults()).fabric();
    }

    @FunctionalInterface
    private interface Condition {
        void apply(int t, PortRef port, Map<String, Long> counters, Map<String, Double> gauges);
    }

    /** Rounds t = 0..seconds, one sample per port per second, through {@code baseline}; returns every alert. */
    private List<Alert> run(final ThresholdBaseline baseline, final int seconds, final Condition condition) {
        final List<Alert> out = new ArrayList<>();
        final List<PortRef> ports = new ArrayList<>(fabric.ports());
        ports.addAll(extraPorts);
        for (int t = 0; t <= seconds; t++) {
            for (final PortRef p : ports) {
                out.addAll(baseline.accept(sample(t, p, condition)));
            }
        }
        return out;
    }

    private List<Alert> run(final int seconds, final Condition condition) {
        return run(new ThresholdBaseline(fabric, ThresholdRules.defaults(), 1_000), seconds, condition);
    }

    private Sample sample(final int t, final PortRef p, final Condition condition) {
        final Map<String, Long> c = counters.computeIfAbsent(p, k -> new HashMap<>(Map.of(
            // traffic counters have run long before the capture; error and pause counters too, a little
            "tx_bytes", 1_000_000_000_000L, "rx_bytes", 1_000_000_000_000L, "tx_packets", 900_000_000L,
            "rx_packets", 900_000_000L, "tx_pfc_pause.3", 1_000_000L, "rx_pfc_pause.3", 1_000_000L,
            "ecn_marked", 500_000L, "rx_drops", 10_000L, "fcs_errors", 100L, "fec_uncorrectable", 7L)));
        if (t > 0) {
            c.merge("tx_bytes", LINE_BYTES_PER_S / 10, Long::sum);
            c.merge("rx_bytes", LINE_BYTES_PER_S / 10, Long::sum);
        }
        final Map<String, Double> g = new HashMap<>(Map.of("oper_up", 1.0, "speed_bps", 100e9,
            "latency_p99_us", 4.0, "queue_depth_bytes", 0.0));
        condition.apply(t, p, c, g);
        return new Sample(T0 + t * 1_000L, p.device(), p.port(), "test", Map.copyOf(c), g);
    }

    private static long at(final int seconds) {
        return T0 + seconds * 1_000L;
    }

    private PortRef peer(final PortRef port) {
        final Link l = fabric.requireLinkAt(port);
        return l.lower().equals(port) ? l.upper() : l.lower();
    }

    private static List<Alert> inState(final List<Alert> alerts, final Alert.State state) {
        return alerts.stream().filter(a -> a.state() == state).toList();
    }

    @Test
    void shouldOpenUnexpectedTrafficOnAHotPortAfterTwoIntervalsAndResolveAfterThreeCleanOnes() {
        final List<Alert> alerts = run(12, (t, p, c, g) -> {
            if (p.equals(UPLINK) && (t == 3 || t == 4)) {
                c.merge("tx_bytes", LINE_BYTES_PER_S * 85 / 100, Long::sum); // 10 % background + 85 % = 95 %
            }
        });

        assertThat(alerts).extracting(Alert::state).containsExactly(Alert.State.OPEN, Alert.State.RESOLVED);
        final Alert open = alerts.get(0);
        assertThat(open.type()).isEqualTo(FaultType.UNEXPECTED_TRAFFIC);
        assertThat(open.entity()).isEqualTo(Entity.port(UPLINK));
        assertThat(open.id()).isEqualTo("UNEXPECTED_TRAFFIC:port:leaf-0/eth2");
        assertThat(open.metric()).isEqualTo("utilization");
        assertThat(open.observed()).isCloseTo(0.95, within(1e-6));
        assertThat(open.expected()).isEqualTo(0.90);
        assertThat(open.rootCause()).isTrue();
        assertThat(open.causedBy()).isNull();
        assertThat(open.severity()).isEqualTo(Severity.WARNING);
        assertThat(open.summary()).contains("leaf-0/eth2", "95%");
        // the opening streak is the intervals [2 s, 3 s] and [3 s, 4 s]
        assertThat(open.firstSeen()).isEqualTo(at(2));
        assertThat(open.lastSeen()).isEqualTo(at(4));
        final Alert resolved = alerts.get(1);
        assertThat(resolved.id()).isEqualTo(open.id());
        assertThat(resolved.firstSeen()).isEqualTo(at(2));
        assertThat(resolved.lastSeen()).isEqualTo(at(4));
    }

    @Test
    void shouldResolveOnTheThirdCleanIntervalNotBefore() {
        final ThresholdBaseline baseline = new ThresholdBaseline(fabric, ThresholdRules.defaults(), 1_000);
        final Condition hot = (t, p, c, g) -> {
            if (p.equals(UPLINK) && (t == 3 || t == 4)) {
                c.merge("tx_bytes", LINE_BYTES_PER_S * 85 / 100, Long::sum);
            }
        };
        // clean intervals end at 5, 6, 7 s: still open after 6 s, resolved by the sample at 7 s
        assertThat(run(baseline, 6, hot)).extracting(Alert::state).containsExactly(Alert.State.OPEN);
        assertThat(baseline.openAlertIds()).containsExactly("UNEXPECTED_TRAFFIC:port:leaf-0/eth2");
        final List<Alert> next = new ArrayList<>();
        for (final PortRef p : fabric.ports()) {
            next.addAll(baseline.accept(sample(7, p, hot)));
        }
        assertThat(next).extracting(Alert::state).containsExactly(Alert.State.RESOLVED);
        assertThat(baseline.openAlertIds()).isEmpty();
    }

    @Test
    void shouldOpenNothingForOneHotInterval() {
        final List<Alert> alerts = run(10, (t, p, c, g) -> {
            if (p.equals(UPLINK) && t == 3) {
                c.merge("tx_bytes", LINE_BYTES_PER_S * 89 / 100, Long::sum);
            }
        });

        assertThat(alerts).isEmpty();
    }

    @Test
    void shouldOpenOneLinkDownNamingTheLinksTwoDevicesWhenBothEndsReportIt() {
        final PortRef spineEnd = peer(UPLINK);
        assertThat(spineEnd.device()).isEqualTo("spine-0");
        final List<Alert> alerts = run(14, (t, p, c, g) -> {
            if ((p.equals(UPLINK) || p.equals(spineEnd)) && t >= 3 && t <= 6) {
                g.put("oper_up", 0.0);
                g.put("speed_bps", 0.0);
                c.merge("tx_bytes", -LINE_BYTES_PER_S / 10, Long::sum); // a down link moves nothing
                c.merge("rx_bytes", -LINE_BYTES_PER_S / 10, Long::sum);
            }
        });

        final List<Alert> opened = inState(alerts, Alert.State.OPEN);
        assertThat(opened).hasSize(1);
        final Alert down = opened.get(0);
        assertThat(down.type()).isEqualTo(FaultType.LINK_DOWN);
        assertThat(down.entity()).isEqualTo(Entity.link("leaf-0", "spine-0"));
        assertThat(down.entity().kind()).isEqualTo(Entity.Kind.LINK);
        assertThat(down.severity()).isEqualTo(Severity.CRITICAL);
        assertThat(down.rootCause()).isTrue();
        assertThat(down.causedBy()).isNull();
        assertThat(down.firstSeen()).isEqualTo(at(2));
        assertThat(down.observed()).isZero();
        assertThat(down.expected()).isEqualTo(1);
        // back up at 7 s (that interval is a reset: oper_up recovered); clean at 7, 8, 9 s on both ends
        assertThat(inState(alerts, Alert.State.RESOLVED)).singleElement()
            .satisfies(r -> assertThat(r.id()).isEqualTo(down.id()))
            .satisfies(r -> assertThat(r.lastSeen()).isEqualTo(at(6)));
    }

    @Test
    void shouldOpenPfcStormOnThePortSendingThePausesNotOnItsPeer() {
        final PortRef receiver = peer(NIC);
        final List<Alert> alerts = run(10, (t, p, c, g) -> {
            if (t >= 3 && t <= 8) {
                if (p.equals(NIC)) {
                    c.merge("tx_pfc_pause.3", 50_000L, Long::sum);
                } else if (p.equals(receiver)) {
                    c.merge("rx_pfc_pause.3", 50_000L, Long::sum);
                }
            }
        });

        final List<Alert> opened = inState(alerts, Alert.State.OPEN);
        assertThat(opened).singleElement().satisfies(a -> {
            assertThat(a.type()).isEqualTo(FaultType.PFC_STORM);
            assertThat(a.entity()).isEqualTo(Entity.port(NIC));
            assertThat(a.severity()).isEqualTo(Severity.CRITICAL);
            assertThat(a.metric()).isEqualTo("tx_pfc_pause/s");
            assertThat(a.observed()).isEqualTo(50_000.0);
            assertThat(a.expected()).isEqualTo(1_000.0);
            assertThat(a.firstSeen()).isEqualTo(at(2));
        });
    }

    @Test
    void shouldNotMistakeACounterResetForASpikeEvenWithARuleThatFiresOnOneInterval() {
        final ThresholdRules eager = new ThresholdRules(0.90, 1_000, 10_000, 0, 0, 30, 1, 3);
        final ThresholdBaseline baseline = new ThresholdBaseline(fabric, eager, 1_000);
        final List<Alert> alerts = run(baseline, 10, (t, p, c, g) -> {
            if (p.device().equals("leaf-1") && t == 5) {
                // leaf-1 rebooted: every counter restarted, and what it counted since boot looks huge next to 0
                c.clear();
                c.putAll(Map.of("tx_bytes", LINE_BYTES_PER_S * 99 / 100, "rx_bytes", LINE_BYTES_PER_S * 99 / 100,
                    "tx_packets", 1_000_000L, "rx_packets", 1_000_000L, "tx_pfc_pause.3", 9_000L,
                    "rx_pfc_pause.3", 0L, "ecn_marked", 90_000L, "rx_drops", 40L, "fcs_errors", 3L,
                    "fec_uncorrectable", 1L));
            }
        });

        assertThat(alerts).isEmpty();
        // the test means something only if PortRates does flag that interval as a reset
        final PortRef port = new PortRef("leaf-1", "eth2");
        counters.clear();
        final Sample before = sample(4, port, (t, p, c, g) -> { });
        final Sample after = sample(5, port, (t, p, c, g) -> c.replaceAll((k, v) -> 5L));
        assertThat(PortRates.next(before, after, 1_000).interval())
            .hasValueSatisfying(iv -> assertThat(iv.reset()).isTrue());
    }

    @Test
    void shouldStillJudgeAnUnknownPortByPortRulesButSkipItsLinkRules() {
        final PortRef stranger = new PortRef("leaf-9", "eth99");
        extraPorts.add(stranger);
        final List<Alert> alerts = run(8, (t, p, c, g) -> {
            if (p.equals(stranger) && t >= 2) {
                g.put("latency_p99_us", 55.0);
                g.put("oper_up", 0.0);
                c.merge("rx_drops", 100L, Long::sum);
            }
        });

        assertThat(inState(alerts, Alert.State.OPEN)).singleElement().satisfies(a -> {
            assertThat(a.type()).isEqualTo(FaultType.LATENCY_SLO);
            assertThat(a.entity()).isEqualTo(Entity.port(stranger));
            assertThat(a.observed()).isEqualTo(55.0);
            assertThat(a.expected()).isEqualTo(30.0);
        });
    }

    @Test
    void shouldIgnoreALateSampleAndKeepTheNewerOne() {
        final ThresholdBaseline baseline = new ThresholdBaseline(fabric, ThresholdRules.defaults(), 1_000);
        final Condition hot = (t, p, c, g) -> {
            if (t == 3 || t == 4) {
                c.merge("tx_bytes", LINE_BYTES_PER_S * 85 / 100, Long::sum);
            }
        };
        final List<Sample> inOrder = new ArrayList<>();
        for (int t = 0; t <= 4; t++) {
            inOrder.add(sample(t, NIC, hot));
        }
        final List<Alert> alerts = new ArrayList<>();
        // the 1 s sample is delivered again after the 3 s one: going back to it would read [1 s, 4 s] as one
        // lukewarm interval (67 %) and break the hot streak
        for (final Sample s : List.of(inOrder.get(0), inOrder.get(1), inOrder.get(2), inOrder.get(3), inOrder.get(1),
            inOrder.get(4))) {
            alerts.addAll(baseline.accept(s));
        }

        assertThat(alerts).singleElement().satisfies(a -> {
            assertThat(a.state()).isEqualTo(Alert.State.OPEN);
            assertThat(a.entity()).isEqualTo(Entity.port(NIC));
            assertThat(a.firstSeen()).isEqualTo(at(2));
            assertThat(a.lastSeen()).isEqualTo(at(4));
        });
    }

    @Test
    void shouldRejectThresholdsThatCannotMeanAnything() {
        assertThatThrownBy(() -> new ThresholdRules(1.5, 1_000, 10_000, 0, 0, 30, 2, 3))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxUtilization");
        assertThatThrownBy(() -> new ThresholdRules(0.9, Double.NaN, 10_000, 0, 0, 30, 2, 3))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxPfcPausesPerSec");
        assertThatThrownBy(() -> new ThresholdRules(0.9, 1_000, 10_000, -1, 0, 30, 2, 3))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxDropsPerInterval");
        assertThatThrownBy(() -> new ThresholdRules(0.9, 1_000, 10_000, 0, 0, 0, 2, 3))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("latencySloUs");
        assertThatThrownBy(() -> new ThresholdRules(0.9, 1_000, 10_000, 0, 0, 30, 0, 3))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("openAfter");
        assertThat(ThresholdRules.defaults()).isEqualTo(new ThresholdRules(0.90, 1_000, 10_000, 0, 0, 30, 2, 3));
    }
}
