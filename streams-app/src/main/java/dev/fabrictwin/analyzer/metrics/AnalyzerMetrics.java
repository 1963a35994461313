package dev.fabrictwin.analyzer.metrics;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.slf4j.LoggerFactory;

import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.analyzer.TickReport;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.contract.sample.RejectReason;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The analyzer's product meters (docs/analyzer.md lists them), one {@link io.micrometer.core.instrument.binder.MeterBinder}
 * per concern: {@link PipelineMeters}, {@link AlertMeters}, {@link JobMeters}, {@link FabricLoadMeters},
 * {@link ClockSkewMeters}. One meter per quantity, its unit in its name (Prometheus and OpenTelemetry conventions:
 * {@code _ratio}, {@code _seconds}, {@code _per_second}, counters {@code _total}), an {@code observed}/{@code expected}
 * {@code kind} tag where the twin has a value; every tag bounded, the number of series independent of the fabric's size.
 *
 * <p>The processing thread only hands over the latest closed tick ({@link #tick}); the per-device, per-tier, per-pod and
 * per-port aggregates and the open-alert series are computed from it on this class's own thread once a second
 * (gauges are scraped seconds apart), so metrics never slow the analysis. {@link #close()} stops that thread.
 */
public final class AnalyzerMetrics implements AnalyzerListener, AutoCloseable {

    /** Wall time between two refreshes of the aggregates. */
    static final long REFRESH_EVERY_MS = 1_000;
    /** A shard's latest tick this much older than the newest: the shard runs elsewhere now. */
    static final long STALE_SHARD_MS = 60_000;

    private final PipelineMeters pipeline = new PipelineMeters();
    private final AlertMeters alerts = new AlertMeters();
    private final JobMeters jobs = new JobMeters();
    private final FabricLoadMeters load;
    private final ClockSkewMeters clocks = new ClockSkewMeters();
    private final ScheduledExecutorService refresher;
    /** The latest closed tick and what was open after it, handed over by the processing thread. */
    private volatile TickReport latest;
    private TickReport refreshed;
    /** Sharded: the latest tick of each shard this instance runs, and the alerts the correlation stage holds open. */
    private final Map<Integer, TickReport> latestByShard = new ConcurrentHashMap<>();
    private volatile List<Alert> correlationOpen;
    private volatile long correlationOpenAt;

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
        this.load = new FabricLoadMeters(limits);
        pipeline.bindTo(registry);
        alerts.bindTo(registry);
        jobs.bindTo(registry);
        load.bindTo(registry);
        clocks.bindTo(registry);
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
        pipeline.rejected(reason);
    }

    @Override
    public void unmatched(final String reason) {
        pipeline.unmatched(reason);
    }

    /** The unmatched-name counts so far, by reason, as a status line shows them (empty when every name met). */
    public static Map<String, Long> unmatchedNames(final MeterRegistry registry) {
        return PipelineMeters.unmatchedNames(registry);
    }

    /**
     * {@code "  unmatched names: 12 (unknown-device 10, unknown-port 2)"} for a status line, or nothing when every name
     * met the topology.
     */
    public static String unmatchedSummary(final Map<String, Long> byReason) {
        final long total = byReason.values().stream().mapToLong(Long::longValue).sum();
        if (total == 0) {
            return "";
        }
        return String.format(Locale.ROOT, "  unmatched names: %,d (%s)", total, byReason.entrySet().stream()
            .map(e -> String.format(Locale.ROOT, "%s %,d", e.getKey(), e.getValue())).collect(Collectors.joining(", ")));
    }

    @Override
    public void intervals(final long count) {
        pipeline.intervals(count);
    }

    @Override
    public void alert(final Alert alert, final long wallClockMs) {
        alerts.published(alert, wallClockMs);
    }

    @Override
    public void jobHealth(final JobHealth h) {
        jobs.health(h);
    }

    @Override
    public void tick(final TickReport report) {
        pipeline.tick(report);
        latestByShard.put(report.shard(), report);
        latest = report;
    }

    @Override
    public void openAlerts(final List<Alert> open) {
        correlationOpen = List.copyOf(open);
        correlationOpenAt = System.nanoTime();
    }

    /** Aggregates the latest tick into the gauges (the refresher thread calls it once a second). */
    public void refresh() {
        final TickReport s = latest;
        // the correlation stage's open alerts while it runs here (it reports every tick; a minute without: it moved)
        final boolean correlating = correlationOpen != null && System.nanoTime() - correlationOpenAt < STALE_SHARD_MS * 1_000_000;
        final List<Alert> open = correlating ? correlationOpen : s == null ? List.of() : s.open();
        alerts.showOpen(open);
        if (s == null || s == refreshed) {
            return;
        }
        refreshed = s;
        load.show(s.fabric(), shown(s), open);
        clocks.show(s.clocksAhead());
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

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            // a metrics refresh must never stop the refresher; the next one tries again
            LoggerFactory.getLogger(AnalyzerMetrics.class).warn("metrics refresh failed", e);
        }
    }

    @Override
    public void close() {
        if (refresher != null) {
            refresher.shutdownNow();
        }
    }
}
