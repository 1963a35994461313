package dev.fabrictwin.twin.sim;

import java.io.Serializable;
import java.util.Arrays;

/**
 * Per directed link (and per node) conditions that faults set: capacity factors, link state, loss,
 * errors, injected latency, ECN on/off, a stuck port's pause. Recomputed from scratch from the set of
 * active faults whenever one starts or ends, so overlapping faults compose by multiplication.
 */
final class Conditions implements Serializable {

    final double[] capacityFactor;
    final boolean[] linkUp;          // per physical link
    final double[] dropFraction;
    final double[] fecPerBit;
    final double[] crcPerPacket;
    final double[] addedLatencyUs;
    final double[] stormPause;       // directed link held paused by a stuck receiver
    final boolean[] ecnEnabled;      // per node (its egress ports)
    final double[] skew;             // per node
    /** ECN marking where no fault turns it off: false for a PFC-only transport. */
    boolean ecnByDefault = true;

    Conditions(final int directedLinks, final int links, final int nodes) {
        capacityFactor = new double[directedLinks];
        linkUp = new boolean[links];
        dropFraction = new double[directedLinks];
        fecPerBit = new double[directedLinks];
        crcPerPacket = new double[directedLinks];
        addedLatencyUs = new double[directedLinks];
        stormPause = new double[directedLinks];
        ecnEnabled = new boolean[nodes];
        skew = new double[nodes];
        reset();
    }

    void reset() {
        Arrays.fill(capacityFactor, 1.0);
        Arrays.fill(linkUp, true);
        Arrays.fill(dropFraction, 0);
        Arrays.fill(fecPerBit, 0);
        Arrays.fill(crcPerPacket, 0);
        Arrays.fill(addedLatencyUs, 0);
        Arrays.fill(stormPause, 0);
        Arrays.fill(ecnEnabled, ecnByDefault);
        Arrays.fill(skew, 0);
    }

    void scaleBoth(final int link, final double factor) {
        capacityFactor[2 * link] *= factor;
        capacityFactor[2 * link + 1] *= factor;
    }
}
