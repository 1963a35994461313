package dev.fabrictwin.analyzer.metrics;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.fabrictwin.analyzer.TickReport;
import dev.fabrictwin.contract.sample.RejectReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * What went through the pipeline: intervals analyzed, records dead-lettered or not analyzed (by reason), names that
 * meet no port, late intervals and the twin's evaluation time. Written by the processing thread.
 */
final class PipelineMeters implements MeterBinder {

    static final String UNMATCHED = "fabric.names.unmatched";

    private MeterRegistry registry;
    private Counter samples;
    private Counter deadLettered;
    private final Map<RejectReason, Counter> rejected = new ConcurrentHashMap<>();
    private final Map<String, Counter> unmatched = new ConcurrentHashMap<>();
    private final AtomicLong twinNanos = new AtomicLong();
    private final AtomicLong lateIntervals = new AtomicLong();

    @Override
    public void bindTo(final MeterRegistry registry) {
        this.registry = registry;
        this.samples = Counter.builder("fabric.samples.processed")
            .description("Port intervals analyzed").register(registry);
        // registered now, not at the first reject: a dashboard reads 0 rather than no data
        this.deadLettered = Counter.builder("fabric.records.dead.lettered")
            .description("Records sent to the dead letter topic (by reason: fabric.records.rejected)").register(registry);
        Gauge.builder("fabric.twin.eval.seconds", twinNanos, n -> n.get() / 1e9)
            .description("Time of the last twin evaluation (advancing and solving the replica)").register(registry);
        FunctionCounter.builder("fabric.intervals.late", lateIntervals, AtomicLong::get)
            .description("Intervals that arrived after their tick closed").register(registry);
    }

    void rejected(final RejectReason reason) {
        deadLettered.increment();
        rejected.computeIfAbsent(reason, r -> Counter.builder("fabric.records.rejected")
            .tag("reason", r.code()).description("Records sent to the dead letter topic (or not analyzed), by reason")
            .register(registry)).increment();
    }

    void unmatched(final String reason) {
        unmatched.computeIfAbsent(reason, r -> Counter.builder(UNMATCHED)
            .tag("reason", r).description("Samples whose device/port names meet no topology port (not analyzed), by reason")
            .register(registry)).increment();
    }

    void intervals(final long count) {
        samples.increment(count);
    }

    void tick(final TickReport report) {
        twinNanos.set((long) (report.twinMs() * 1e6));
        lateIntervals.set(report.lateIntervals());
    }

    /** The unmatched-name counts in a registry, by reason. */
    static Map<String, Long> unmatchedNames(final MeterRegistry registry) {
        final Map<String, Long> counts = new TreeMap<>();
        registry.find(UNMATCHED).counters().forEach(c -> counts.merge(c.getId().getTag("reason"), (long) c.count(), Long::sum));
        return counts;
    }
}
