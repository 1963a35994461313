package dev.fabrictwin.twin.sim;

import java.io.Serializable;

import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.routing.Route;
import dev.fabrictwin.twin.solver.RateAllocator;
import dev.fabrictwin.twin.workload.FlowClass;

/** One transfer in flight, on one route (ECMP) or several (spray). */
final class SimFlow implements Serializable {
    final JobState job;
    final PortRef source;
    final PortRef destination;
    final double totalBytes;
    final double naturalDemand;
    final int rogueFault;
    final long key;
    final boolean lockStep;
    double remainingBytes;
    Route[] routes = new Route[0];
    int[] ids = new int[0];
    boolean capped;
    /** Completed between two solves (coarse completions), still listed until the next one. */
    boolean delivered;
    /** Its rate since the last solve, noted once per step of {@link FluidSimulation#runUntil}. */
    double rateNow;
    /** Coarse completions: when it finishes at the rates in force. */
    double finishAt = Double.POSITIVE_INFINITY;
    /** The class of flows this one stands for (a large all-to-all), else null. */
    FlowClass flowClass;
    /** Index of the explicit flow this runs (-1 for a job's or a fault's) and when this run started. */
    int explicit = -1;
    double startedAt;
    /** Its share of its NIC's capacity (PFC without congestion control, {@link PfcCoupling#pushNicShares}), else infinite. */
    double nicShare = Double.POSITIVE_INFINITY;
    /** The directed link its NIC sends on (looked up once: it is on every hot path). */
    final int nicLink;

    SimFlow(final JobState job, final PortRef source, final PortRef destination, final double bytes,
            final double naturalDemand, final int rogueFault, final long key, final boolean lockStep,
            final int nicLink) {
        this.nicLink = nicLink;
        this.job = job;
        this.source = source;
        this.destination = destination;
        this.totalBytes = bytes;
        this.remainingBytes = bytes;
        this.naturalDemand = naturalDemand;
        this.rogueFault = rogueFault;
        this.key = key;
        this.lockStep = lockStep;
    }

    /** Its demand: what it asks for, within its NIC's share when the transport has no congestion control. */
    double demand() {
        return Math.min(naturalDemand, nicShare);
    }

    double rate(final RateAllocator a) {
        double r = 0;
        for (final int id : ids) {
            r += a.rate(id);
        }
        return r;
    }

    void setDemand(final RateAllocator a, final double demand) {
        for (int i = 0; i < ids.length; i++) {
            a.setDemand(ids[i], demand * routes[i].weight());
        }
    }

    void release(final RateAllocator a) {
        for (final int id : ids) {
            a.removeFlow(id);
        }
        ids = new int[0];
    }
}
