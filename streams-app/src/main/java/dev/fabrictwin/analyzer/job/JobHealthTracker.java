package dev.fabrictwin.analyzer.job;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.fabrictwin.analyzer.detect.Entity;
import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.analyzer.phase.PhaseFit;
import dev.fabrictwin.analyzer.phase.PhaseLock;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.workload.Pattern;
import dev.fabrictwin.twin.workload.PlacedJob;

/**
 * Keeps each bulk-synchronous job's phase locked to its NICs and measures how much slower its comm phases run
 * than the twin's. After each tick: fit the pulse train ({@link PhaseLock}); if the fit is good, move the
 * twin's next comm phase to where the NICs say it starts (the twin stays in step as iterations drift or
 * stretch); report {@link JobHealth}; and when comm runs {@value #SLOWDOWN}× slower than the twin's, a
 * {@code JOB_BOTTLENECK} impact finding that the correlator attaches to the root cause holding the job back.
 */
public final class JobHealthTracker {

    /** Comm slower than the twin's by this factor is a bottleneck. */
    public static final double SLOWDOWN = 1.3;
    /** Fits explaining less of the NICs' bytes than this (R²) neither steer the twin nor judge the job. */
    static final double MIN_QUALITY = 0.5;
    /** NICs per job fed to the phase lock: lock-step ranks move together, a few suffice and bound the cost. */
    static final int NICS_PER_JOB = 8;
    /** The twin's next comm start is moved when it is off by more than this (ms). */
    static final double RETIME_MS = 20;

    private final TwinReplica twin;
    private final Map<String, PhaseLock> locks = new HashMap<>();
    private final Map<PortRef, String> lockedNics = new HashMap<>();
    private final Map<String, Set<PortRef>> ranks = new HashMap<>();

    public JobHealthTracker(final TwinReplica twin) {
        this.twin = twin;
        for (final PlacedJob j : twin.jobs()) {
            ranks.put(j.id(), new HashSet<>(j.ranks()));
            if (j.spec().pattern() == Pattern.BACKGROUND) {
                continue;
            }
            locks.put(j.id(), new PhaseLock(j.spec().computeSeconds() * 1000));
            j.ranks().stream().limit(NICS_PER_JOB).forEach(p -> lockedNics.put(p, j.id()));
        }
    }

    /** Feeds one NIC interval to its job's phase lock (other ports are ignored). */
    public void observe(final PortInterval interval) {
        final String job = lockedNics.get(new PortRef(interval.device(), interval.port()));
        if (job != null && !interval.reset() && !interval.gap()) {
            locks.get(job).observe(interval.t0(), interval.t1(), interval.increases().getOrDefault(CounterNames.TX_BYTES, 0L));
        }
    }

    /** After a tick closes: re-fit, steer the twin, and report each job. */
    public List<JobHealth> onTick(final Tick tick, final List<Finding> findings) {
        final List<JobHealth> out = new ArrayList<>();
        for (final PlacedJob j : twin.jobs()) {
            double expected = 0;
            double observed = 0;
            double seconds = 0;
            for (final PortRef rank : ranks.get(j.id())) {
                final PortTick t = tick.port(rank);
                if (t != null) {
                    expected += t.expected(CounterNames.TX_BYTES);
                    observed += t.observed(CounterNames.TX_BYTES);
                    seconds = Math.max(seconds, t.seconds());
                }
            }
            final double perSec = seconds > 0 ? 1 / seconds : 0;
            final PhaseLock lock = locks.get(j.id());
            final double twinComm = twin.lastCommMs(j.id());
            if (lock == null || Double.isNaN(twinComm)) {
                out.add(new JobHealth(j.id(), tick.endMs(), Double.NaN, Double.NaN, Double.NaN, expected * perSec,
                    observed * perSec, Double.NaN, null, null));
                continue;
            }
            final Optional<PhaseFit> fit = lock.fit(twinComm);
            if (fit.isEmpty() || fit.get().quality() < MIN_QUALITY) {
                out.add(new JobHealth(j.id(), tick.endMs(), twinComm, Double.NaN, Double.NaN, expected * perSec,
                    observed * perSec, fit.map(PhaseFit::quality).orElse(Double.NaN), null, null));
                continue;
            }
            final PhaseFit f = fit.get();
            steer(j.id(), f);
            final double slowdown = f.commMs() / twinComm;
            out.add(new JobHealth(j.id(), tick.endMs(), twinComm, f.commMs(), slowdown, expected * perSec,
                observed * perSec, f.quality(), null, null));
            if (slowdown > SLOWDOWN) {
                findings.add(Finding.symptom(FaultType.JOB_BOTTLENECK, Entity.job(j.id()), null, "comm_ms",
                    f.commMs(), twinComm, String.format("job %s's comm phases take %.0f ms, %.1f× the twin's %.0f ms",
                        j.id(), f.commMs(), slowdown, twinComm)));
            }
        }
        return out;
    }

    private void steer(final String job, final PhaseFit fit) {
        final double twinNext = twin.nextCommStartMs(job);
        if (Double.isNaN(twinNext)) {
            return; // the twin is in a comm phase: steer at the next tick
        }
        final double observedNext = fit.nextCommStartAfter(twinNext - fit.periodMs() / 2);
        if (Math.abs(observedNext - twinNext) > RETIME_MS) {
            twin.retimeNextComm(job, observedNext);
        }
    }
}
