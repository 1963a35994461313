package dev.fabrictwin.analyzer.detect;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.workload.PlacedJob;

/**
 * {@code STRAGGLER}: one NIC that takes in less than its collective sends it. The switch port facing it queues
 * (and marks, and pauses upstream) beyond the twin while the NIC receives well under what the twin expects —
 * over {@value #WINDOW} ticks, so phase does not matter. An incast looks congested too, but its NIC receives
 * at least what the twin says; a slow NIC does not. When more than {@value #JOB_SHARE} of one job's NICs do
 * this at once, no single host is to blame: the job as a whole is held back ({@code JOB_BOTTLENECK}).
 */
public final class StragglerDetector implements Detector {

    static final int WINDOW = 4;
    static final double RECEIVED_SHARE = 0.7;
    static final double JOB_SHARE = 0.25;

    private final Map<PortRef, Rolling[]> windows = new HashMap<>();

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        final List<PortRef> slow = new ArrayList<>();
        for (final PortTick nic : context.ports().values()) {
            if (!context.isHost(nic.port().device())) {
                continue;
            }
            final PortRef facing = context.peer(nic.port());
            final PortTick sw = facing == null ? null : context.port(facing);
            final Rolling[] w = windows.computeIfAbsent(nic.port(),
                p -> new Rolling[] {new Rolling(WINDOW), new Rolling(WINDOW), new Rolling(WINDOW)});
            if (sw == null || nic.unreliable() || TickContext.down(nic)) {
                for (final Rolling r : w) {
                    r.clear();
                }
                continue;
            }
            w[0].add(nic.observed(CounterNames.RX_BYTES));
            w[1].add(nic.expected(CounterNames.RX_BYTES));
            w[2].add(PfcOriginDetector.congested(context, sw) ? 1 : 0);
            if (w[0].full() && w[2].sum() >= WINDOW / 2.0 && w[0].sum() < RECEIVED_SHARE * w[1].sum()) {
                slow.add(nic.port());
            }
        }
        final Map<String, List<PortRef>> byJob = new HashMap<>();
        for (final PortRef p : slow) {
            final PlacedJob job = jobOf(context, p);
            byJob.computeIfAbsent(job == null ? "" : job.id(), j -> new ArrayList<>()).add(p);
        }
        for (final var e : byJob.entrySet()) {
            final PlacedJob job = context.twin().jobs().stream().filter(j -> j.id().equals(e.getKey())).findFirst()
                .orElse(null);
            if (job != null && e.getValue().size() > Math.max(1, JOB_SHARE * job.ranks().size())) {
                out.add(Finding.root(FaultType.JOB_BOTTLENECK, Entity.job(job.id()), "slow_nics", e.getValue().size(),
                    0, Finding.Severity.WARNING, String.format("job %s is held back at its own NICs: %d of %d take in "
                        + "less than %.0f%% of what the twin expects while their switch ports queue", job.id(),
                        e.getValue().size(), job.ranks().size(), 100 * RECEIVED_SHARE)));
                continue;
            }
            for (final PortRef p : e.getValue()) {
                final Rolling[] w = windows.get(p);
                out.add(Finding.root(FaultType.STRAGGLER, Entity.port(p), "rx_share_of_twin", w[0].sum() / w[1].sum(), 1,
                    Finding.Severity.WARNING, String.format("%s %s is a straggler: it takes in %.0f%% of what the twin "
                        + "expects while the switch port facing it queues%s", p.device(), p.port(),
                        100 * w[0].sum() / w[1].sum(), job == null ? "" : "; job " + e.getKey() + " waits for it")));
            }
        }
    }

    private static PlacedJob jobOf(final TickContext context, final PortRef nic) {
        for (final PlacedJob j : context.twin().jobs()) {
            if (j.ranks().contains(nic)) {
                return j;
            }
        }
        return null;
    }
}
