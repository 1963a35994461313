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
import dev.fabrictwin.twin.model.CounterIndex;
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
    /** Ticks of the average-rate window (coarse mode), at least... */
    static final int COARSE_WINDOW = 10;
    /** ...and at most: longer windows would judge a slowdown minutes late. */
    static final int MAX_COARSE_WINDOW = 120;
    /** Error of a coarse comm time the window is sized for. */
    static final double COARSE_ERROR = 0.1;

    private final Map<String, PhaseLock> locks = new HashMap<>();
    private final Map<String, java.util.ArrayDeque<Double>> recentSlowdowns = new HashMap<>();
    private final Set<String> bottlenecked = new HashSet<>();
    private final Map<String, Integer> failedFits = new HashMap<>();
    private final Map<String, Long> lastFitMs = new HashMap<>();
    private final Map<String, PhaseFit> latestFits = new HashMap<>();
    /** Jobs whose latest fit could not steer the twin yet (it was in a comm phase): retried on the next ticks. */
    private final Set<String> unsteered = new HashSet<>();
    private final Map<String, double[]> coarseWindows = new HashMap<>();
    /** Coarse jobs: the slowdown reported, from a window long enough to be steady (NaN: not known). */
    private final Map<String, Double> reported = new HashMap<>();
    private final Map<String, Double> baselines = new HashMap<>();
    private final Map<String, Integer> fitsSeen = new HashMap<>();
    private final Map<PortRef, String> lockedNics = new HashMap<>();
    /** Each job's NICs by port index, in rank order (a sum over them does not depend on hashing). */
    private final Map<String, int[]> ranks = new HashMap<>();
    private final Map<String, Long> lastTrafficMs = new HashMap<>();
    /** NIC intervals taken for the phase locks, not yet fed (their tick is open): bounded by the open ticks. */
    private final List<Unfed> unfed = new ArrayList<>();

    private record Unfed(String job, String device, String port, long t0, long t1, long txBytes) implements Serializable {
        static final java.util.Comparator<Unfed> ORDER = java.util.Comparator.comparingLong(Unfed::t1)
            .thenComparingLong(Unfed::t0).thenComparing(Unfed::device).thenComparing(Unfed::port);
    }
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
            ranks.put(j.id(), j.ranks().stream().distinct().mapToInt(twin.fabric()::portIndex).toArray());
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
        unfed.removeIf(u -> u.job().equals(job));
        for (final Map<String, ?> perJob : List.of(recentSlowdowns, failedFits, lastFitMs, latestFits, coarseWindows,
            reported, baselines, fitsSeen, lastTrafficMs)) {
            perJob.remove(job);
        }
        bottlenecked.remove(job);
        unsteered.remove(job);
    }

    /**
     * Takes one NIC interval for its job's phase lock (other ports are ignored); the lock is fed when the interval's
     * tick closes ({@link #onTick}).
     */
    public void observe(final PortInterval interval) {
        final String job = lockedNics.get(new PortRef(interval.device(), interval.port()));
        if (job != null && !interval.reset() && !interval.gap()) {
            unfed.add(new Unfed(job, interval.device(), interval.port(), interval.t0(), interval.t1(),
                interval.increases().getOrDefault(CounterNames.TX_BYTES, 0L)));
        }
    }

    /**
     * Feeds the phase locks the intervals of the closing tick (and any that came after their tick closed) in time,
     * then NIC order: a fit sums its window in order, and must not see what happened to arrive early.
     */
    private void feedLocks(final Tick tick) {
        final long until = tick.endMs() + (tick.endMs() - tick.startMs()) / 2; // the tick's intervals end before this
        final List<Unfed> due = new ArrayList<>();
        unfed.removeIf(u -> u.t1() < until && due.add(u));
        due.sort(Unfed.ORDER);
        for (final Unfed u : due) {
            final PhaseLock lock = locks.get(u.job());
            if (lock != null) {
                lock.observe(u.t0(), u.t1(), u.txBytes());
            }
        }
    }

    /** After a tick closes: re-fit, steer the twin, and report each job. */
    public List<JobHealth> onTick(final Tick tick, final List<Finding> findings) {
        sync(tick.endMs());
        feedLocks(tick);
        final List<JobHealth> out = new ArrayList<>();
        for (final PlacedJob j : twin.jobsAt(tick.endMs())) {
            double expected = 0;
            double observed = 0;
            double seconds = 0;
            for (final int rank : ranks.get(j.id())) {
                final PortTick t = tick.port(rank);
                if (t != null) {
                    expected += t.expected(CounterIndex.TX_BYTES);
                    observed += t.observed(CounterIndex.TX_BYTES);
                    seconds = Math.max(seconds, t.seconds());
                }
            }
            final double perSec = seconds > 0 ? 1 / seconds : 0;
            final double twinComm = twin.lastCommMs(j.id());
            final boolean coarse = j.spec().periodSeconds() * 1000 < COARSE_PERIODS * (tick.endMs() - tick.startMs());
            final PhaseFit fit = coarse ? average(j, twinComm, expected, observed, tick.endMs() - tick.startMs())
                : lock(j.id(), twinComm, tick.endMs(), j.spec().periodSeconds() * 1000);
            // what is reported: phase fits smoothed as the job is judged, or the coarse steady figure; NaN is unknown
            final double slowdown = coarse ? reported.getOrDefault(j.id(), Double.NaN)
                : fit == null ? Double.NaN : smoothedSlowdown(j.id());
            out.add(new JobHealth(j.id(), tick.endMs(), twinComm, slowdown * twinComm, slowdown, expected * perSec,
                observed * perSec, fit == null ? Double.NaN : fit.quality(), null, null));
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
     * Coarse samples: comm time from the average rate (quality NaN, the twin is not steered), as
     * comm = (compute + twin comm) × expected / observed − compute. The job is judged on the last
     * {@value #COARSE_WINDOW} ticks (a slowdown worth an alert shows within them). What is reported needs more: the
     * twin keeps its own schedule, so over W seconds it and the job may complete one iteration (T = compute + comm)
     * apart, which puts the byte ratio off by up to T / W and the comm time by T² / (comm · W). The reported figure
     * uses a window long enough for that to stay within {@value #COARSE_ERROR}, and is unknown (NaN) until it has
     * filled, or when it would take over {@value #MAX_COARSE_WINDOW} ticks (comm a sliver of a short iteration).
     */
    private PhaseFit average(final PlacedJob job, final double twinComm, final double expected, final double observed,
                             final double tickMs) {
        reported.put(job.id(), Double.NaN);
        if (Double.isNaN(twinComm) || job.spec().pattern() == Pattern.BACKGROUND) {
            return null;
        }
        final double computeMs = job.spec().computeSeconds() * 1000;
        final double periodMs = computeMs + twinComm;
        final double[] w = coarseWindows.computeIfAbsent(job.id(), k -> new double[2 * MAX_COARSE_WINDOW + 1]);
        final long seen = (long) w[2 * MAX_COARSE_WINDOW]++;
        final int slot = (int) (seen % MAX_COARSE_WINDOW);
        w[slot] = expected;
        w[MAX_COARSE_WINDOW + slot] = observed;
        final int steady = (int) Math.max(COARSE_WINDOW,
            Math.ceil(periodMs * periodMs / (twinComm * COARSE_ERROR) / tickMs - 1e-6)); // 50.0000001 ticks are 50
        if (steady <= MAX_COARSE_WINDOW && seen + 1 >= steady) {
            final double comm = commOver(w, seen, steady, periodMs, computeMs);
            reported.put(job.id(), comm / twinComm);
        }
        if (seen + 1 < COARSE_WINDOW) {
            return null;
        }
        final double comm = commOver(w, seen, COARSE_WINDOW, periodMs, computeMs);
        if (Double.isNaN(comm)) {
            return null;
        }
        final java.util.ArrayDeque<Double> recent = recentSlowdowns.computeIfAbsent(job.id(), k -> new java.util.ArrayDeque<>());
        recent.addLast(comm / twinComm);
        if (recent.size() > SMOOTHING) {
            recent.removeFirst();
        }
        learnBaseline(job.id());
        return new PhaseFit(Double.NaN, comm, computeMs + comm, Double.NaN);
    }

    /** Comm time (ms) from the expected and observed bytes of the last {@code ticks} ticks; NaN without traffic. */
    private static double commOver(final double[] w, final long seen, final int ticks, final double periodMs,
                                   final double computeMs) {
        double exp = 0;
        double obs = 0;
        for (int back = 0; back < ticks; back++) {
            final int i = (int) ((seen - back) % MAX_COARSE_WINDOW);
            exp += w[i];
            obs += w[MAX_COARSE_WINDOW + i];
        }
        return obs <= 0 || exp <= 0 ? Double.NaN : Math.max(0, periodMs * exp / obs - computeMs);
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
        final double s = smoothedSlowdown(job);
        return Double.isNaN(s) ? 1 : s;
    }

    /** The median of the job's last {@value #SMOOTHING} good fits, NaN if none: one odd fit moves nothing. */
    private double smoothedSlowdown(final String job) {
        final java.util.ArrayDeque<Double> recent = recentSlowdowns.get(job);
        if (recent == null || recent.isEmpty()) {
            return Double.NaN;
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
