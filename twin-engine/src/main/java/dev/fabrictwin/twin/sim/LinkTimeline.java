package dev.fabrictwin.twin.sim;

import java.io.Serializable;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;

import dev.fabrictwin.twin.model.LinkState;

/**
 * Each directed link's piecewise-constant history: a new state only when something changed. Stored as one ring of
 * primitives per link ({@value #STRIDE} doubles a state, no object per state), so a twin run in step with telemetry
 * holds exactly what {@link #forgetBefore} leaves, with no garbage per solve event and O(1) forgetting.
 */
public final class LinkTimeline implements Serializable {

    // Slot of each field within a state's STRIDE doubles (flows, pauseOrigin and up are stored exactly as doubles).
    private static final int START = 0;
    private static final int RATE = 1;
    private static final int CAPACITY = 2;
    private static final int OFFERED = 3;
    private static final int FLOWS = 4;
    private static final int QUEUE = 5;
    private static final int MARK = 6;
    private static final int PAUSED = 7;
    private static final int DROP = 8;
    private static final int FEC = 9;
    private static final int CRC = 10;
    private static final int LATENCY = 11;
    private static final int CNP = 12;
    /** Bit 0: pause origin; bit 1: up. */
    private static final int FLAGS = 13;
    static final int STRIDE = 14;
    private static final double[] EMPTY = new double[0];

    /** Per link: states in a ring of capacity {@code ring[d].length / STRIDE}, oldest at {@code head[d]}. */
    private final double[][] ring;
    private final int[] head;
    private final int[] size;
    private double forgottenBefore = Double.NEGATIVE_INFINITY;
    /** The directed links whose states are kept (null: all); the others' latest mark only, for CNPs along paths. */
    private boolean[] kept;
    private double[] lastMark;

    LinkTimeline(final int directedLinks) {
        ring = new double[directedLinks][];
        Arrays.fill(ring, EMPTY);
        head = new int[directedLinks];
        size = new int[directedLinks];
    }

    /**
     * From now on keeps the states of these directed links only: a sharded analysis reads its own links' counters and
     * no others', and keeping every link's history in every shard multiplied the replica's memory and recording by
     * the shards. The others' latest ECN mark is still followed (a completing flow's CNPs depend on its whole path).
     */
    void keepOnly(final boolean[] directedLinks) {
        if (directedLinks.length != ring.length) {
            throw new IllegalArgumentException(directedLinks.length + " links to keep of " + ring.length);
        }
        kept = directedLinks.clone();
        lastMark = new double[ring.length];
        for (int d = 0; d < ring.length; d++) {
            lastMark[d] = latestMark(d);
            if (!kept[d]) {
                ring[d] = EMPTY;
                size[d] = 0;
                head[d] = 0;
            }
        }
    }

    /** Whether every link's states are kept (no {@link #keepOnly}). */
    boolean keepsAll() {
        return kept == null;
    }

    /** Whether the link's states are kept ({@link #keepOnly}); for one that is not, only its mark is noted. */
    boolean keeps(final int directedLink) {
        return kept == null || kept[directedLink];
    }

    /** The latest ECN mark of a link whose states are not kept. */
    void noteMark(final int directedLink, final double mark) {
        lastMark[directedLink] = mark;
    }

    void append(final int directedLink, final LinkState s) {
        append(directedLink, s.start(), s.rateBps(), s.capacityBps(), s.offeredBps(), s.flows(), s.queueBytes(),
            s.markProbability(), s.pausedFraction(), s.pauseOrigin(), s.dropFraction(), s.fecPerBit(), s.crcPerPacket(),
            s.addedLatencyUs(), s.cnpPerSec(), s.up());
    }

    /**
     * As {@link #append(int, LinkState)}, from the values of a {@link LinkState}: the simulation records every link
     * at every solve event, and most are unchanged, so no object is made for them (the garbage per event
     * grew with the fabric).
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    void append(final int directedLink, final double start, final double rate, final double capacity,
                final double offered, final int flows, final double queue, final double mark, final double paused,
                final boolean pauseOrigin, final double drop, final double fec, final double crc, final double latency,
                final double cnp, final boolean up) {
        if (kept != null) {
            lastMark[directedLink] = mark;
            if (!kept[directedLink]) {
                return;
            }
        }
        final int n = size[directedLink];
        final double flags = (pauseOrigin ? 1 : 0) | (up ? 2 : 0);
        double[] r = ring[directedLink];
        if (n > 0) {
            final int last = offset(directedLink, n - 1);
            if (r[last + RATE] == rate && r[last + CAPACITY] == capacity && r[last + OFFERED] == offered
                && r[last + FLOWS] == flows && r[last + QUEUE] == queue && r[last + MARK] == mark
                && r[last + PAUSED] == paused && r[last + DROP] == drop && r[last + FEC] == fec && r[last + CRC] == crc
                && r[last + LATENCY] == latency && r[last + CNP] == cnp && r[last + FLAGS] == flags) {
                return;
            }
            if (r[last + START] == start) {
                write(r, last, start, rate, capacity, offered, flows, queue, mark, paused, drop, fec, crc, latency, cnp,
                    flags);
                return;
            }
        }
        if (n * STRIDE == r.length) {
            grow(directedLink);
            r = ring[directedLink];
        }
        size[directedLink] = n + 1;
        write(r, offset(directedLink, n), start, rate, capacity, offered, flows, queue, mark, paused, drop, fec, crc,
            latency, cnp, flags);
    }

    /** The mark probability of the link's latest state (0 before any). */
    double latestMark(final int directedLink) {
        if (kept != null) {
            return lastMark[directedLink];
        }
        final int n = size[directedLink];
        return n == 0 ? 0 : ring[directedLink][offset(directedLink, n - 1) + MARK];
    }

    /**
     * From {@code start} on, the link's latest state less one flow that completed between two solves: its rate off
     * the rate and the offered load, one flow and its CNPs fewer; the rest (queue, marks, pauses) stands until the
     * next solve records the link again.
     */
    void lessOneFlow(final int directedLink, final double start, final double rate, final double cnp) {
        final int n = size[directedLink];
        if (n == 0) {
            return;
        }
        final double[] r = ring[directedLink];
        final int o = offset(directedLink, n - 1);
        final int flags = (int) r[o + FLAGS];
        append(directedLink, start, Math.max(0, r[o + RATE] - rate), r[o + CAPACITY], Math.max(0, r[o + OFFERED] - rate),
            Math.max(0, (int) r[o + FLOWS] - 1), r[o + QUEUE], r[o + MARK], r[o + PAUSED], (flags & 1) != 0, r[o + DROP],
            r[o + FEC], r[o + CRC], r[o + LATENCY], Math.max(0, r[o + CNP] - cnp), (flags & 2) != 0);
    }

    /** Doubles the ring, unrolled so the oldest state is first again. */
    private void grow(final int d) {
        final double[] old = ring[d];
        final double[] next = new double[Math.max(4 * STRIDE, old.length * 2)];
        final int from = head[d] * STRIDE;
        System.arraycopy(old, from, next, 0, old.length - from);
        System.arraycopy(old, 0, next, old.length - from, from);
        ring[d] = next;
        head[d] = 0;
    }

    /** Offset in the ring of the link's i-th kept state (0 = oldest). */
    private int offset(final int d, final int i) {
        final int capacity = ring[d].length / STRIDE;
        final int slot = head[d] + i;
        return (slot < capacity ? slot : slot - capacity) * STRIDE;
    }

    @SuppressWarnings("checkstyle:ParameterNumber")
    private static void write(final double[] r, final int o, final double start, final double rate,
                              final double capacity, final double offered, final int flows, final double queue,
                              final double mark, final double paused, final double drop, final double fec,
                              final double crc, final double latency, final double cnp, final double flags) {
        r[o + START] = start;
        r[o + RATE] = rate;
        r[o + CAPACITY] = capacity;
        r[o + OFFERED] = offered;
        r[o + FLOWS] = flows;
        r[o + QUEUE] = queue;
        r[o + MARK] = mark;
        r[o + PAUSED] = paused;
        r[o + DROP] = drop;
        r[o + FEC] = fec;
        r[o + CRC] = crc;
        r[o + LATENCY] = latency;
        r[o + CNP] = cnp;
        r[o + FLAGS] = flags;
    }

    private static LinkState read(final double[] r, final int o) {
        final int flags = (int) r[o + FLAGS];
        return new LinkState(r[o + START], r[o + RATE], r[o + CAPACITY], r[o + OFFERED], (int) r[o + FLOWS],
            r[o + QUEUE], r[o + MARK], r[o + PAUSED], (flags & 1) != 0, r[o + DROP], r[o + FEC], r[o + CRC],
            r[o + LATENCY], r[o + CNP], (flags & 2) != 0);
    }

    /** States kept for a link. */
    public int size(final int directedLink) {
        return size[directedLink];
    }

    /** The link's i-th kept state, oldest first (a new object: read, not kept). */
    public LinkState state(final int directedLink, final int i) {
        return read(ring[directedLink], offset(directedLink, i));
    }

    /** When the link's i-th kept state starts. */
    public double start(final int directedLink, final int i) {
        return ring[directedLink][offset(directedLink, i) + START];
    }

    /** Every kept state of a link, oldest first (a view). */
    public List<LinkState> states(final int directedLink) {
        return new AbstractList<>() {
            @Override
            public LinkState get(final int i) {
                return state(directedLink, i);
            }

            @Override
            public int size() {
                return size[directedLink];
            }
        };
    }

    /** The state in force at time t (the first state if t precedes it). */
    public LinkState at(final int directedLink, final double t) {
        return state(directedLink, indexAt(directedLink, t));
    }

    /** Of the states in force during [t0, t1], the one with the most flows (the first if several tie). */
    public LinkState busiest(final int directedLink, final double t0, final double t1) {
        final double[] r = ring[directedLink];
        int best = indexAt(directedLink, t0);
        for (int i = best + 1; i < size[directedLink] && start(directedLink, i) < t1; i++) {
            if (r[offset(directedLink, i) + FLOWS] > r[offset(directedLink, best) + FLOWS]) {
                best = i;
            }
        }
        return state(directedLink, best);
    }

    /** Index of the state in force at t (0 if t precedes every kept state or none is kept). */
    int indexAt(final int directedLink, final double t) {
        int lo = 0;
        int hi = size[directedLink] - 1;
        while (lo < hi) {
            final int mid = (lo + hi + 1) >>> 1;
            if (start(directedLink, mid) <= t) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * Drops states that ended before {@code t} (the one in force at t is kept), so a twin running in step
     * with telemetry for days holds only the recent past. Intervals before t can no longer be evaluated.
     */
    public void forgetBefore(final double t) {
        forgottenBefore = Math.max(forgottenBefore, t);
        for (int d = 0; d < ring.length; d++) {
            final int keepFrom = size[d] == 0 ? 0 : indexAt(d, t);
            if (keepFrom > 0) {
                head[d] = (head[d] + keepFrom) % (ring[d].length / STRIDE);
                size[d] -= keepFrom;
            }
        }
    }

    /** Before this time (seconds) states were forgotten: a span starting earlier is no longer known exactly. */
    public double forgottenBefore() {
        return forgottenBefore;
    }

    /** States kept over all links. */
    public long stateCount() {
        long n = 0;
        for (final int s : size) {
            n += s;
        }
        return n;
    }

    public int linkCount() {
        return ring.length;
    }
}
