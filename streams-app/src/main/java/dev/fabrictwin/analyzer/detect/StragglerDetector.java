package dev.fabrictwin.analyzer.detect;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
 * {@link TickContext#SLOW_JOB}×), and the switch port facing the NIC queues (ECN marks, a queue or a buffer peak beyond
 * the twin) in most of the last {@value #WINDOW} ticks while the NIC takes in well under line rate — it is slow to
 * absorb what its ring sends it. (An incast also queues there, but its NIC receives at line rate; a degraded uplink
 * slows the job without queueing at any NIC.) When more than {@value #JOB_SHARE} of one job's NICs do this at once,
 * no single host is to blame: the job as a whole is held back at its own NICs ({@code JOB_BOTTLENECK}); a few NICs at
 * once but not most ({@value #STRAGGLER_SHARE} to {@value #JOB_SHARE}) is a pattern effect (an incast slowed
 * elsewhere), not a straggler, and is left to the detectors of that cause. Background traffic is not judged: its
 * peers are random and its NICs hold nobody back.
 *
 * <p>The job's slowdown is an average over several ticks (iterations, or ten ticks when a sample spans most of one)
 * and wavers while a slowdown sets in (1.51, 1.10, 1.49 on one run), so it names a straggler ticks after the NIC
 * shows it. In a lock-step job (a ring: each NIC takes in from one neighbour, and the ring runs at its slowest hop's
 * pace) a facing port that was usually calm before the window (backed up in at most {@value #CALM_SHARE} of its last
 * 64 ticks, at least {@value #CALM_PAST} of them known) and now queues in most of it is a change, evidence of its
 * own: the job then needs only to run over {@value #JOB_SLOWER}× slower in this tick or the one before, if its
 * estimate was steady before (within {@value #JOB_SLOWER}× of usual in all but {@value #UNSTEADY_SHARE} of its last 64
 * ticks): a job whose estimate wavers (0.6× to 1.3× on a healthy all-to-all) would lend its swings to any port that
 * happens to queue. A port that queues beyond the twin in more of its past (a buffer or threshold the twin does not
 * know) is no change, and an all-to-all's NIC takes in from every peer at once (its port queueing in bursts is its
 * incasts, not a change: 4 false stragglers in a healthy 2 h run when it counted); all these are judged on the job's
 * slowdown alone.
 */
public final class StragglerDetector implements Detector {

    static final int WINDOW = 4;
    /** A straggling NIC receives under this share of line rate over the window. */
    static final double LINE_SHARE = 0.7;
    static final double JOB_SHARE = 0.75;
    /** More slow NICs than this share of the job (and more than one) are not individual stragglers. */
    static final double STRAGGLER_SHARE = 0.1;
    /**
     * The job's slowdown that, with a usually calm port's change, makes a straggler: the figure below which the phase
     * lock calls a bottlenecked job recovered ({@code JobHealthTracker.RECOVERED}), not the higher one that opens a
     * bottleneck on the job's slowdown alone.
     */
    static final double JOB_SLOWER = 1.15;
    /** Ticks of a facing port's past (before the window) that must be known before it can be called usually calm. */
    static final int CALM_PAST = 32;
    /** A port backed up in at most this share of its past ticks is usually calm. */
    static final double CALM_SHARE = 0.25;
    /** Ticks (at 1 s) of the job's slowdown the lesser threshold looks back over: the estimate wavers tick to tick. */
    static final int RECENT = 2;
    /** A job whose slowdown strayed past {@value #JOB_SLOWER}× of usual (either way) in more of its past wavers. */
    static final double UNSTEADY_SHARE = 0.1;

    /** By port index (sized to the fabric at the first tick). */
    private Rolling[][] windows;
    /** By port index: whether its facing port backed up in each of the 64 ticks before the window (newest lowest). */
    private long[] pastBacked;
    private byte[] pastKnown;
    /** Per job, its slowdown in the last {@value #RECENT} ticks and the 64 before (newest last). */
    private final Map<String, java.util.ArrayDeque<Double>> slowdowns = new HashMap<>();

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        if (windows == null) {
            windows = new Rolling[context.fabric().directedLinkCount()][];
            pastBacked = new long[windows.length];
            pastKnown = new byte[windows.length];
        }
        final Map<String, List<PortTick>> slowByJob = new HashMap<>();
        final java.util.Set<String> judged = new java.util.HashSet<>();
        for (final PlacedJob job : context.twin().jobs()) {
            if (job.spec().pattern() == Pattern.BACKGROUND) {
                continue;
            }
            judged.add(job.id());
            record(job.id(), context.slowdown(job.id()), context.ticks(RECENT));
            final boolean jobSlow = context.slowdown(job.id()) > TickContext.SLOW_JOB;
            final boolean jobSlower = job.spec().pattern().lockStep() && steadyUntilNow(job.id(), context.ticks(RECENT))
                && highest(job.id(), context.ticks(RECENT)) > JOB_SLOWER;
            for (final PortRef nic : job.ranks()) {
                final PortTick t = context.port(nic);
                final PortTick sw = t == null ? null : context.peerOf(t);
                if (t == null || sw == null || t.unreliable() || TickContext.down(t)) {
                    continue;
                }
                final int window = context.ticks(WINDOW);
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
                final boolean slow = jobSlow || jobSlower && usuallyCalm(t.index());
                if (slow && w[0].full() && w[2].sum() > window / 2.0 && w[0].sum() < LINE_SHARE * w[1].sum()) {
                    slowByJob.computeIfAbsent(job.id(), j -> new ArrayList<>()).add(t);
                }
            }
        }
        slowdowns.keySet().retainAll(judged); // a job that ended
        for (final var e : slowByJob.entrySet()) {
            final PlacedJob job = context.twin().jobs().stream().filter(j -> j.id().equals(e.getKey())).findFirst()
                .orElseThrow();
            final double slowdown = context.slowdown(job.id());
            if (e.getValue().size() > Math.max(1, JOB_SHARE * job.ranks().size())) {
                if (slowdown <= TickContext.SLOW_JOB) {
                    continue; // the whole job held back is judged on its slowdown now, as the phase lock judges it
                }
                out.add(Finding.root(FaultType.JOB_BOTTLENECK, Entity.job(job.id()), "slowdown", slowdown, 1,
                    Severity.WARNING, String.format("job %s's comm runs %.1f× slower than the twin's, held back "
                        + "at its own NICs: %d of %d are slow to take in what they are sent", job.id(), slowdown,
                        e.getValue().size(), job.ranks().size())));
                continue;
            }
            if (e.getValue().size() > Math.max(1, STRAGGLER_SHARE * job.ranks().size())) {
                continue;
            }
            for (final PortTick nic : e.getValue()) {
                final PortRef p = nic.port();
                final Rolling[] w = windows[nic.index()];
                out.add(Finding.root(FaultType.STRAGGLER, Entity.port(p), "rx_line_share", w[0].sum() / w[1].sum(),
                    LINE_SHARE, Severity.WARNING, String.format("%s %s is a straggler: job %s's comm runs "
                        + "up to %.1f× slower than usual while the switch port facing it queues and it takes in %.0f%% "
                        + "of line rate", p.device(), p.port(), job.id(), highest(job.id(), context.ticks(RECENT)),
                    100 * w[0].sum() / w[1].sum())));
            }
        }
    }

    private void remember(final int port, final boolean backed) {
        pastBacked[port] = pastBacked[port] << 1 | (backed ? 1 : 0);
        pastKnown[port] = (byte) Math.min(Long.SIZE, pastKnown[port] + 1);
    }

    private boolean usuallyCalm(final int port) {
        return pastKnown[port] >= CALM_PAST && Long.bitCount(pastBacked[port]) <= CALM_SHARE * pastKnown[port];
    }

    private void record(final String job, final double slowdown, final int ticks) {
        final java.util.ArrayDeque<Double> recent = slowdowns.computeIfAbsent(job, j -> new java.util.ArrayDeque<>());
        recent.addLast(slowdown);
        if (recent.size() > ticks + Long.SIZE) {
            recent.removeFirst();
        }
    }

    /** The job's highest slowdown in its last {@code ticks} ticks. */
    private double highest(final String job, final int ticks) {
        final java.util.ArrayDeque<Double> all = slowdowns.get(job);
        return all.stream().skip(Math.max(0, all.size() - ticks)).mapToDouble(Double::doubleValue).max().orElseThrow();
    }

    /** Whether the job's slowdown stayed near usual before its last {@code ticks} ticks (enough of them known). */
    private boolean steadyUntilNow(final String job, final int ticks) {
        final java.util.ArrayDeque<Double> all = slowdowns.get(job);
        final int past = all.size() - ticks;
        final long strayed = all.stream().limit(Math.max(0, past))
            .filter(x -> x > JOB_SLOWER || x < 1 / JOB_SLOWER).count();
        return past >= CALM_PAST && strayed <= UNSTEADY_SHARE * past;
    }
}
