package dev.fabrictwin.analyzer.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.fabrictwin.contract.job.JobHealth;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/** Each declared job's health: slowdown, comm time observed and expected, bottleneck. */
final class JobMeters implements MeterBinder {

    private MeterRegistry registry;
    private final Map<String, JobGauges> jobs = new ConcurrentHashMap<>();

    @Override
    public void bindTo(final MeterRegistry registry) {
        this.registry = registry; // a job's meters appear with its first health record
    }

    void health(final JobHealth h) {
        jobs.computeIfAbsent(h.job(), job -> new JobGauges(registry, job)).update(h);
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
