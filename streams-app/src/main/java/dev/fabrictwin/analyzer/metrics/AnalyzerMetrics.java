package dev.fabrictwin.analyzer.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.analyzer.TickReport;
import dev.fabrictwin.analyzer.detect.TickContext;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.telemetry.RejectReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;

/**
 * The analyzer's product meters (docs/analyzer.md lists them): one meter per quantity, its unit in its name
 * (Prometheus and OpenTelemetry conventions: {@code _ratio}, {@code _seconds}, {@code _per_second}, counters
 * {@code _total}), an {@code observed}/{@code expected} {@code kind} tag where the twin has a value. Every tag is
 * bounded, and the number of series does not grow with the fabric: alert types and severities are enums; tiers,
 * pods and jobs are the declared fabric's few; per-device series exist only for the {@link SeriesLimits#devices()}
 * devices a {@link Shortlist} keeps (open alerts first, then the largest residuals), per-port series only for ports
 * with an open alert on those devices or among the {@link SeriesLimits#ports()} largest residuals; per-alert series
 * only while the alert is open. A device or port that leaves its list has its series removed.
 *
 * <p>The processing thread only hands over the latest closed tick ({@link #tick}); the per-device, per-tier, per-pod and
 * per-port aggregates and the open-alert series are computed from it on this class's own thread once a second
 * (gauges are scraped seconds apart), so metrics never slow the analysis. {@link #close()} stops that thread.
 */
public final class AnalyzerMetrics implements AnalyzerListener, AutoCloseable {

    /** Wall time between two refreshes of the aggregates. */
    static final long REFRESH_EVERY_MS = 1_000;

    private final MeterRegistry registry;
    private final SeriesLimits limits;
    private final Shortlist<String> listedDevices = new Shortlist<>();
    private final Shortlist<PortRef> listedPorts = new Shortlist<>();
    /** The pods of the latest fabric (recomputed when the topology changes). */
    private Pods podsOf;
    /**
     * What the listed devices and ports showed last: shown again while a tick misses one (its sample landed in the
     * next tick), so its lines do not break; as bounded as the lists.
     */
    private Map<String, Load> shownDevices = Map.of();
    private Map<PortRef, double[]> shownPorts = Map.of();
    private final Counter samples;
    private final Counter deadLettered;
    private final Map<RejectReason, Counter> rejected = new ConcurrentHashMap<>();
    private final Map<String, Counter> alertRecords = new ConcurrentHashMap<>();
    private final DistributionSummary lag;
    private static final String UNMATCHED = "fabric.names.unmatched";
    private final Map<String, Counter> unmatched = new ConcurrentHashMap<>();
    /** Devices listed at most in {@code fabric_device_clock_ahead_seconds}: the furthest ahead. */
    static final int MAX_CLOCK_SERIES = 50;
    private final MultiGauge clocksAhead;
    private final MultiGauge openByType;
    private final MultiGauge openAlerts;
    private final MultiGauge portUtilization;
    private final LoadGauges devices;
    private final LoadGauges tiers;
    private final LoadGauges pods;
    private final Map<String, JobGauges> jobs = new ConcurrentHashMap<>();
    private final AtomicLong twinNanos = new AtomicLong();
    private final AtomicLong lateIntervals = new AtomicLong();
    private final ScheduledExecutorService refresher;
    /** The latest closed tick and what was open after it, handed over by the processing thread. */
    private volatile TickReport latest;
    private TickReport refreshed;
    /** Sharded: the latest tick of each shard this instance runs, and the alerts the correlation stage holds open. */
    private final Map<Integer, TickReport> latestByShard = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile List<Alert> correlationOpen;
    private volatile long correlationOpenAt;
    private List<String> lastOpenIds = List.of();

    public AnalyzerMetrics(final MeterRegistry registry, final SeriesLimits limits) {
        this(registry, limits, true);
    }

    /**
     * Meters that aggregate only when {@link #refresh()} is called, on the caller's thread (tests, and benches that
     * count the series a scrape holds tick by tick).
     */
    public static AnalyzerMetrics refreshedByCaller(final MeterRegistry registry, final SeriesLimits limits) {
        return new AnalyzerMetrics(registry, limits, false);
    }

    private AnalyzerMetrics(final MeterRegistry registry, final SeriesLimits limits, final boolean refreshInBackground) {
        this.registry = registry;
        this.limits = limits;
        this.samples = Counter.builder("fabric.samples.processed")
            .description("Port intervals analyzed").register(registry);
        this.deadLettered = Counter.builder("fabric.records.dead.lettered")
            .description("Records sent to the dead letter topic (by reason: fabric.records.rejected)").register(registry);
        this.lag = DistributionSummary.builder("fabric.sample.to.alert.lag").baseUnit("seconds")
            .description("Wall clock at publication minus the event time of the tick that raised it (live telemetry)")
            .publishPercentiles(0.5, 0.99).register(registry);
        this.clocksAhead = MultiGauge.builder("fabric.device.clock.ahead.seconds")
            .description("Devices whose clocks run ahead of the fabric's event time (their samples are analyzed in "
                + "their own ticks, nothing waits for them), seconds ahead; the " + MAX_CLOCK_SERIES + " furthest")
            .register(registry);
        this.openByType = MultiGauge.builder("fabric.alerts.open")
            .description("Open alerts by type and severity").register(registry);
        this.openAlerts = MultiGauge.builder("fabric.alert.open")
            .description("1 per open alert, with its id, type, entity and whether it is a root cause").register(registry);
        this.portUtilization = MultiGauge.builder("fabric.port.utilization.ratio")
            .description("Tx utilization of ports with an open alert or the largest residual, observed and expected")
            .register(registry);
        this.devices = new LoadGauges(registry, "device");
        this.tiers = new LoadGauges(registry, "tier");
        this.pods = new LoadGauges(registry, "pod");
        Gauge.builder("fabric.twin.eval.seconds", twinNanos, n -> n.get() / 1e9)
            .description("Time of the last twin evaluation (advancing and solving the replica)").register(registry);
        FunctionCounter.builder("fabric.intervals.late", lateIntervals, AtomicLong::get)
            .description("Intervals that arrived after their tick closed").register(registry);
        if (refreshInBackground) {
            refresher = Executors.newSingleThreadScheduledExecutor(r -> {
                final Thread t = new Thread(r, "fabric-twin-metrics");
                t.setDaemon(true);
                return t;
            });
            refresher.scheduleWithFixedDelay(this::refreshQuietly, REFRESH_EVERY_MS, REFRESH_EVERY_MS, TimeUnit.MILLISECONDS);
        } else {
            refresher = null;
        }
    }

    @Override
    public void rejected(final RejectReason reason) {
        deadLettered.increment();
        rejected.computeIfAbsent(reason, r -> Counter.builder("fabric.records.rejected")
            .tag("reason", r.code()).description("Records sent to the dead letter topic (or not analyzed), by reason")
            .register(registry)).increment();
    }

    @Override
    public void unmatched(final String reason) {
        unmatched.computeIfAbsent(reason, r -> Counter.builder(UNMATCHED)
            .tag("reason", r).description("Samples whose device/port names meet no topology port (not analyzed), by reason")
            .register(registry)).increment();
    }

    /** The unmatched-name counts so far, by reason, as a status line shows them (empty when every name met). */
    public static Map<String, Long> unmatchedNames(final MeterRegistry registry) {
        final Map<String, Long> counts = new java.util.TreeMap<>();
        registry.find(UNMATCHED).counters().forEach(c -> counts.merge(c.getId().getTag("reason"), (long) c.count(), Long::sum));
        return counts;
    }

    @Override
    public void intervals(final long count) {
        samples.increment(count);
    }

    @Override
    public void alert(final Alert alert, final long wallClockMs) {
        alertRecords.computeIfAbsent(alert.type() + "/" + alert.state(), k -> Counter.builder("fabric.alerts.published")
            .tag("type", alert.type().name()).tag("state", alert.state().name())
            .description("Alert records published, by type and lifecycle state").register(registry)).increment();
        if (alert.state() == Alert.State.OPEN) {
            lag.record(Math.max(0, wallClockMs - alert.lastSeen()) / 1000.0);
        }
    }

    @Override
    public void jobHealth(final JobHealth h) {
        jobs.computeIfAbsent(h.job(), job -> new JobGauges(registry, job)).update(h);
    }

    @Override
    public void tick(final TickReport report) {
        twinNanos.set((long) (report.twinMs() * 1e6));
        lateIntervals.set(report.lateIntervals());
        latestByShard.put(report.shard(), report);
        latest = report;
    }

    @Override
    public void openAlerts(final List<Alert> open) {
        correlationOpen = List.copyOf(open);
        correlationOpenAt = System.nanoTime();
    }

    /**
     * The tick the gauges show: the latest one, or — sharded — the latest of every shard this instance runs put
     * together (a shard whose latest tick is a minute older than the newest has moved to another instance).
     */
    private Tick shown(final TickReport newest) {
        if (latestByShard.size() <= 1) {
            return newest.tick();
        }
        final PortTick[] ports = new PortTick[newest.tick().byIndex().length];
        latestByShard.values().removeIf(r -> r.tick().endMs() < newest.tick().endMs() - STALE_SHARD_MS);
        for (final TickReport r : latestByShard.values()) {
            if (r.fabric() == newest.fabric()) {
                r.tick().ports().forEach(p -> ports[p.index()] = p);
            }
        }
        return Tick.of(newest.tick().index(), newest.tick().startMs(), newest.tick().endMs(), ports);
    }

    /** A shard's latest tick this much older than the newest: the shard runs elsewhere now. */
    static final long STALE_SHARD_MS = 60_000;

    /** Aggregates the latest tick into the gauges (the refresher thread calls it once a second). */
    public void refresh() {
        final TickReport s = latest;
        // the correlation stage's open alerts while it runs here (it reports every tick; a minute without: it moved)
        final boolean correlating = correlationOpen != null && System.nanoTime() - correlationOpenAt < STALE_SHARD_MS * 1_000_000;
        final List<Alert> open = correlating ? correlationOpen : s == null ? List.of() : s.open();
        final List<String> openIds = open.stream().map(a -> a.id() + "/" + a.rootCause() + "/" + a.severity()).toList();
        if (!openIds.equals(lastOpenIds)) {
            registerOpen(open);
            lastOpenIds = openIds;
        }
        if (s == null || s == refreshed) {
            return;
        }
        refreshed = s;
        aggregate(s.fabric(), shown(s), open);
        final List<MultiGauge.Row<?>> rows = new java.util.ArrayList<>();
        s.clocksAhead().entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
            .limit(MAX_CLOCK_SERIES)
            .forEach(e -> rows.add(MultiGauge.Row.of(io.micrometer.core.instrument.Tags.of("device", e.getKey()),
                e.getValue() / 1000.0)));
        clocksAhead.register(rows, true);
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            // a metrics refresh must never stop the refresher; the next one tries again
            org.slf4j.LoggerFactory.getLogger(AnalyzerMetrics.class).warn("metrics refresh failed", e);
        }
    }

    @Override
    public void close() {
        if (refresher != null) {
            refresher.shutdownNow();
        }
    }

    /** The devices open alerts name (a link's two ends), root causes' before victims'. */
    private static List<String> alertDevices(final List<Alert> open) {
        final Set<String> devices = new LinkedHashSet<>();
        for (final boolean root : new boolean[] {true, false}) {
            for (final Alert a : open) {
                if (a.rootCause() == root) {
                    addIfNamed(devices, a.entity().device());
                    addIfNamed(devices, a.entity().peer());
                }
            }
        }
        return List.copyOf(devices);
    }

    private static void addIfNamed(final Set<String> devices, final String device) {
        if (device != null) {
            devices.add(device);
        }
    }

    /** The ports open alerts name on the listed devices, root causes' first. */
    private static List<PortRef> alertPorts(final List<Alert> open, final Set<String> listed) {
        final Set<PortRef> ports = new LinkedHashSet<>();
        for (final boolean root : new boolean[] {true, false}) {
            for (final Alert a : open) {
                if (a.rootCause() == root && a.entity().port() != null && listed.contains(a.entity().device())) {
                    ports.add(new PortRef(a.entity().device(), a.entity().port()));
                }
            }
        }
        return List.copyOf(ports);
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

    /**
     * Per-tier and per-pod sums of every port; per-device sums of the listed devices; the per-port rows of the listed
     * ports. A device's and a port's score is its tx utilization residual (the device's: its ports' largest).
     */
    private void aggregate(final Fabric fabric, final Tick tick, final List<Alert> open) {
        if (podsOf == null || podsOf.fabric() != fabric) {
            podsOf = Pods.of(fabric);
        }
        final Map<String, Load> byDevice = new HashMap<>();
        final Map<String, Load> byTier = new HashMap<>();
        final Map<String, Load> byPod = new HashMap<>();
        final Map<String, Double> deviceScores = new HashMap<>();
        final Map<PortRef, Double> portScores = new HashMap<>();
        for (final PortTick t : tick.ports()) {
            final Node node = fabric.node(t.port().device()).orElse(null);
            final double capacity = fabric.linkAt(t.port()).map(Link::capacityBps).orElse(0.0);
            if (node == null || capacity <= 0 || t.seconds() <= 0) {
                continue;
            }
            final Load port = Load.of(t, capacity);
            byDevice.computeIfAbsent(node.name(), n -> new Load()).add(port);
            byTier.computeIfAbsent(node.tier().label(), n -> new Load()).add(port);
            byPod.computeIfAbsent(podsOf.of(node.name()), n -> new Load()).add(port);
            final double residual = Math.abs(port.observedBps - port.expectedBps) / capacity;
            portScores.put(t.port(), residual);
            deviceScores.merge(node.name(), residual, Math::max);
        }
        final Set<String> listed = listedDevices.update(alertDevices(open), deviceScores, limits.devices());
        shownDevices = latestOf(listed, byDevice, shownDevices);
        devices.register(shownDevices);
        tiers.register(byTier);
        pods.register(byPod);
        final List<PortRef> alerted = alertPorts(open, listed);
        final Map<PortRef, double[]> utilization = new HashMap<>();
        final Set<PortRef> ports = listedPorts.update(alerted, portScores, alerted.size() + limits.ports());
        for (final PortRef p : ports) {
            if (portScores.containsKey(p)) {
                final PortTick t = tick.port(fabric.portIndex(p));
                final double line = fabric.requireLinkAt(p).capacityBps() / 8 * t.seconds();
                utilization.put(p, new double[] {t.observed(CounterNames.TX_BYTES) / line, t.expected(CounterNames.TX_BYTES) / line});
            }
        }
        shownPorts = latestOf(ports, utilization, shownPorts);
        final List<MultiGauge.Row<?>> portRows = new ArrayList<>();
        shownPorts.forEach((p, u) -> {
            final Tags tags = Tags.of("device", p.device(), "port", p.port());
            portRows.add(MultiGauge.Row.of(tags.and("kind", "observed"), u[0]));
            portRows.add(MultiGauge.Row.of(tags.and("kind", "expected"), u[1]));
        });
        portUtilization.register(portRows, true);
    }

    /** For each listed key, its value in this tick, else the one shown last (none if it never had one). */
    private static <K, V> Map<K, V> latestOf(final Set<K> listed, final Map<K, V> now, final Map<K, V> before) {
        final Map<K, V> out = new HashMap<>();
        for (final K k : listed) {
            final V v = now.containsKey(k) ? now.get(k) : before.get(k);
            if (v != null) {
                out.put(k, v);
            }
        }
        return out;
    }

    /** One port's (or a sum of ports') load in a tick, observed beside the twin's expectation. */
    private static final class Load {
        double observedBps;
        double expectedBps;
        double capacityBps;
        double observedPausesPerSec;
        double expectedPausesPerSec;
        double observedMarksPerSec;
        double expectedMarksPerSec;

        static Load of(final PortTick t, final double capacityBps) {
            final Load l = new Load();
            l.observedBps = t.observed(CounterNames.TX_BYTES) * 8 / t.seconds();
            l.expectedBps = t.expected(CounterNames.TX_BYTES) * 8 / t.seconds();
            l.capacityBps = capacityBps;
            l.observedPausesPerSec = TickContext.pfc(t, CounterNames.TX_PFC_PAUSE, true) / t.seconds();
            l.expectedPausesPerSec = TickContext.pfc(t, CounterNames.TX_PFC_PAUSE, false) / t.seconds();
            l.observedMarksPerSec = t.observedRate(CounterNames.ECN_MARKED);
            l.expectedMarksPerSec = t.expectedRate(CounterNames.ECN_MARKED);
            return l;
        }

        void add(final Load o) {
            observedBps += o.observedBps;
            expectedBps += o.expectedBps;
            capacityBps += o.capacityBps;
            observedPausesPerSec += o.observedPausesPerSec;
            expectedPausesPerSec += o.expectedPausesPerSec;
            observedMarksPerSec += o.observedMarksPerSec;
            expectedMarksPerSec += o.expectedMarksPerSec;
        }
    }

    /** The load meters of one grouping ({@code device} or {@code tier}): one meter per quantity. */
    private static final class LoadGauges {
        private final String tag;
        private final MultiGauge utilization;
        private final MultiGauge pauses;
        private final MultiGauge marks;

        LoadGauges(final MeterRegistry registry, final String tag) {
            this.tag = tag;
            this.utilization = MultiGauge.builder("fabric." + tag + ".utilization.ratio")
                .description("Tx utilization of the " + tag + "'s ports (tx bits over capacity), observed and the twin's")
                .register(registry);
            this.pauses = MultiGauge.builder("fabric." + tag + ".pfc.pauses.per.second")
                .description("PFC pause frames the " + tag + "'s ports sent per second, observed and the twin's")
                .register(registry);
            this.marks = MultiGauge.builder("fabric." + tag + ".ecn.marks.per.second")
                .description("ECN-marked packets per second on the " + tag + "'s ports, observed and the twin's")
                .register(registry);
        }

        void register(final Map<String, Load> loads) {
            final List<MultiGauge.Row<?>> u = new ArrayList<>();
            final List<MultiGauge.Row<?>> p = new ArrayList<>();
            final List<MultiGauge.Row<?>> m = new ArrayList<>();
            loads.forEach((name, l) -> {
                final Tags observed = Tags.of(tag, name, "kind", "observed");
                final Tags expected = Tags.of(tag, name, "kind", "expected");
                u.add(MultiGauge.Row.of(observed, l.observedBps / l.capacityBps));
                u.add(MultiGauge.Row.of(expected, l.expectedBps / l.capacityBps));
                p.add(MultiGauge.Row.of(observed, l.observedPausesPerSec));
                p.add(MultiGauge.Row.of(expected, l.expectedPausesPerSec));
                m.add(MultiGauge.Row.of(observed, l.observedMarksPerSec));
                m.add(MultiGauge.Row.of(expected, l.expectedMarksPerSec));
            });
            utilization.register(u, true);
            pauses.register(p, true);
            marks.register(m, true);
        }
    }

    /** One job's health meters; written by the processing thread, read at scrape time. */
    private static final class JobGauges {
        private volatile double slowdown = Double.NaN;
        private volatile double observedCommSeconds = Double.NaN;
        private volatile double expectedCommSeconds = Double.NaN;
        private volatile double bottleneck;

        JobGauges(final MeterRegistry registry, final String job) {
            Gauge.builder("fabric.job.slowdown.ratio", this, j -> j.slowdown).tag("job", job)
                .description("The job's comm time per iteration over the twin's").register(registry);
            Gauge.builder("fabric.job.comm.seconds", this, j -> j.observedCommSeconds).tag("job", job)
                .tag("kind", "observed").description("Comm time per iteration").register(registry);
            Gauge.builder("fabric.job.comm.seconds", this, j -> j.expectedCommSeconds).tag("job", job)
                .tag("kind", "expected").description("Comm time per iteration").register(registry);
            Gauge.builder("fabric.job.bottleneck", this, j -> j.bottleneck).tag("job", job)
                .description("1 while a root cause holds the job back").register(registry);
        }

        void update(final JobHealth h) {
            // NaN is "unknown" (no fit, or coarse telemetry still filling its window): said, not hidden by an old value
            slowdown = h.slowdown();
            observedCommSeconds = h.observedCommMs() / 1000;
            if (!Double.isNaN(h.expectedCommMs())) {
                expectedCommSeconds = h.expectedCommMs() / 1000;
            }
            bottleneck = h.rootCauseAlert() == null ? 0 : 1;
        }
    }
}
