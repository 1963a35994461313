package dev.fabrictwin.twin.sim;

import java.io.Serializable;
import java.util.List;

import dev.fabrictwin.twin.solver.RateAllocator;

/**
 * Lock-step collectives (ring, hierarchical) run every flow at the pace of the slowest, as a ring does: the max-min
 * rates, then each lock-step job's flows capped at its slowest flow's rate and solved again.
 */
final class LockStep implements Serializable {

    private final List<SimFlow> flows;
    private final RateAllocator allocator;
    private final RouteTable table;
    private final JobClock clock;

    /** Over the simulation's flows in flight (the list it keeps) and its jobs. */
    LockStep(final List<SimFlow> flows, final RateAllocator allocator, final RouteTable table, final JobClock clock) {
        this.flows = flows;
        this.allocator = allocator;
        this.table = table;
        this.clock = clock;
    }

    /** Max-min rates, then lock-step groups capped at their slowest member and re-solved. */
    void solve() {
        if (!table.anyLockStep) {
            allocator.resolve();
            return;
        }
        for (final SimFlow f : flows) {
            if (f.lockStep && f.capped) {
                f.setDemand(allocator, f.demand());
                f.capped = false;
            }
        }
        allocator.resolve();
        for (final JobState j : clock.all()) {
            j.minRate = Double.POSITIVE_INFINITY;
        }
        for (final SimFlow f : flows) {
            if (f.lockStep) {
                f.job.minRate = Math.min(f.job.minRate, f.rate(allocator));
            }
        }
        for (final SimFlow f : flows) {
            if (f.lockStep && f.rate(allocator) > f.job.minRate * (1 + 1e-9)) {
                f.setDemand(allocator, f.job.minRate);
                f.capped = true;
            }
        }
        allocator.resolve();
    }
}
