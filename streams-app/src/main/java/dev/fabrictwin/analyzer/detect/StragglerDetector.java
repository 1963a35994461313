package dev.fabrictwin.analyzer.detect;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.workload.Pattern;
import dev.fabrictwin.twin.workload.PlacedJob;

/**
 * {@code STRAGGLER}: one NIC holds its collective back. Its job's comm phases run slower than usual (phase lock: over
 * {@link DetectionCalibration.Jobs#slowdown}×), and the switch port facing the NIC queues (ECN marks, a queue or a
 * buffer peak beyond the twin) in most of the last {@link DetectionCalibration.Straggler#windowTicks} ticks while the
 * NIC takes in well under line rate ({@link #starved}) — it is slow to absorb what its ring sends it. (An incast also
 * queues there, but its NIC receives at line rate; a degraded uplink slows the job without queueing at any NIC.) When
 * more than {@link DetectionCalibration.Straggler#jobShare} of one job's NICs do this at once ({@link #wholeJob}), no
 * single host is to blame: the job as a whole is held back at its own NICs ({@code JOB_BOTTLENECK}); a few NICs at once
 * but not most ({@link DetectionCalibration.Straggler#stragglerShare} to the job share: {@link #pattern}) is a pattern
 * effect (an incast slowed elsewhere), not a straggler, and is left to the detectors of that cause. Background traffic
 * is not judged: its peers are random and its NICs hold nobody back.
 *
 * <p>The job's slowdown is an average over several ticks (iterations, or ten ticks when a sample spans most of one) and
 * wavers while a slowdown sets in (1.51, 1.10, 1.49 on one run), so it names a straggler ticks after the NIC shows it.
 * In a lock-step job (a ring: each NIC takes in from one neighbour, and the ring runs at its slowest hop's pace) a
 * facing port that was usually calm before the window (backed up in at most
 * {@link DetectionCalibration.Straggler#calmShare} of its last 64 ticks, at least
 * {@link DetectionCalibration.Straggler#calmPastTicks} of them known) and now queues in most of it is a change,
 * evidence of its own: the job then needs only to run over {@link DetectionCalibration.Jobs#recovered}× slower in this
 * tick or the one before, if its estimate was steady before (within that of usual in all but
 * {@link DetectionCalibration.Straggler#unsteadyShare} of its last 64 ticks): a job whose estimate wavers (0.6× to 1.3×
 * on a healthy all-to-all) would lend its swings to any port that happens to queue. A port that queues beyond the twin
 * in more of its past (a buffer or threshold the twin does not know) is no change, and an all-to-all's NIC takes in
 * from every peer at once (its port queueing in bursts is its incasts, not a change: 4 false stragglers in a healthy 2
 * h run when it counted); all these are judged on the job's slowdown alone.
 */
final class StragglerDetector implements Detector {

    /** By port index (sized to the fabric at the first tick). */
    private Rolling[][] windows;
    /** By port index: whether its facing port backed up in each of the 64 ticks before the window (newest lowest). */
    private long[] pastBacked;
    private byte[] pastKnown;
    /**
     * Per job, its slowdown in the last {@link DetectionCalibration.Straggler#recentTicks} and the 64 before (newest
     * last).
     */
    private final Map<String, ArrayDeque<Double>> slowdowns = new HashMap<>();
    /**
     * By job (the replica's instance of it: a job placed again is another), its ranks' port indexes, -1 for one not
     * cabled: no lookup by name per rank and tick. Made again after a restart; at most one more entry than the jobs
     * running.
     */
    private transient Map<PlacedJob, int[]> rankPorts;

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        final DetectionCalibration.Straggler cal = context.config().calibration().straggler();
        final DetectionCalibration.Jobs jobs = context.config().calibration().jobs();
        if (windows == null) {
            windows = new Rolling[context.fabric().directedLinkCount()][];
            pastBacked = new long[windows.length];
            pastKnown = new byte[windows.length];
        }
        if (rankPorts != null && rankPorts.size() > context.twin().jobs().size()) {
            rankPorts = null; // a job ended or was placed again: made again for the jobs running
        }
        final Map<String, List<PortTick>> slowByJob = new HashMap<>();
        final Set<String> judged = new HashSet<>();
        for (final PlacedJob job : context.twin().jobs()) {
            if (job.spec().pattern() == Pattern.BACKGROUND) {
                continue;
            }
            judged.add(job.id());
            final int recent = context.ticks(cal.recentTicks());
            record(job.id(), context.slowdown(job.id()), recent);
            final boolean jobSlow = context.slowdown(job.id()) > jobs.slowdown();
            final boolean jobSlower = job.spec().pattern().lockStep() && steadyUntilNow(job.id(), recent, cal, jobs)
                && highest(job.id(), recent) > jobs.recovered();
            for (final int nic : rankPorts(context, job)) {
                final PortTick t = context.port(nic);
                final PortTick sw = t == null ? null : context.peerOf(t);
                if (t == null || sw == null || t.unreliable() || TickContext.down(t)) {
                    continue;
                }
                final int window = context.ticks(cal.windowTicks());
                if (windows[t.index()] == null) {
                    windows[t.index()] = new Rolling[] {new Rolling(window), new Rolling(window), new Rolling(window)};
                }
                final Rolling[] w = windows[t.index()];
                w[0].add(t.observed(CounterIndex.RX_BYTES));
                w[1].add(context.capacityBps(t) / 8 * t.seconds());
                if (w[2].full()) {
                    remember(t.index(), w[2].ago(window - 1) > 0); // the tick leaving the window joins the past
                }
                w[2].add(PfcOriginDetector.backedUp(context, sw) ? 1 : 0);
                final boolean slow = jobSlow || jobSlower && usuallyCalm(t.index(), cal);
                if (slow && w[0].full() && w[2].sum() > window / 2.0 && starved(w[0].sum(), w[1].sum(), cal)) {
                    slowByJob.computeIfAbsent(job.id(), j -> new ArrayList<>()).add(t);
                }
            }
        }
        slowdowns.keySet().retainAll(judged); // a job that ended
        for (final var e : slowByJob.entrySet()) {
            final PlacedJob job = context.twin().jobs().stream().filter(j -> j.id().equals(e.getKey())).findFirst()
                .orElseThrow();
            final double slowdown = context.slowdown(job.id());
            if (wholeJob(e.getValue().size(), job.ranks().size(), cal)) {
                if (slowdown <= jobs.slowdown()) {
                    continue; // the whole job held back is judged on its slowdown now, as the phase lock judges it
                }
                out.add(Finding.root(FaultType.JOB_BOTTLENECK, Entity.job(job.id()), "slowdown", slowdown, 1,
                    Severity.WARNING, String.format("job %s's comm runs %.1f× slower than the twin's, held back "
                        + "at its own NICs: %d of %d are slow to take in what they are sent", job.id(), slowdown,
                        e.getValue().size(), job.ranks().size())));
                continue;
            }
            if (pattern(e.getValue().size(), job.ranks().size(), cal)) {
                continue;
            }
            for (final PortTick nic : e.getValue()) {
                final PortRef p = nic.port();
                final Rolling[] w = windows[nic.index()];
                out.add(Finding.root(FaultType.STRAGGLER, Entity.port(p), "rx_line_share", w[0].sum() / w[1].sum(),
                    cal.lineShare(), Severity.WARNING, String.format("%s %s is a straggler: job %s's comm runs "
                        + "up to %.1f× slower than usual while the switch port facing it queues and it takes in %.0f%% "
                        + "of line rate", p.device(), p.port(), job.id(), highest(job.id(), context.ticks(cal.recentTicks())),
                    100 * w[0].sum() / w[1].sum())));
            }
        }
    }

    private void remember(final int port, final boolean backed) {
        pastBacked[port] = pastBacked[port] << 1 | (backed ? 1 : 0);
        pastKnown[port] = (byte) Math.min(Long.SIZE, pastKnown[port] + 1);
    }

    /** A NIC taking in under the straggler's share of line rate over the window: slow to absorb what it is sent. */
    static boolean starved(final double rxBytes, final double lineBytes, final DetectionCalibration.Straggler cal) {
        return rxBytes < cal.lineShare() * lineBytes;
    }

    /** More than the job share of a job's NICs (and more than one) slow at once: the job is held back at its NICs. */
    static boolean wholeJob(final int slowNics, final int ranks, final DetectionCalibration.Straggler cal) {
        return slowNics > Math.max(1, cal.jobShare() * ranks);
    }

    /** More than the straggler share of a job's NICs (and more than one) slow at once: a pattern, not a straggler. */
    static boolean pattern(final int slowNics, final int ranks, final DetectionCalibration.Straggler cal) {
        return slowNics > Math.max(1, cal.stragglerShare() * ranks);
    }

    /** The facing port's past is known well enough and it backed up in at most the calm share of it. */
    static boolean usuallyCalm(final int backedTicks, final int knownTicks, final DetectionCalibration.Straggler cal) {
        return knownTicks >= cal.calmPastTicks() && backedTicks <= cal.calmShare() * knownTicks;
    }

    private boolean usuallyCalm(final int port, final DetectionCalibration.Straggler cal) {
        return usuallyCalm(Long.bitCount(pastBacked[port]), pastKnown[port], cal);
    }

    private void record(final String job, final double slowdown, final int ticks) {
        final ArrayDeque<Double> recent = slowdowns.computeIfAbsent(job, j -> new ArrayDeque<>());
        recent.addLast(slowdown);
        if (recent.size() > ticks + Long.SIZE) {
            recent.removeFirst();
        }
    }

    /** The job's highest slowdown in its last {@code ticks} ticks. */
    private double highest(final String job, final int ticks) {
        final ArrayDeque<Double> all = slowdowns.get(job);
        return all.stream().skip(Math.max(0, all.size() - ticks)).mapToDouble(Double::doubleValue).max().orElseThrow();
    }

    /** Whether the job's slowdown stayed near usual before its last {@code ticks} ticks (enough of them known). */
    private boolean steadyUntilNow(final String job, final int ticks, final DetectionCalibration.Straggler cal,
                                   final DetectionCalibration.Jobs jobs) {
        final ArrayDeque<Double> all = slowdowns.get(job);
        final int past = all.size() - ticks;
        final long strayed = all.stream().limit(Math.max(0, past))
            .filter(x -> x > jobs.recovered() || x < 1 / jobs.recovered()).count();
        return past >= cal.calmPastTicks() && strayed <= cal.unsteadyShare() * past;
    }

    private int[] rankPorts(final TickContext context, final PlacedJob job) {
        if (rankPorts == null) {
            rankPorts = new IdentityHashMap<>();
        }
        return rankPorts.computeIfAbsent(job, j -> j.ranks().stream().mapToInt(context.fabric()::portIndex).toArray());
    }
}
