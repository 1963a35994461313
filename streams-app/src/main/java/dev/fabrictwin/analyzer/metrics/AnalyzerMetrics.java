package dev.fabrictwin.analyzer.metrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.analyzer.FabricAnalyzer;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.CounterNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;

/**
 * The analyzer's product meters (docs/analyzer.md lists them). Every tag is bounded: alert types and
 * severities are enums; devices, tiers and jobs are the declared fabric's; per-port series exist only for ports
 * with an open alert or among the {@code topPorts} with the largest utilization residual; per-alert series only
 * while the alert is open.
 */
public final class AnalyzerMetrics implements AnalyzerListener {

    private final MeterRegistry registry;
    private final int topPorts;
    private final Counter samples;
    private final Map<String, Counter> rejected = new ConcurrentHashMap<>();
    private final Map<String, Counter> alertRecords = new ConcurrentHashMap<>();
    private final DistributionSummary lag;
    private final MultiGauge openByType;
    private final MultiGauge openAlerts;
    private final MultiGauge portUtilization;
    private final MultiGauge deviceValues;
    private final MultiGauge tierValues;
    private final Map<String, double[]> jobs = new ConcurrentHashMap<>();
    private final AtomicLong twinNanos = new AtomicLong();
    private final AtomicLong lateIntervals = new AtomicLong();
    /** Wall time between two refreshes of the per-tick aggregates. */
    static final long AGGREGATE_EVERY_MS = 1_000;
    private long lastAggregateMs = Long.MIN_VALUE;
    private List<String> lastOpenIds = List.of();

    public AnalyzerMetrics(final MeterRegistry registry, final int topPorts) {
        this.registry = registry;
        this.topPorts = topPorts;
        this.samples = Counter.builder("fabric.samples.processed").description("Port intervals analyzed")
            .register(registry);
        this.lag = DistributionSummary.builder("fabric.sample.to.alert.lag").baseUnit("seconds")
            .description("Wall clock at publication minus the event time of the tick that raised it (live telemetry)")
            .publishPercentiles(0.5, 0.99).register(registry);
        this.openByType = MultiGauge.builder("fabric.alerts.open").description("Open alerts by type and severity")
            .register(registry);
        this.openAlerts = MultiGauge.builder("fabric.alert").description("1 per open alert, with its entity")
            .register(registry);
        this.portUtilization = MultiGauge.builder("fabric.port.utilization")
            .description("Tx utilization of ports with an open alert or the largest residual, observed and expected")
            .register(registry);
        this.deviceValues = MultiGauge.builder("fabric.device").description("Per-device aggregates per tick")
            .register(registry);
        this.tierValues = MultiGauge.builder("fabric.tier").description("Per-tier aggregates per tick")
            .register(registry);
        Gauge.builder("fabric.twin.eval.seconds", twinNanos, n -> n.get() / 1e9)
            .description("Time of the last twin evaluation (advancing and solving the replica)").register(registry);
        Gauge.builder("fabric.records.dead.lettered.by.handlers", dev.fabrictwin.analyzer.topology.DeadLetterHandlers::handled)
            .description("Records the processing/deserialization exception handlers sent to the dead letter topic")
            .register(registry);
        Gauge.builder("fabric.intervals.late", lateIntervals, AtomicLong::get)
            .description("Intervals that arrived after their tick closed").register(registry);
    }

    @Override
    public void rejected(final String reason) {
        rejected.computeIfAbsent(reason, r -> Counter.builder("fabric.records.rejected").tag("reason", r)
            .description("Records sent to the dead letter topic (or not analyzed), by reason").register(registry))
            .increment();
    }

    @Override
    public void intervals(final long count) {
        samples.increment(count);
    }

    @Override
    public void alert(final Alert alert, final long wallClockMs) {
        alertRecords.computeIfAbsent(alert.type() + "/" + alert.state(), k -> Counter.builder("fabric.alerts.published")
            .tag("type", alert.type().name()).tag("state", alert.state().name()).register(registry)).increment();
        if (alert.state() == Alert.State.OPEN) {
            lag.record(Math.max(0, wallClockMs - alert.lastSeen()) / 1000.0);
        }
    }

    @Override
    public void jobHealth(final JobHealth h) {
        final double[] values = jobs.computeIfAbsent(h.job(), job -> {
            final double[] v = new double[4];
            Gauge.builder("fabric.job.slowdown", v, x -> x[0]).tag("job", job)
                .description("Observed comm time over the twin's").register(registry);
            Gauge.builder("fabric.job.comm.seconds", v, x -> x[1]).tag("job", job).tag("kind", "observed").register(registry);
            Gauge.builder("fabric.job.comm.seconds", v, x -> x[2]).tag("job", job).tag("kind", "expected").register(registry);
            Gauge.builder("fabric.job.bottleneck", v, x -> x[3]).tag("job", job)
                .description("1 while a root cause holds the job back").register(registry);
            return v;
        });
        if (!Double.isNaN(h.slowdown())) {
            values[0] = h.slowdown();
            values[1] = h.observedCommMs() / 1000;
        }
        values[2] = Double.isNaN(h.expectedCommMs()) ? values[2] : h.expectedCommMs() / 1000;
        values[3] = h.rootCauseAlert() == null ? 0 : 1;
    }

    @Override
    public void tick(final FabricAnalyzer analyzer, final Tick tick, final List<Alert> open, final long wallClockMs) {
        twinNanos.set((long) (analyzer.lastTwinMs() * 1e6));
        lateIntervals.set(analyzer.lateIntervals());
        final List<String> openIds = open.stream().map(a -> a.id() + "/" + a.rootCause() + "/" + a.severity()).toList();
        if (!openIds.equals(lastOpenIds)) {
            registerOpen(open);
            lastOpenIds = openIds;
        }
        // Gauges are read at scrape time (seconds apart): re-aggregating every tick only costs when a backlog
        // drains many ticks a second (a quarter of the analysis thread in `bench streams`), so once a second.
        if (lastAggregateMs == Long.MIN_VALUE || wallClockMs - lastAggregateMs >= AGGREGATE_EVERY_MS
            || wallClockMs < lastAggregateMs) {
            aggregate(analyzer.twin().fabric(), tick, alertPorts(open));
            lastAggregateMs = wallClockMs;
        }
    }

    private static Set<PortRef> alertPorts(final List<Alert> open) {
        final Set<PortRef> ports = new HashSet<>();
        for (final Alert a : open) {
            if (a.entity().port() != null) {
                ports.add(new PortRef(a.entity().device(), a.entity().port()));
            }
        }
        return ports;
    }

    private void registerOpen(final List<Alert> open) {
        final Map<Tags, Integer> byType = new HashMap<>();
        final List<MultiGauge.Row<?>> alertRows = new ArrayList<>();
        for (final Alert a : open) {
            byType.merge(Tags.of("type", a.type().name(), "severity", a.severity().name()), 1, Integer::sum);
            alertRows.add(MultiGauge.Row.of(Tags.of("id", a.id(), "type", a.type().name(), "entity", a.entity().key(),
                "root", String.valueOf(a.rootCause())), 1));
        }
        openByType.register(byType.entrySet().stream().map(e -> MultiGauge.Row.of(e.getKey(), e.getValue())).toList(), true);
        openAlerts.register(alertRows, true);
    }

    /** Per-device and per-tier sums, and the per-port rows for alerting and top-residual ports. */
    private void aggregate(final Fabric fabric, final Tick tick, final Set<PortRef> alertPorts) {
        final Map<String, double[]> devices = new HashMap<>();
        final Map<String, double[]> tiers = new HashMap<>();
        final List<PortTick> ports = new ArrayList<>(tick.ports().values());
        for (final PortTick t : ports) {
            final Node node = fabric.node(t.port().device()).orElse(null);
            final double capacity = fabric.linkAt(t.port()).map(l -> l.capacityBps()).orElse(0.0);
            if (node == null || capacity <= 0 || t.seconds() <= 0) {
                continue;
            }
            final double[] v = {
                t.observed(CounterNames.TX_BYTES) * 8 / t.seconds(), t.expected(CounterNames.TX_BYTES) * 8 / t.seconds(),
                capacity, pfc(t, true) / t.seconds(), pfc(t, false) / t.seconds(),
                t.observedRate(CounterNames.ECN_MARKED), t.expectedRate(CounterNames.ECN_MARKED)};
            add(devices.computeIfAbsent(node.name(), n -> new double[v.length]), v);
            add(tiers.computeIfAbsent(node.tier().label(), n -> new double[v.length]), v);
        }
        deviceValues.register(rows(devices, "device"), true);
        tierValues.register(rows(tiers, "tier"), true);
        ports.sort(Comparator.comparingDouble((PortTick t) -> -Math.abs(t.observed(CounterNames.TX_BYTES)
            - t.expected(CounterNames.TX_BYTES))));
        final List<MultiGauge.Row<?>> portRows = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            final PortTick t = ports.get(i);
            if (i >= topPorts && !alertPorts.contains(t.port())) {
                continue;
            }
            final double line = fabric.linkAt(t.port()).map(l -> l.capacityBps()).orElse(0.0) / 8 * t.seconds();
            if (line <= 0) {
                continue;
            }
            final Tags tags = Tags.of("device", t.port().device(), "port", t.port().port());
            portRows.add(MultiGauge.Row.of(tags.and("kind", "observed"), t.observed(CounterNames.TX_BYTES) / line));
            portRows.add(MultiGauge.Row.of(tags.and("kind", "expected"), t.expected(CounterNames.TX_BYTES) / line));
        }
        portUtilization.register(portRows, true);
    }

    private static List<MultiGauge.Row<?>> rows(final Map<String, double[]> sums, final String tag) {
        final List<MultiGauge.Row<?>> rows = new ArrayList<>();
        sums.forEach((name, v) -> {
            final Tags t = Tags.of(tag, name);
            rows.add(MultiGauge.Row.of(t.and("metric", "utilization", "kind", "observed"), v[0] / v[2]));
            rows.add(MultiGauge.Row.of(t.and("metric", "utilization", "kind", "expected"), v[1] / v[2]));
            rows.add(MultiGauge.Row.of(t.and("metric", "pfc_pause_per_second", "kind", "observed"), v[3]));
            rows.add(MultiGauge.Row.of(t.and("metric", "pfc_pause_per_second", "kind", "expected"), v[4]));
            rows.add(MultiGauge.Row.of(t.and("metric", "ecn_marked_per_second", "kind", "observed"), v[5]));
            rows.add(MultiGauge.Row.of(t.and("metric", "ecn_marked_per_second", "kind", "expected"), v[6]));
        });
        return rows;
    }

    private static double pfc(final PortTick t, final boolean observed) {
        return dev.fabrictwin.analyzer.detect.TickContext.pfc(t, CounterNames.TX_PFC_PAUSE, observed);
    }

    private static void add(final double[] into, final double[] v) {
        for (int i = 0; i < v.length; i++) {
            into[i] += v[i];
        }
    }
}
