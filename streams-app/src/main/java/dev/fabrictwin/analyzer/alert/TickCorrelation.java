package dev.fabrictwin.analyzer.alert;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.analyzer.detect.JobFootprint;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.workload.PlacedJob;

/**
 * A tick's findings made into alerts: the {@link Correlator} (root vs victim, against the alerts open) and the
 * {@link AlertLifecycle}, with the correlator's job footprints kept to the jobs running. One per fabric: inside the
 * analyzer when it sees the whole fabric, in the correlation stage when the analysis is sharded.
 */
public final class TickCorrelation implements Serializable {

    private static final long serialVersionUID = 1L;

    /** What one tick published, and its correlated findings (to explain job health with). */
    public record Result(List<Alert> alerts, List<Correlated> correlated) {
    }

    private final Fabric fabric;
    private final Correlator correlator;
    private final AlertLifecycle lifecycle;
    private List<String> footprintJobs;

    public TickCorrelation(final Fabric fabric, final List<PlacedJob> jobs, final int openAfter, final int updateEvery,
                           final int resolveAfter, final DetectionCalibration.Correlation calibration) {
        this.fabric = fabric;
        this.correlator = new Correlator(fabric, new JobFootprint(fabric, jobs), calibration);
        this.footprintJobs = jobs.stream().map(PlacedJob::id).toList();
        this.lifecycle = new AlertLifecycle(openAfter, updateEvery, resolveAfter);
    }

    /** Correlates one tick's findings given the jobs running then; returns the alerts to publish. */
    public Result onTick(final long tick, final long startMs, final long endMs, final List<Finding> findings,
                         final List<PlacedJob> running) {
        final List<String> ids = running.stream().map(PlacedJob::id).toList();
        if (!ids.equals(footprintJobs)) {
            correlator.jobsChanged(new JobFootprint(fabric, running));
            footprintJobs = ids;
        }
        final List<Correlated> correlated = correlator.correlate(findings, lifecycle.openRoots());
        return new Result(lifecycle.onTick(tick, startMs, endMs, correlated), correlated);
    }

    /** Root-cause alerts open now, by id. */
    public Map<String, Finding> openRoots() {
        return lifecycle.openRoots();
    }

    public List<Alert> openAlerts() {
        return lifecycle.openAlerts();
    }

    /** Takes back alerts that were open before a restart. */
    public void restore(final List<Alert> open) {
        open.forEach(a -> lifecycle.restore(a, 0));
    }

    /** Names the root-cause alert (and its link) holding a slowed job back. */
    public static JobHealth explain(final JobHealth h, final List<Correlated> correlated) {
        for (final Correlated c : correlated) {
            if (c.finding().type() == FaultType.JOB_BOTTLENECK && h.job().equals(c.finding().entity().job())) {
                final String cause = c.rootCause() ? c.id() : c.causedBy();
                final String link = correlated.stream().filter(r -> r.id().equals(cause)).findFirst()
                    .map(r -> r.finding().entity().key()).orElse(null);
                return h.withCause(link, cause);
            }
        }
        return h;
    }

    /** All of a tick's job health explained by its correlated findings. */
    public static List<JobHealth> explain(final List<JobHealth> health, final List<Correlated> correlated) {
        final List<JobHealth> out = new ArrayList<>(health.size());
        health.forEach(h -> out.add(explain(h, correlated)));
        return out;
    }
}
