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
 * {@code STRAGGLER}: one NIC holds its collective back. Its job's comm phases run slower than the twin's (phase
 * lock), and the switch port facing the NIC queues (ECN marks, a queue or a buffer peak beyond the twin) in most of the last
 * {@value #WINDOW} ticks while the NIC takes in well under line rate — it is slow to absorb what its ring sends
 * it. (An incast also queues there, but its NIC receives at line rate; a degraded uplink slows the job without
 * queueing at any NIC.) When more than {@value #JOB_SHARE} of one job's NICs do this at once, no single host is
 * to blame: the job as a whole is held back at its own NICs ({@code JOB_BOTTLENECK}); a few NICs at once but
 * not most ({@value #STRAGGLER_SHARE} to {@value #JOB_SHARE}) is a pattern effect (an incast slowed elsewhere),
 * not a straggler, and is left to the detectors of that cause. Background traffic is not judged: its peers
 * are random and its NICs hold nobody back.
 */
public final class StragglerDetector implements Detector {

    static final int WINDOW = 4;
    /** A straggling NIC receives under this share of line rate over the window. */
    static final double LINE_SHARE = 0.7;
    static final double JOB_SHARE = 0.75;
    /** More slow NICs than this share of the job (and more than one) are not individual stragglers. */
    static final double STRAGGLER_SHARE = 0.1;

    /** By port index (sized to the fabric at the first tick). */
    private Rolling[][] windows;

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        if (windows == null) {
            windows = new Rolling[context.fabric().directedLinkCount()][];
        }
        final Map<String, List<PortTick>> slowByJob = new HashMap<>();
        for (final PlacedJob job : context.twin().jobs()) {
            if (job.spec().pattern() == Pattern.BACKGROUND) {
                continue;
            }
            final boolean jobSlow = context.slowdown(job.id()) > TickContext.SLOW_JOB;
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
                w[2].add(PfcOriginDetector.backedUp(context, sw) ? 1 : 0);
                if (jobSlow && w[0].full() && w[2].sum() > window / 2.0 && w[0].sum() < LINE_SHARE * w[1].sum()) {
                    slowByJob.computeIfAbsent(job.id(), j -> new ArrayList<>()).add(t);
                }
            }
        }
        for (final var e : slowByJob.entrySet()) {
            final PlacedJob job = context.twin().jobs().stream().filter(j -> j.id().equals(e.getKey())).findFirst()
                .orElseThrow();
            final double slowdown = context.slowdown(job.id());
            if (e.getValue().size() > Math.max(1, JOB_SHARE * job.ranks().size())) {
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
                        + "%.1f× slower than the twin's while the switch port facing it queues and it takes in %.0f%% "
                        + "of line rate", p.device(), p.port(), job.id(), slowdown, 100 * w[0].sum() / w[1].sum())));
            }
        }
    }
}
