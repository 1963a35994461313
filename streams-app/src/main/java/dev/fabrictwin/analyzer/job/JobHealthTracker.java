package dev.fabrictwin.analyzer.job;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.checkpoint.LearnedPart;
import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.analyzer.phase.PhaseFit;
import dev.fabrictwin.analyzer.phase.PhaseLock;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.analyzer.twin.ReplicaSync;
import dev.fabrictwin.analyzer.twin.ReplicaView;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.workload.Pattern;
import dev.fabrictwin.twin.workload.PlacedJob;

/**
 * Keeps each bulk-synchronous job's phase locked to its NICs and measures how much slower its comm phases run than the
 * twin's. After each tick: fit the pulse train ({@link PhaseLock}); if the fit is good, intend to move the twin's next
 * comm phase to where the NICs say it starts (a {@link ReplicaSync.Retime} the analysis applies: the twin stays in step
 * as iterations drift or stretch); report {@link JobHealth}.
 * Where a sample spans most of an iteration (period under {@link DetectionCalibration.Jobs#coarsePeriods} ticks) phase
 * cannot be seen: comm time then comes from the window's average rate — iterations run at B / (compute + comm), so comm
 * = (compute + twin comm) × expected / observed − compute — and the twin keeps its own schedule. And when comm runs
 * {@link DetectionCalibration.Jobs#slowdown}× slower than the twin's, a {@code JOB_BOTTLENECK} impact finding that the
 * correlator attaches to the root cause holding the job back.
 */
public final class JobHealthTracker implements Serializable, LearnedPart {

    private final ReplicaView twin;
    /** The tracker's tuned numbers and its phase lock's. */
    private final DetectionCalibration.Jobs cal;

    private final Map<String, PhaseLock> locks = new HashMap<>();
    private final Map<String, ArrayDeque<Double>> recentSlowdowns = new HashMap<>();
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
    /** Jobs whose fit came from an earlier build's learned section: the replica is steered by it once it can be. */
    private final Set<String> takenBack = new HashSet<>();
    /** NIC intervals taken for the phase locks, not yet fed (their tick is open): bounded by the open ticks. */
    private final List<Unfed> unfed = new ArrayList<>();

    private record Unfed(String job, String device, String port, long t0, long t1, long txBytes) implements Serializable {
        static final Comparator<Unfed> ORDER = Comparator.comparingLong(Unfed::t1)
            .thenComparingLong(Unfed::t0).thenComparing(Unfed::device).thenComparing(Unfed::port);
    }

    public JobHealthTracker(final ReplicaView twin, final DetectionCalibration.Jobs calibration) {
        this.twin = twin;
        this.cal = calibration;
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
            locks.put(j.id(), new PhaseLock(j.spec().computeSeconds() * 1000, cal.phase()));
            j.ranks().stream().limit(cal.nicsPerJob()).forEach(p -> lockedNics.put(p, j.id()));
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
        takenBack.remove(job);
    }

    /**
     * Takes one NIC interval for its job's phase lock (other ports are ignored); the lock is fed when the interval's
     * tick closes ({@link #onTick}).
     */
    public void observe(final PortInterval interval) {
        final String job = lockedNics.get(new PortRef(interval.device(), interval.port()));
        // a rate gauge is a mean over the device's own window: it cannot time a comm phase
        if (job != null && !interval.reset() && !interval.gap() && !interval.estimated()) {
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

    /** What a closed tick gave: each job's health, and where the twin's next comm phases should start instead. */
    public record Judged(List<JobHealth> health, List<ReplicaSync.Retime> retimes) {
    }

    /** After a tick closes: re-fit, say how to steer the twin, and report each job. */
    public Judged onTick(final Tick tick, final List<Finding> findings) {
        sync(tick.endMs());
        feedLocks(tick);
        final List<JobHealth> out = new ArrayList<>();
        final List<ReplicaSync.Retime> retimes = new ArrayList<>();
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
            final boolean coarse = j.spec().periodSeconds() * 1000 < cal.coarsePeriods() * (tick.endMs() - tick.startMs());
            if (coarse && locks.remove(j.id()) != null) {
                // never fitted: fed on, its window would only grow (and fill the learned part) without end
                lockedNics.values().removeIf(j.id()::equals);
            }
            final PhaseFit fit = coarse ? average(j, twinComm, expected, observed, tick.endMs() - tick.startMs())
                : lock(j.id(), twinComm, tick.endMs(), j.spec().periodSeconds() * 1000, retimes);
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
        return new Judged(out, retimes);
    }

    /**
     * Fits the job's phase (at most once per iteration: the fit spans several, so a new one a tick later says
     * nothing new), adds how to steer the twin to {@code retimes} and records the slowdown; the latest fit, or null when
     * there is none.
     */
    private PhaseFit lock(final String job, final double twinComm, final long nowMs, final double periodMs,
                          final List<ReplicaSync.Retime> retimes) {
        final PhaseLock lock = locks.get(job);
        if (lock == null) {
            return null;
        }
        if (takenBack.contains(job)) {
            // the alignment an earlier build learned: the fresh replica follows it before its own first comm phase
            final PhaseFit learned = latestFits.get(job);
            if (learned == null || steer(job, learned, retimes)) {
                takenBack.remove(job);
            }
        }
        if (Double.isNaN(twinComm)) {
            return null;
        }
        final Long lastFit = lastFitMs.get(job);
        if (lastFit != null && nowMs - lastFit < periodMs) {
            final PhaseFit cached = latestFits.get(job);
            if (cached != null && unsteered.contains(job) && steer(job, cached, retimes)) {
                unsteered.remove(job); // the twin has left its comm phase: the deferred steer happens now
            }
            return cached;
        }
        lastFitMs.put(job, nowMs);
        final Optional<PhaseFit> fit = lock.fit(twinComm);
        if (fit.isEmpty() || fit.get().quality() < cal.minQuality()) {
            // no lock this tick: the last judgement stands a while (coarse samples lock only now and then)
            if (failedFits.merge(job, 1, Integer::sum) > cal.staleFits()) {
                recentSlowdowns.remove(job);
            }
            latestFits.remove(job);
            return null;
        }
        latestFits.put(job, fit.get());
        failedFits.remove(job);
        if (steer(job, fit.get(), retimes)) {
            unsteered.remove(job);
        } else {
            unsteered.add(job);
        }
        final ArrayDeque<Double> recent = recentSlowdowns.computeIfAbsent(job, k -> new ArrayDeque<>());
        recent.addLast(fit.get().commMs() / twinComm);
        if (recent.size() > cal.smoothing()) {
            recent.removeFirst();
        }
        learnBaseline(job);
        return fit.get();
    }

    /**
     * Coarse samples: comm time from the average rate (quality NaN, the twin is not steered), as comm = (compute + twin
     * comm) × expected / observed − compute. The job is judged on the last
     * {@link DetectionCalibration.Jobs#coarseWindowTicks} ticks (a slowdown worth an alert shows within them). What is
     * reported needs more: the twin keeps its own schedule, so over W seconds it and the job may complete one iteration
     * (T = compute + comm) apart, which puts the byte ratio off by up to T / W and the comm time by T² / (comm · W).
     * The reported figure uses a window long enough for that to stay within
     * {@link DetectionCalibration.Jobs#coarseError}, and is unknown (NaN) until it has filled, or when it would take
     * over {@link DetectionCalibration.Jobs#maxCoarseWindowTicks} ticks (comm a sliver of a short iteration).
     */
    private PhaseFit average(final PlacedJob job, final double twinComm, final double expected, final double observed,
                             final double tickMs) {
        reported.put(job.id(), Double.NaN);
        if (Double.isNaN(twinComm) || job.spec().pattern() == Pattern.BACKGROUND) {
            return null;
        }
        final double computeMs = job.spec().computeSeconds() * 1000;
        final double periodMs = computeMs + twinComm;
        final double[] w = coarseWindows.computeIfAbsent(job.id(), k -> new double[2 * cal.maxCoarseWindowTicks() + 1]);
        final long seen = (long) w[2 * cal.maxCoarseWindowTicks()]++;
        final int slot = (int) (seen % cal.maxCoarseWindowTicks());
        w[slot] = expected;
        w[cal.maxCoarseWindowTicks() + slot] = observed;
        final int steady = (int) Math.max(cal.coarseWindowTicks(),
            Math.ceil(periodMs * periodMs / (twinComm * cal.coarseError()) / tickMs - 1e-6)); // 50.0000001 ticks are 50
        if (steady <= cal.maxCoarseWindowTicks() && seen + 1 >= steady) {
            final double comm = commOver(w, seen, steady, periodMs, computeMs);
            reported.put(job.id(), comm / twinComm);
        }
        if (seen + 1 < cal.coarseWindowTicks()) {
            return null;
        }
        final double comm = commOver(w, seen, cal.coarseWindowTicks(), periodMs, computeMs);
        if (Double.isNaN(comm)) {
            return null;
        }
        final ArrayDeque<Double> recent = recentSlowdowns.computeIfAbsent(job.id(), k -> new ArrayDeque<>());
        recent.addLast(comm / twinComm);
        if (recent.size() > cal.smoothing()) {
            recent.removeFirst();
        }
        learnBaseline(job.id());
        return new PhaseFit(Double.NaN, comm, computeMs + comm, Double.NaN);
    }

    /** Comm time (ms) from the expected and observed bytes of the last {@code ticks} ticks; NaN without traffic. */
    private double commOver(final double[] w, final long seen, final int ticks, final double periodMs,
                            final double computeMs) {
        double exp = 0;
        double obs = 0;
        for (int back = 0; back < ticks; back++) {
            final int i = (int) ((seen - back) % cal.maxCoarseWindowTicks());
            exp += w[i];
            obs += w[cal.maxCoarseWindowTicks() + i];
        }
        return obs <= 0 || exp <= 0 ? Double.NaN : Math.max(0, periodMs * exp / obs - computeMs);
    }

    /** A {@code JOB_BOTTLENECK} impact finding while the job's smoothed slowdown is over the threshold. */
    /**
     * True once the job's NICs have sent almost nothing (under {@link DetectionCalibration.Jobs#idleShare} of what the
     * twin expects) for {@link DetectionCalibration.Jobs#idlePeriods} iteration periods: the job ended before a
     * scheduler said so, or stopped by itself. A slowed job still sends; a silent one is not slowed by the network.
     */
    private boolean idle(final String job, final double expected, final double observed, final long nowMs,
                         final double periodMs) {
        if (observed >= cal.idleShare() * expected) {
            lastTrafficMs.put(job, nowMs);
            return false;
        }
        final long since = lastTrafficMs.computeIfAbsent(job, j -> nowMs);
        return nowMs - since > cal.idlePeriods() * periodMs;
    }

    /**
     * A job slower than usual by the calibration's slowdown is bottlenecked, and stays so until it is back under the
     * recovered figure (hysteresis: a slowdown hovering at the threshold is one episode).
     */
    static boolean bottleneck(final double slowdown, final boolean already, final DetectionCalibration.Jobs cal) {
        return slowdown > (already ? cal.recovered() : cal.slowdown());
    }

    private void judge(final String job, final double twinComm, final List<Finding> findings) {
        final double slowdown = slowdown(job);
        if (bottleneck(slowdown, bottlenecked.contains(job), cal)) {
            bottlenecked.add(job);
            findings.add(Finding.symptom(FaultType.JOB_BOTTLENECK, Entity.job(job), null, "comm_ms",
                rawSlowdown(job) * twinComm, twinComm, String.format("job %s's comm phases take %.0f ms, %.1f× the twin's "
                    + "%.0f ms (%.1f× its usual)", job, rawSlowdown(job) * twinComm, rawSlowdown(job), twinComm, slowdown)));
        } else {
            bottlenecked.remove(job);
        }
    }

    /** Each job's steady slowdown against the twin, the baseline {@link #slowdown} judges against. */
    @Override
    public String learnedName() {
        return "job-baselines";
    }

    @Override
    public int learnedVersion() {
        return 1;
    }

    /** Each job's learned steady slowdown against the twin (its real collisions), by job id. */
    @Override
    public void writeLearned(final DataOutput out) throws IOException {
        final TreeMap<String, Double> sorted = new TreeMap<>(baselines);
        out.writeInt(sorted.size());
        for (final Map.Entry<String, Double> e : sorted.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeDouble(e.getValue());
            out.writeInt(fitsSeen.getOrDefault(e.getKey(), 0));
        }
    }

    /** A job the new analysis does not run yet keeps its baseline until the replica says it ended. */
    @Override
    public boolean readLearned(final DataInput in, final int version) throws IOException {
        if (version != 1) {
            return false;
        }
        final int jobs = in.readInt();
        for (int i = 0; i < jobs; i++) {
            final String job = in.readUTF();
            baselines.put(job, in.readDouble());
            fitsSeen.put(job, in.readInt());
        }
        return true;
    }

    /**
     * The phase locks as a learned part of their own ({@code phase-locks}): per job id, the alignment of its comm
     * phases to the telemetry (the latest fit and when it was made), the fits the reported slowdown is the median of,
     * and the lock's observation window; an upgraded analysis steers its fresh replica by them at once instead of
     * after two periods and {@link DetectionCalibration.Jobs#smoothing} fits.
     */
    public LearnedPart phaseLocks() {
        return new PhaseLocks();
    }

    private final class PhaseLocks implements LearnedPart {

        @Override
        public String learnedName() {
            return "phase-locks";
        }

        @Override
        public int learnedVersion() {
            return 1;
        }

        @Override
        public void writeLearned(final DataOutput out) throws IOException {
            final TreeMap<String, PhaseLock> sorted = new TreeMap<>(locks);
            sorted.entrySet().removeIf(e -> e.getValue().isEmpty() && !lastFitMs.containsKey(e.getKey())); // nothing yet
            out.writeInt(sorted.size());
            for (final Map.Entry<String, PhaseLock> e : sorted.entrySet()) {
                final String job = e.getKey();
                out.writeUTF(job);
                out.writeLong(lastFitMs.getOrDefault(job, Long.MIN_VALUE));
                final PhaseFit fit = latestFits.get(job);
                out.writeBoolean(fit != null);
                if (fit != null) {
                    out.writeDouble(fit.lastCommStartMs());
                    out.writeDouble(fit.commMs());
                    out.writeDouble(fit.periodMs());
                    out.writeDouble(fit.quality());
                }
                final ArrayDeque<Double> recent = recentSlowdowns.getOrDefault(job, new ArrayDeque<>());
                out.writeInt(recent.size());
                for (final double r : recent) {
                    out.writeDouble(r);
                }
                out.writeInt(failedFits.getOrDefault(job, 0));
                e.getValue().writeWindow(out);
            }
        }

        /** Jobs the new replica does not run from its start (ended, or another placement's ids) are dropped. */
        @Override
        public boolean readLearned(final DataInput in, final int version) throws IOException {
            if (version != 1) {
                return false;
            }
            final int jobs = in.readInt();
            for (int i = 0; i < jobs; i++) {
                final String job = in.readUTF();
                final long fitMs = in.readLong();
                final PhaseFit fit = in.readBoolean()
                    ? new PhaseFit(in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble()) : null;
                final ArrayDeque<Double> recent = new ArrayDeque<>();
                for (int r = in.readInt(); r > 0; r--) {
                    recent.addLast(in.readDouble());
                }
                final int failed = in.readInt();
                final PhaseLock lock = locks.containsKey(job)
                    ? locks.get(job) : new PhaseLock(1, cal.phase()); // read past a job that is gone
                lock.readWindow(in);
                if (!locks.containsKey(job)) {
                    continue;
                }
                if (fitMs != Long.MIN_VALUE) {
                    lastFitMs.put(job, fitMs);
                }
                if (fit != null) {
                    latestFits.put(job, fit);
                    takenBack.add(job);
                }
                if (!recent.isEmpty()) {
                    recentSlowdowns.put(job, recent);
                }
                if (failed > 0) {
                    failedFits.put(job, failed);
                }
            }
            return true;
        }
    }

    /**
     * How much slower than usual the job's comm runs: its slowdown against the twin over the slowdown it showed while
     * healthy. The twin routes with its own hash, so a job's real collisions can make it steadily slower (or faster)
     * than the twin's ideal; that steady ratio is learned ({@link DetectionCalibration.Jobs#baselineLearning} per good
     * fit, only while the job is not bottlenecked, from {@link DetectionCalibration.Jobs#baselineAfter} fits on) and
     * judged against.
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
        if (fits >= cal.baselineAfter()) {
            final double raw = rawSlowdown(job);
            baselines.merge(job, raw, (old, x) -> old + cal.baselineLearning() * (x - old));
        }
    }

    /**
     * The job's comm time over the twin's: the median of its last {@link DetectionCalibration.Jobs#smoothing} good fits
     * (1 if none).
     */
    double rawSlowdown(final String job) {
        final double s = smoothedSlowdown(job);
        return Double.isNaN(s) ? 1 : s;
    }

    /**
     * The median of the job's last {@link DetectionCalibration.Jobs#smoothing} good fits, NaN if none: one odd fit
     * moves nothing.
     */
    private double smoothedSlowdown(final String job) {
        final ArrayDeque<Double> recent = recentSlowdowns.get(job);
        if (recent == null || recent.isEmpty()) {
            return Double.NaN;
        }
        final double[] sorted = recent.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted[sorted.length / 2];
    }

    /**
     * Where the fit says the twin's next comm phase starts, added to {@code retimes} when it is more than
     * {@link DetectionCalibration.Jobs#retimeMs} off the twin's (or off this tick's retime of the job already intended:
     * a second steer of a tick measures against the first); false when the twin is in a comm phase (retry later).
     */
    private boolean steer(final String job, final PhaseFit fit, final List<ReplicaSync.Retime> retimes) {
        double twinNext = twin.nextCommStartMs(job);
        if (Double.isNaN(twinNext)) {
            return false;
        }
        for (final ReplicaSync.Retime r : retimes) {
            if (r.job().equals(job)) {
                twinNext = r.atMs();
            }
        }
        final double observedNext = fit.nextCommStartAfter(twinNext - fit.periodMs() / 2);
        if (Math.abs(observedNext - twinNext) > cal.retimeMs()) {
            retimes.add(new ReplicaSync.Retime(job, observedNext));
        }
        return true;
    }
}
