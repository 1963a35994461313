package dev.fabrictwin.twin.sim;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

import dev.fabrictwin.twin.sim.FluidSimulation.ExplicitFlow;
import dev.fabrictwin.twin.solver.RateAllocator;

/**
 * When flows complete and what their completion leaves: the bytes each flow moves at the rates in force, the flows
 * done (exactly, or coarsely on a completion grid between solves) and the explicit flows' completed runs.
 */
final class Completions implements Serializable {

    private static final double EPS_SECONDS = 1e-9;
    /** Share of a flow's bytes left at which it counts as finished with the flows finishing now. */
    private static final double FINISH_TOLERANCE = 1e-3;

    private final List<SimFlow> flows;
    private final RateAllocator allocator;
    /** Explicit flows (a scenario's {@code flows:}) by the index their start events carry, and their completed runs. */
    private final List<ExplicitFlow> explicitFlows = new ArrayList<>();
    private final List<FlowCompletion> flowCompletions = new ArrayList<>();
    /**
     * Coarse completions ({@link FluidSimulation#setCompletionGrid}): 0 re-solves at every flow completion (exact);
     * else a flow that completes between solves leaves its links at once and the others take up what it freed at the
     * next multiple of this many seconds.
     */
    private double grid;
    /** Coarse completions: when the rates in force were solved (every flow's bytes are counted up to then). */
    private double solvedAt;
    /** Coarse completions: the flows that finish at the rates in force, by finish time, and the next one due. */
    private SimFlow[] dueOrder = new SimFlow[0];
    private int dueNext;
    /** Coarse completions: when the first flow completed since the last solve (infinite: none has). */
    private double completedSince = Double.POSITIVE_INFINITY;

    /** Over the simulation's flows in flight (the list it keeps), at the allocator's rates. */
    Completions(final List<SimFlow> flows, final RateAllocator allocator) {
        this.flows = flows;
        this.allocator = allocator;
    }

    void setGrid(final double seconds) {
        grid = seconds;
    }

    /** Whether completions are coarse (on a grid) rather than exact. */
    boolean coarse() {
        return grid > 0;
    }

    /** When the next flow completes at today's rates; notes each flow's rate for {@link #advance}, which follows. */
    double nextExact(final double now) {
        double t = Double.POSITIVE_INFINITY;
        for (final SimFlow f : flows) {
            final double rate = f.rate(allocator);
            f.rateNow = rate;
            if (rate > 0 && Double.isFinite(f.remainingBytes)) {
                t = Math.min(t, now + f.remainingBytes * 8 / rate);
            }
        }
        return t;
    }

    /** Moves every flow's bytes from now to {@code t} at the rates {@link #nextExact} just noted. */
    void advance(final double now, final double t) {
        final double dt = t - now;
        if (dt > 0) {
            for (final SimFlow f : flows) {
                if (Double.isFinite(f.remainingBytes)) {
                    f.remainingBytes -= f.rateNow * dt / 8;
                }
            }
        }
    }

    /**
     * Removes flows whose bytes are delivered, together with those within {@link #FINISH_TOLERANCE} of their size of
     * done (one event for a cluster of near-simultaneous completions instead of one each: an all-to-all's thousands
     * of flows end in clusters); returns them in the order their completions are to be handled.
     */
    List<SimFlow> finishExactly() {
        final List<SimFlow> done = new ArrayList<>();
        flows.removeIf(f -> {
            if (Double.isFinite(f.totalBytes) && f.remainingBytes <= Math.max(1.0, f.totalBytes * FINISH_TOLERANCE)) {
                f.release(allocator);
                done.add(f);
                return true;
            }
            return false;
        });
        Collections.reverse(done);
        return done;
    }

    /** Coarse completions: when the next flow finishes at the rates in force (infinite: none). */
    double nextDue() {
        return dueNext < dueOrder.length ? dueOrder[dueNext].finishAt : Double.POSITIVE_INFINITY;
    }

    /** Coarse completions: the next grid instant after the first completion since the last solve (infinite: none). */
    double nextSolve() {
        return completedSince < Double.POSITIVE_INFINITY
            ? (Math.floor(completedSince / grid + EPS_SECONDS) + 1) * grid : Double.POSITIVE_INFINITY;
    }

    /** Coarse completions: the next flow due by now, taken off the order, or null. */
    SimFlow pollDue(final double now) {
        final boolean due = dueNext < dueOrder.length && dueOrder[dueNext].finishAt <= now + EPS_SECONDS;
        return due ? dueOrder[dueNext++] : null;
    }

    /** Coarse completions: the flow's bytes are delivered now; it stays listed until the next solve. */
    void completeCoarsely(final SimFlow f, final double now) {
        f.remainingBytes = 0;
        f.rateNow = 0;
        f.release(allocator);
        f.delivered = true; // it stays in the list until the next solve: nothing may route it again
        completedSince = Math.min(completedSince, now);
    }

    /** Coarse completions, before a solve: every flow's bytes counted up to now, completed flows dropped. */
    void beforeSolve(final double now) {
        final double dt = now - solvedAt;
        flows.removeIf(f -> f.delivered || f.ids.length == 0 && f.remainingBytes == 0);
        if (dt > 0) {
            for (final SimFlow f : flows) {
                if (Double.isFinite(f.remainingBytes)) {
                    f.remainingBytes = Math.max(0, f.remainingBytes - f.rateNow * dt / 8);
                }
            }
        }
        solvedAt = now;
        completedSince = Double.POSITIVE_INFINITY;
    }

    /** Coarse completions, after a solve: each flow's rate and finish time, the finishing ones in order. */
    void afterSolve(final double now) {
        final List<SimFlow> finishing = new ArrayList<>();
        for (final SimFlow f : flows) {
            f.rateNow = f.rate(allocator);
            f.finishAt = f.rateNow > 0 && Double.isFinite(f.remainingBytes) ? now + f.remainingBytes * 8 / f.rateNow
                : Double.POSITIVE_INFINITY;
            if (f.finishAt < Double.POSITIVE_INFINITY) {
                finishing.add(f);
            }
        }
        finishing.sort(Comparator.comparingDouble(f -> f.finishAt));
        dueOrder = finishing.toArray(new SimFlow[0]);
        dueNext = 0;
    }

    /** Registers an explicit flow; the index its start events carry. */
    int addExplicit(final ExplicitFlow flow) {
        explicitFlows.add(flow);
        return explicitFlows.size() - 1;
    }

    ExplicitFlow explicit(final int index) {
        return explicitFlows.get(index);
    }

    /** A flow's bytes are all delivered now: an explicit flow's run is recorded. */
    void delivered(final SimFlow f, final double now) {
        if (f.explicit >= 0) {
            final ExplicitFlow x = explicitFlows.get(f.explicit);
            final int round = x.repeat() > 0 ? (int) Math.round((f.startedAt - x.start()) / x.repeat()) : 0;
            flowCompletions.add(new FlowCompletion(x.id(), round, f.startedAt, now));
        }
    }

    List<FlowCompletion> flowCompletions() {
        return List.copyOf(flowCompletions);
    }

    /** Forgets the runs completed before {@code t}. */
    void forgetBefore(final double t) {
        flowCompletions.removeIf(r -> r.end() < t);
    }
}
