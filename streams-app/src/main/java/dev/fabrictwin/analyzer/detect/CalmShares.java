package dev.fabrictwin.analyzer.detect;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.Arrays;

import dev.fabrictwin.analyzer.DetectionCalibration;

/**
 * The shares an ECMP group's members carried in its last {@link DetectionCalibration.Ecmp#calmWindows} windows
 * judged calm: what this group's
 * hash does with the flows that cross it. A run's hash is fixed, so a group unlucky from the first tick stays as
 * unlucky: its busiest share is this fabric's normal, and only a member rising above what it carried before is a
 * change worth a second piece of evidence. A window enters the past only once it is a whole window old and nothing
 * was found meanwhile: a sliding window ramps into a new share over its ticks, and learning the ramp's first windows
 * as calm would raise the past just ahead of the change. Floats: at 32k GPUs a few thousand groups of up to 64
 * members.
 */
final class CalmShares implements Serializable {

    /** Windows kept per member. */
    private final int history;
    /** Windows a group must have been seen calm before it has a past to depart from. */
    private final int learned;
    private final float[][] shares;
    /** The twin's flows over the group (their count) in each calm window kept, beside its shares. */
    private final int[] flows;
    /** The bytes the group carried in each calm window kept. */
    private final float[] totals;
    private final ArrayDeque<double[]> pending = new ArrayDeque<>();
    private final int delay;
    private int next;
    private int count;

    /** {@code delay}: windows a calm window waits before it counts (the sliding window's length in ticks). */
    CalmShares(final int members, final int delay, final DetectionCalibration.Ecmp cal) {
        this.history = cal.calmWindows();
        this.learned = cal.calmLearned();
        this.shares = new float[members][history];
        this.flows = new int[history];
        this.totals = new float[history];
        this.delay = delay;
    }

    private CalmShares(final int history, final int learned, final float[][] shares, final int[] flows,
                       final float[] totals, final int delay, final int next, final int count) {
        this.history = history;
        this.learned = learned;
        this.shares = shares;
        this.flows = flows;
        this.totals = totals;
        this.delay = delay;
        this.next = next;
        this.count = count;
    }

    /** The calm windows kept, for a checkpoint's learned section (windows still pending are not: they may be a ramp). */
    void write(final DataOutput out) throws IOException {
        out.writeInt(shares.length);
        out.writeInt(history);
        out.writeInt(learned);
        out.writeInt(delay);
        out.writeInt(next);
        out.writeInt(count);
        for (final float[] member : shares) {
            for (final float v : member) {
                out.writeFloat(v);
            }
        }
        for (int i = 0; i < history; i++) {
            out.writeInt(flows[i]);
            out.writeFloat(totals[i]);
        }
    }

    static CalmShares read(final DataInput in) throws IOException {
        final int members = in.readInt();
        final int history = in.readInt();
        final int learned = in.readInt();
        final int delay = in.readInt();
        final int next = in.readInt();
        final int count = in.readInt();
        if (members < 1 || members > 1 << 16 || history < 1 || history > 1 << 16 || next < 0 || next >= history) {
            throw new IOException("calm shares of " + members + " members, " + history + " windows");
        }
        final float[][] shares = new float[members][history];
        for (final float[] member : shares) {
            for (int i = 0; i < history; i++) {
                member[i] = in.readFloat();
            }
        }
        final int[] flows = new int[history];
        final float[] totals = new float[history];
        for (int i = 0; i < history; i++) {
            flows[i] = in.readInt();
            totals[i] = in.readFloat();
        }
        return new CalmShares(history, learned, shares, flows, totals, delay, next, count);
    }

    /**
     * Records one calm window's shares, one per member (they sum to 1), the number of the twin's flows that crossed the
     * group in it and the bytes it carried; it counts {@code delay} windows later.
     */
    void add(final double[] memberShares, final long twinFlows, final double bytes) {
        final double[] entry = Arrays.copyOf(memberShares, memberShares.length + 2);
        entry[memberShares.length] = twinFlows;
        entry[memberShares.length + 1] = bytes;
        pending.addLast(entry);
        if (pending.size() > delay) {
            remember(pending.removeFirst());
        }
    }

    /** A window found imbalanced: the windows still waiting were the change's ramp, not the group's normal. */
    void forgetPending() {
        pending.clear();
    }

    private void remember(final double[] memberShares) {
        for (int m = 0; m < shares.length; m++) {
            shares[m][next] = (float) memberShares[m];
        }
        flows[next] = (int) memberShares[shares.length];
        totals[next] = (float) memberShares[shares.length + 1];
        next = (next + 1) % history;
        count = Math.min(history, count + 1);
    }

    boolean learned() {
        return count >= learned;
    }

    /**
     * Whether every calm window kept saw the twin's flows at exactly {@code twinFlows}: the same flows crossed the group
     * all along, so a share none of those windows showed is the hash moving them, not new flows hashed elsewhere.
     */
    boolean sameFlowsThroughout(final long twinFlows) {
        for (int i = 0; i < count; i++) {
            if (flows[i] != twinFlows) {
                return false;
            }
        }
        return count > 0;
    }

    /**
     * Whether {@code bytes} in a window is within a factor of two of the median the calm windows kept carried: the
     * twin's flows are flowing as they did (a job a storm or a straggler stalls keeps its flows in the twin, not on
     * the wire, and the shares of what is left say nothing of the hash).
     */
    boolean usualTraffic(final double bytes) {
        if (count == 0) {
            return false;
        }
        final float[] sorted = Arrays.copyOf(totals, count);
        Arrays.sort(sorted);
        final double median = sorted[count / 2];
        return median > 0 && bytes >= median / 2 && bytes <= 2 * median;
    }

    /** The most this member carried in the calm windows kept. */
    double highest(final int member) {
        double highest = 0;
        for (int i = 0; i < count; i++) {
            highest = Math.max(highest, shares[member][i]);
        }
        return highest;
    }
}
