package dev.fabrictwin.analyzer.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.TickReport;
import dev.fabrictwin.analyzer.tick.HandTicks;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** The product meters on a {@link SimpleMeterRegistry}: names with units, one meter per quantity, bounded tags. */
class AnalyzerMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AnalyzerMetrics metrics = AnalyzerMetrics.refreshedByCaller(registry, SeriesLimits.ports(1));
    private final HandTicks ticks = HandTicks.on(HandTicks.spineLeaf(1));

    @Test
    void shouldAggregateTheLatestTickOnlyWhenRefreshedOffTheProcessingThread() {
        final Tick tick = ticks.tick(5).port("leaf-0", "eth0")
            .observed(CounterNames.TX_BYTES, HandTicks.LINE_BYTES_PER_S / 2).expected(CounterNames.TX_BYTES, HandTicks.LINE_BYTES_PER_S / 4)
            .build();
        metrics.tick(new TickReport(ticks.fabric(), tick, List.of(), 2.5, 3, Map.of()));

        assertThat(registry.find("fabric.device.utilization.ratio").gauges()).as("nothing aggregated yet").isEmpty();
        assertThat(registry.get("fabric.twin.eval.seconds").gauge().value()).isCloseTo(0.0025, within(1e-9));
        assertThat(registry.get("fabric.intervals.late").functionCounter().count()).isEqualTo(3);

        metrics.refresh();

        assertThat(registry.get("fabric.device.utilization.ratio").tags("device", "leaf-0", "kind", "observed").gauge().value())
            .isCloseTo(0.5, within(1e-9));
        assertThat(registry.get("fabric.device.utilization.ratio").tags("device", "leaf-0", "kind", "expected").gauge().value())
            .isCloseTo(0.25, within(1e-9));
        assertThat(registry.get("fabric.tier.utilization.ratio").tags("kind", "observed").gauge().value()).isCloseTo(0.5, within(1e-9));
        assertThat(registry.get("fabric.device.pfc.pauses.per.second").tags("device", "leaf-0", "kind", "observed").gauge().value())
            .isZero();
        assertThat(registry.get("fabric.port.utilization.ratio").tags("device", "leaf-0", "port", "eth0", "kind", "observed")
            .gauge().value()).isCloseTo(0.5, within(1e-9));
        assertThat(registry.find("fabric.device").meters()).as("no meter mixing quantities under a metric tag").isEmpty();
    }

    @Test
    void shardedItShowsEveryShardsPortsAndTheAlertsTheCorrelationStageHoldsOpen() {
        final Tick shard0 = ticks.tick(5).port("leaf-0", "eth0").observed(CounterNames.TX_BYTES, HandTicks.LINE_BYTES_PER_S / 2).build();
        final Tick shard1 = ticks.tick(5).port("leaf-1", "eth0").observed(CounterNames.TX_BYTES, HandTicks.LINE_BYTES_PER_S / 4).build();
        metrics.tick(new TickReport(ticks.fabric(), shard0, List.of(), 1, 0, Map.of(), 0));
        metrics.tick(new TickReport(ticks.fabric(), shard1, List.of(), 1, 0, Map.of(), 1));
        final Alert open = new Alert("PFC_STORM:port:host-0/nic0", FaultType.PFC_STORM, Alert.State.OPEN, Severity.CRITICAL,
            Entity.port(new PortRef("host-0", "nic0")), true, null, 1_000, 2_000, 5, 0, "tx_pfc_pause/s", List.of(), "s");
        metrics.openAlerts(List.of(open));
        metrics.refresh();

        assertThat(registry.get("fabric.device.utilization.ratio").tags("device", "leaf-0", "kind", "observed").gauge().value())
            .isCloseTo(0.5, within(1e-9));
        assertThat(registry.get("fabric.device.utilization.ratio").tags("device", "leaf-1", "kind", "observed").gauge().value())
            .isCloseTo(0.25, within(1e-9));
        assertThat(registry.get("fabric.alert.open").tags("id", open.id(), "root", "true").gauge().value()).isEqualTo(1);
    }

    @Test
    void shouldShowEachOpenAlertAndCountDeadLettersFromTheStart() {
        assertThat(registry.get("fabric.records.dead.lettered").counter().count()).isZero();
        final Alert open = new Alert("PFC_STORM:port:host-0/nic0", FaultType.PFC_STORM, Alert.State.OPEN, Severity.CRITICAL,
            Entity.port(new PortRef("host-0", "nic0")), true, null, 1_000, 2_000, 5, 0, "tx_pfc_pause/s", List.of(), "s");
        metrics.alert(open, 2_500);
        metrics.rejected(RejectReason.MALFORMED);
        metrics.tick(new TickReport(ticks.fabric(), ticks.tick(5).build(), List.of(open), 1, 0, Map.of()));
        metrics.refresh();

        assertThat(registry.get("fabric.alert.open").tags("id", open.id(), "root", "true").gauge().value()).isEqualTo(1);
        assertThat(registry.get("fabric.alerts.open").tags("type", "PFC_STORM", "severity", "CRITICAL").gauge().value())
            .isEqualTo(1);
        assertThat(registry.get("fabric.alerts.published").tags("type", "PFC_STORM", "state", "OPEN").counter().count())
            .isEqualTo(1);
        assertThat(registry.get("fabric.sample.to.alert.lag").summary().totalAmount()).isCloseTo(0.5, within(1e-9));
        assertThat(registry.get("fabric.records.dead.lettered").counter().count()).isEqualTo(1);
        assertThat(registry.get("fabric.records.rejected").tags("reason", "malformed").counter().count()).isEqualTo(1);
    }

    @Test
    void shouldGiveAJobsSlowdownAndCommTimesInSecondsAndNaNWhileTheyAreUnknown() {
        metrics.jobHealth(new JobHealth("llm", 1_000, 700, 1_400, 2.0, 1e9, 5e8, 0.9, "link:leaf-0~spine-0", "LINK_DEGRADED:x"));

        assertThat(registry.get("fabric.job.slowdown.ratio").tags("job", "llm").gauge().value()).isEqualTo(2.0);
        assertThat(registry.get("fabric.job.comm.seconds").tags("job", "llm", "kind", "observed").gauge().value()).isEqualTo(1.4);
        assertThat(registry.get("fabric.job.bottleneck").tags("job", "llm").gauge().value()).isEqualTo(1);

        // unknown is said, not hidden behind the last number
        metrics.jobHealth(new JobHealth("llm", 2_000, 700, Double.NaN, Double.NaN, 1e9, 5e8, Double.NaN, null, null));
        assertThat(registry.get("fabric.job.slowdown.ratio").tags("job", "llm").gauge().value()).isNaN();
        assertThat(registry.get("fabric.job.comm.seconds").tags("job", "llm", "kind", "observed").gauge().value()).isNaN();
        assertThat(registry.get("fabric.job.comm.seconds").tags("job", "llm", "kind", "expected").gauge().value()).isEqualTo(0.7);
        assertThat(registry.get("fabric.job.bottleneck").tags("job", "llm").gauge().value()).isZero();
    }

    @Test
    void shouldNameTheDevicesWhoseClocksRunAheadAndForgetThemWhenTheyCatchUp() {
        metrics.tick(new TickReport(ticks.fabric(), ticks.tick(5).build(), List.of(), 1, 0, Map.of("leaf-0", 90_000L)));
        metrics.refresh();
        assertThat(registry.get("fabric.device.clock.ahead.seconds").tags("device", "leaf-0").gauge().value())
            .isEqualTo(90.0);

        metrics.tick(new TickReport(ticks.fabric(), ticks.tick(6).build(), List.of(), 1, 0, Map.of()));
        metrics.refresh();
        assertThat(registry.find("fabric.device.clock.ahead.seconds").gauges()).isEmpty();
    }

    @Test
    void shouldCountUnmatchedNamesByReason() {
        metrics.unmatched("unknown-device");
        metrics.unmatched("unknown-device");
        metrics.unmatched("unknown-port");

        assertThat(AnalyzerMetrics.unmatchedNames(registry)).containsExactly(Map.entry("unknown-device", 2L),
            Map.entry("unknown-port", 1L));
        assertThat(registry.get("fabric.names.unmatched").tags("reason", "unknown-device").counter().count()).isEqualTo(2);
    }
}
