package dev.fabrictwin.analyzer.job;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.analyzer.detect.TickContext;
import dev.fabrictwin.analyzer.phase.PhaseFit;
import dev.fabrictwin.analyzer.phase.PhaseLock;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.workload.Pattern;
import dev.fabrictwin.twin.workload.PlacedJob;

/**
 * Keeps each bulk-synchronous job's phase locked to its NICs and measures how much slower its comm phases run
 * than the twin's. After each tick: fit the pulse train ({@link PhaseLock}); if the fit is good, move the
 * twin's next comm phase to where the NICs say it starts (the twin stays in step as iterations drift or
 * stretch); report {@link JobHealth}. Where a sample spans most of an iteration (period under
 * {@value #COARSE_PERIODS} ticks) phase cannot be seen: comm time then comes from the window's average rate —
 * iterations run at B / (compute + comm), so comm = (compute + twin comm) × expected / observed − compute —
 * and the twin keeps its own schedule. And when comm runs {@value #SLOWDOWN}× slower than the twin's, a
 * {@code JOB_BOTTLENECK} impact finding that the correlator attaches to the root cause holding the job back.
 */
public final class JobHealthTracker implements Serializable {

    /** Comm slower than the twin's by this factor is a bottleneck (the detectors' own threshold for a slow job)... */
    static final double SLOWDOWN = TickContext.SLOW_JOB;
    /** ...until it is back under this one (hysteresis: a slowdown hovering at the threshold is one episode). */
    static final double RECOVERED = 1.15;
    /** Fits explaining less of the NICs' bytes than this (R²) neither steer the twin nor judge the job. */
    static final double MIN_QUALITY = 0.5;
    /** NICs per job fed to the phase lock: lock-step ranks move together, a few suffice and bound the cost. */
    static final int NICS_PER_JOB = 4;
    /** The twin's next comm start is moved when it is off by more than this (ms). */
    static final double RETIME_MS = 20;

    private final TwinReplica twin;
    /** Fits judged per job: a bottleneck needs the median of the last few, so one odd fit neither opens nor clears it. */
    static final int SMOOTHING = 5;
    /** Consecutive failed fits after which a job's slowdown is no longer known. */
    static final int STALE_FITS = 10;
    /** Good fits before a job's healthy slowdown is learned (the first iterations warm up). */
    static final int BASELINE_AFTER = 10;
    /** Weight of each new fit in the learned healthy slowdown. */
    static final double BASELINE_LEARNING = 0.05;
    /** Jobs whose period is under this many ticks are judged by average rate, not by phase. */
    static final double COARSE_PERIODS = 2.5;
    /** Ticks of the average-rate window (coarse mode). */
    static final int COARSE_WINDOW = 10;

    private final Map<String, PhaseLock> locks = new HashMap<>();
    private final Map<String, java.util.ArrayDeque<Double>> recentSlowdowns = new HashMap<>();
    private final Set<String> bottlenecked = new HashSet<>();
    private final Map<String, Integer> failedFits = new HashMap<>();
    private final Map<String, Long> lastFitMs = new HashMap<>();
    private final Map<String, PhaseFit> latestFits = new HashMap<>();
    /** Jobs whose latest fit could not steer the twin yet (it was in a comm phase): retried on the next ticks. */
    private final Set<String> unsteered = new HashSet<>();
    private final Map<String, double[]> coarseWindows = new HashMap<>();
    private final Map<String, Double> baselines = new HashMap<>();
    private final Map<String, Integer> fitsSeen = new HashMap<>();
    private final Map<PortRef, String> lockedNics = new HashMap<>();
    private final Map<String, Set<PortRef>> ranks = new HashMap<>();
    private final Map<String, Long> lastTrafficMs = new HashMap<>();
    private static final double IDLE_SHARE = 0.01;
    private static final int IDLE_PERIODS = 2;

    public JobHealthTracker(final TwinReplica twin) {
        this.twin = twin;
        sync(Long.MIN_VALUE);
    }

    /** Follows the replica's running jobs: a job that started gets a phase lock, one that ended is forgotten. */
    private void sync(final long atMs) {
        final List<PlacedJob> running = twin.jobsAt(atMs);
        if (running.size() == ranks.size() && running.stream().allMatch(j -> ranks.containsKey(j.id()))) {
            return;
        }
        final Set<String> ids = new HashSet<>();
        for (final PlacedJob j : running) {
            ids.add(j.id());
            if (ranks.containsKey(j.id())) {
                continue;
            }
            ranks.put(j.id(), new HashSet<>(j.ranks()));
            if (j.spec().pattern() == Pattern.BACKGROUND) {
                continue;
            }
            locks.put(j.id(), new PhaseLock(j.spec().computeSeconds() * 1000));
            j.ranks().stream().limit(NICS_PER_JOB).forEach(p -> lockedNics.put(p, j.id()));
        }
        for (final String gone : List.copyOf(ranks.keySet())) {
            if (!ids.contains(gone)) {
                forget(gone);
            }
        }
    }

    private void forget(final String job) {
        ranks.remove(job);
        locks.remove(job);
        lockedNics.values().removeIf(job::equals);
        for (final Map<String, ?> perJob : List.of(recentSlowdowns, failedFits, lastFitMs, latestFits, coarseWindows,
            baselines, fitsSeen, lastTrafficMs)) {
            perJob.remove(job);
        }
        bottlenecked.remove(job);
        unsteered.remove(job);
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
        sync(tick.endMs());
        final List<JobHealth> out = new ArrayList<>();
        for (final PlacedJob j : twin.jobsAt(tick.endMs())) {
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
            final double twinComm = twin.lastCommMs(j.id());
            final boolean coarse = j.spec().periodSeconds() * 1000 < COARSE_PERIODS * (tick.endMs() - tick.startMs());
            final PhaseFit fit = coarse ? average(j, twinComm, expected, observed)
                : lock(j.id(), twinComm, tick.endMs(), j.spec().periodSeconds() * 1000);
            out.add(new JobHealth(j.id(), tick.endMs(), twinComm, fit == null ? Double.NaN : fit.commMs(),
                fit == null ? Double.NaN : fit.commMs() / twinComm, expected * perSec, observed * perSec,
                fit == null ? Double.NaN : fit.quality(), null, null));
            if (idle(j.id(), expected, observed, tick.endMs(), j.spec().periodSeconds() * 1000)) {
                bottlenecked.remove(j.id()); // a job that sends nothing has ended or stalled on its own: not the network's doing
            } else {
                judge(j.id(), twinComm, findings);
            }
        }
        return out;
    }

    /**
     * Fits the job's phase (at most once per iteration: the fit spans several, so a new one a tick later says
     * nothing new), steers the twin and records the slowdown; the latest fit, or null when there is none.
     */
    private PhaseFit lock(final String job, final double twinComm, final long nowMs, final double periodMs) {
        final PhaseLock lock = locks.get(job);
        if (lock == null || Double.isNaN(twinComm)) {
            return null;
        }
        final Long lastFit = lastFitMs.get(job);
        if (lastFit != null && nowMs - lastFit < periodMs) {
            final PhaseFit cached = latestFits.get(job);
            if (cached != null && unsteered.contains(job) && steer(job, cached)) {
                unsteered.remove(job); // the twin has left its comm phase: the deferred steer happens now
            }
            return cached;
        }
        lastFitMs.put(job, nowMs);
        final Optional<PhaseFit> fit = lock.fit(twinComm);
        if (fit.isEmpty() || fit.get().quality() < MIN_QUALITY) {
            // no lock this tick: the last judgement stands a while (coarse samples lock only now and then)
            if (failedFits.merge(job, 1, Integer::sum) > STALE_FITS) {
                recentSlowdowns.remove(job);
            }
            latestFits.remove(job);
            return null;
        }
        latestFits.put(job, fit.get());
        failedFits.remove(job);
        if (steer(job, fit.get())) {
            unsteered.remove(job);
        } else {
            unsteered.add(job);
        }
        final java.util.ArrayDeque<Double> recent = recentSlowdowns.computeIfAbsent(job, k -> new java.util.ArrayDeque<>());
        recent.addLast(fit.get().commMs() / twinComm);
        if (recent.size() > SMOOTHING) {
            recent.removeFirst();
        }
        learnBaseline(job);
        return fit.get();
    }

    /**
     * Coarse samples: comm time from the average rate over the last {@value #COARSE_WINDOW} ticks (quality NaN,
     * the twin is not steered).
     */
    private PhaseFit average(final PlacedJob job, final double twinComm, final double expected, final double observed) {
        if (Double.isNaN(twinComm) || job.spec().pattern() == Pattern.BACKGROUND) {
            return null;
        }
        final double[] w = coarseWindows.computeIfAbsent(job.id(), k -> new double[2 * COARSE_WINDOW + 1]);
        final int slot = (int) (w[2 * COARSE_WINDOW]++ % COARSE_WINDOW);
        w[slot] = expected;
        w[COARSE_WINDOW + slot] = observed;
        if (w[2 * COARSE_WINDOW] < COARSE_WINDOW) {
            return null;
        }
        double exp = 0;
        double obs = 0;
        for (int i = 0; i < COARSE_WINDOW; i++) {
            exp += w[i];
            obs += w[COARSE_WINDOW + i];
        }
        if (obs <= 0 || exp <= 0) {
            return null;
        }
        final double computeMs = job.spec().computeSeconds() * 1000;
        final double comm = Math.max(0, (computeMs + twinComm) * exp / obs - computeMs);
        final java.util.ArrayDeque<Double> recent = recentSlowdowns.computeIfAbsent(job.id(), k -> new java.util.ArrayDeque<>());
        recent.addLast(comm / twinComm);
        if (recent.size() > SMOOTHING) {
            recent.removeFirst();
        }
        learnBaseline(job.id());
        return new PhaseFit(Double.NaN, comm, computeMs + comm, Double.NaN);
    }

    /** A {@code JOB_BOTTLENECK} impact finding while the job's smoothed slowdown is over the threshold. */
    /**
     * True once the job's NICs have sent almost nothing (under {@value #IDLE_SHARE} of what the twin expects) for
     * {@value #IDLE_PERIODS} iteration periods: the job ended before a scheduler said so, or stopped by itself. A
     * slowed job still sends; a silent one is not slowed by the network.
     */
    private boolean idle(final String job, final double expected, final double observed, final long nowMs,
                         final double periodMs) {
        if (observed >= IDLE_SHARE * expected) {
            lastTrafficMs.put(job, nowMs);
            return false;
        }
        final long since = lastTrafficMs.computeIfAbsent(job, j -> nowMs);
        return nowMs - since > IDLE_PERIODS * periodMs;
    }

    private void judge(final String job, final double twinComm, final List<Finding> findings) {
        final double slowdown = slowdown(job);
        if (slowdown > (bottlenecked.contains(job) ? RECOVERED : SLOWDOWN)) {
            bottlenecked.add(job);
            findings.add(Finding.symptom(FaultType.JOB_BOTTLENECK, Entity.job(job), null, "comm_ms",
                rawSlowdown(job) * twinComm, twinComm, String.format("job %s's comm phases take %.0f ms, %.1f× the twin's "
                    + "%.0f ms (%.1f× its usual)", job, rawSlowdown(job) * twinComm, rawSlowdown(job), twinComm, slowdown)));
        } else {
            bottlenecked.remove(job);
        }
    }

    /**
     * How much slower than usual the job's comm runs: its slowdown against the twin over the slowdown it showed
     * while healthy. The twin routes with its own hash, so a job's real collisions can make it steadily slower
     * (or faster) than the twin's ideal; that steady ratio is learned ({@value #BASELINE_LEARNING} per good fit,
     * only while the job is not bottlenecked, from {@value #BASELINE_AFTER} fits on) and judged against.
     */
    public double slowdown(final String job) {
        final Double baseline = baselines.get(job);
        return baseline == null ? 1 : rawSlowdown(job) / Math.max(1.0, baseline); // warming up: not judged yet
    }

    private void learnBaseline(final String job) {
        if (bottlenecked.contains(job)) {
            return;
        }
        final int fits = fitsSeen.merge(job, 1, Integer::sum);
        if (fits >= BASELINE_AFTER) {
            final double raw = rawSlowdown(job);
            baselines.merge(job, raw, (old, x) -> old + BASELINE_LEARNING * (x - old));
        }
    }

    /** The job's comm time over the twin's: the median of its last {@value #SMOOTHING} good fits (1 if none). */
    double rawSlowdown(final String job) {
        final java.util.ArrayDeque<Double> recent = recentSlowdowns.get(job);
        if (recent == null || recent.isEmpty()) {
            return 1;
        }
        final double[] sorted = recent.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted[sorted.length / 2];
    }

    /** Moves the twin's next comm phase to where the fit says it starts; false when the twin is in one (retry later). */
    private boolean steer(final String job, final PhaseFit fit) {
        final double twinNext = twin.nextCommStartMs(job);
        if (Double.isNaN(twinNext)) {
            return false;
        }
        final double observedNext = fit.nextCommStartAfter(twinNext - fit.periodMs() / 2);
        if (Math.abs(observedNext - twinNext) > RETIME_MS) {
            twin.retimeNextComm(job, observedNext);
        }
        return true;
    }
}
