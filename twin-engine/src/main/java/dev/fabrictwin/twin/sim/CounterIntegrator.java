package dev.fabrictwin.twin.sim;

import java.io.Serializable;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.model.CongestionModel;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.model.LinkState;
import dev.fabrictwin.twin.model.ModelParams;

/**
 * Expected counters of any port over any [t0, t1]: exact integrals of the piecewise-constant link states, so
 * samples that are not aligned across devices compare exactly. A port transmits on one directed link and
 * receives on the other; what its peer does to it (PFC pause) is read off the link it transmits on.
 */
public final class CounterIntegrator implements Serializable {

    /** Lossless RoCE/IB traffic class that PFC counters are reported for. */
    public static final int PFC_PRIORITY = 3;
    /** Uncorrectable FEC codewords per corrected one on a degrading link. */
    private static final double FEC_UNCORRECTABLE_RATIO = 1e-3;
    /** Ethernet/TCP egress drops per packet per unit of overload (TCP keeps loss small but non-zero). */
    private static final double TCP_DROP_PER_OVERLOAD = 1e-3;

    private static final int TX_BYTES = CounterIndex.of(CounterNames.TX_BYTES);
    private static final int RX_BYTES = CounterIndex.of(CounterNames.RX_BYTES);
    private static final int TX_PACKETS = CounterIndex.of(CounterNames.TX_PACKETS);
    private static final int RX_PACKETS = CounterIndex.of(CounterNames.RX_PACKETS);
    private static final int ECN = CounterIndex.of(CounterNames.ECN_MARKED);
    private static final int TX_DROPS = CounterIndex.of(CounterNames.TX_DROPS);
    private static final int RX_DROPS = CounterIndex.of(CounterNames.RX_DROPS);
    private static final int CNP_SENT = CounterIndex.of(CounterNames.CNP_SENT);
    private static final int CNP_HANDLED = CounterIndex.of(CounterNames.CNP_HANDLED);
    private static final int FCS = CounterIndex.of(CounterNames.FCS_ERRORS);
    private static final int FEC = CounterIndex.of(CounterNames.FEC_CORRECTED);
    private static final int FEC_UNCORR = CounterIndex.of(CounterNames.FEC_UNCORRECTABLE);
    private static final int LINK_FLAPS = CounterIndex.LINK_FLAPS;
    private static final int PAUSE_US = CounterIndex.of(CounterNames.perPriority(CounterNames.RX_PAUSE_DURATION_US,
        PFC_PRIORITY));
    private static final int OPER_UP = CounterIndex.of(CounterNames.OPER_UP);
    private static final int SPEED = CounterIndex.of(CounterNames.SPEED_BPS);
    private static final int QUEUE_DEPTH = CounterIndex.of(CounterNames.QUEUE_DEPTH_BYTES);
    private static final int WATERMARK = CounterIndex.of(CounterNames.BUFFER_WATERMARK_BYTES);
    private static final int P50 = CounterIndex.of(CounterNames.LATENCY_P50_US);
    private static final int P99 = CounterIndex.of(CounterNames.LATENCY_P99_US);
    /** The gauges every expectation carries. */
    public static final List<String> GAUGES = List.of(CounterNames.OPER_UP, CounterNames.SPEED_BPS,
        CounterNames.QUEUE_DEPTH_BYTES, CounterNames.BUFFER_WATERMARK_BYTES, CounterNames.LATENCY_P50_US,
        CounterNames.LATENCY_P99_US);

    private final Fabric fabric;
    private final LinkTimeline timeline;
    private final ModelParams params;

    public CounterIntegrator(final Fabric fabric, final LinkTimeline timeline, final ModelParams params) {
        this.fabric = fabric;
        this.timeline = timeline;
        this.params = params;
    }

    public PortCounters expected(final PortRef port, final double t0, final double t1) {
        final double[] c = new double[CounterIndex.size()];
        final double[] g = new double[CounterIndex.size()];
        final boolean[] present = new boolean[CounterIndex.size()];
        expectedInto(port, t0, t1, c, g, present);
        final Map<String, Double> counters = new HashMap<>();
        final Map<String, Double> gauges = new HashMap<>();
        for (int i = 0; i < c.length; i++) {
            if (present[i]) {
                counters.put(CounterIndex.name(i), c[i]);
            }
        }
        for (final String name : GAUGES) {
            gauges.put(name, g[CounterIndex.of(name)]);
        }
        return new PortCounters(port, t0, t1, counters, gauges);
    }

    /**
     * As {@link #expected}, into arrays indexed by {@link CounterIndex} (overwritten): the analyzer's hot path.
     * {@code present} marks the counters this port has (gauges are always set).
     */
    public void expectedInto(final PortRef port, final double t0, final double t1, final double[] c, final double[] g,
                             final boolean[] present) {
        expectedInto(fabric.txLink(port), t0, t1, c, g, present);
    }

    /**
     * As {@link #expectedInto(PortRef, double, double, double[], double[], boolean[])}, for the port of this
     * {@code Fabric.portIndex} (the directed link it transmits on): the analysis knows it, so it looks up no name per
     * port and tick.
     */
    public void expectedInto(final int port, final double t0, final double t1, final double[] c, final double[] g,
                             final boolean[] present) {
        if (!(t1 >= t0)) {
            throw new IllegalArgumentException("interval end " + t1 + " before start " + t0);
        }
        if (port < 0 || port >= fabric.directedLinkCount()) {
            throw new IllegalArgumentException("no port of index " + port + " in fabric " + fabric.id());
        }
        Arrays.fill(c, 0);
        Arrays.fill(g, 0);
        Arrays.fill(present, false);
        final int tx = port;
        final int rx = port ^ 1; // Fabric.portIndex: a port's peer transmits on the other direction of its link
        final int mtu = fabric.technology().wirePacketBytes(); // states carry wire bits: full packets with headers
        final boolean switchPort = !fabric.node(fabric.txNode(tx)).isHost();
        final double nominal = fabric.link(tx / 2).capacityBps();
        final double baseUs = switchPort ? fabric.technology().hopLatencyUs() : fabric.technology().nicLatencyUs();
        final int txPause = CounterIndex.TX_PFC[PFC_PRIORITY];
        final int rxPause = CounterIndex.RX_PFC[PFC_PRIORITY];
        double queueArea = 0;
        double p50Area = 0;
        double p99Area = 0;
        double watermark = 0;
        boolean up = true;
        double transitions = 0;

        final int txSize = timeline.size(tx);
        for (int i = txSize == 0 ? 0 : timeline.indexAt(tx, t0); i < txSize; i++) {
            final LinkState st = timeline.state(tx, i);
            final double dt = overlap(timeline, tx, i, t0, t1);
            if (dt < 0) {
                break;
            }
            // a carrier transition in [t0, t1): the state starting here is up where the one before was down, or back
            if (i > 0 && timeline.start(tx, i) >= t0 && timeline.state(tx, i - 1).up() != st.up()) {
                transitions++;
            }
            if (dt == 0) {
                continue;
            }
            final double packets = st.rateBps() * dt / 8 / mtu;
            add(c, present, TX_BYTES, st.rateBps() * dt / 8);
            add(c, present, TX_PACKETS, packets);
            if (switchPort) {
                add(c, present, ECN, st.markProbability() * packets);
            }
            final double paused = st.pausedFraction();
            add(c, present, rxPause, paused * CongestionModel.pauseFramesPerSecond(nominal) * dt);
            add(c, present, PAUSE_US, paused * dt * 1e6);
            if (fabric.technology() == Technology.ETHERNET && st.capacityBps() > 0 && st.offeredBps() > st.capacityBps()) {
                add(c, present, TX_DROPS, packets * TCP_DROP_PER_OVERLOAD * (st.offeredBps() / st.capacityBps() - 1));
            }
            if (!switchPort) {
                add(c, present, CNP_HANDLED, st.cnpPerSec() * dt);
            }
            final double qDelay = CongestionModel.queueDelayUs(st.queueBytes(), nominal);
            queueArea += st.queueBytes() * dt;
            p50Area += (baseUs + qDelay + st.addedLatencyUs()) * dt;
            p99Area += (baseUs + qDelay * params.tailToMeanQueue() + st.addedLatencyUs()) * dt;
            watermark = Math.max(watermark, st.queueBytes() * (st.offeredBps() > st.capacityBps() ? 1.5 : 1.0));
            up = st.up();
        }
        final int rxSize = timeline.size(rx);
        for (int i = rxSize == 0 ? 0 : timeline.indexAt(rx, t0); i < rxSize; i++) {
            final LinkState st = timeline.state(rx, i);
            final double dt = overlap(timeline, rx, i, t0, t1);
            if (dt < 0) {
                break;
            }
            if (dt == 0) {
                continue;
            }
            final double delivered = st.rateBps() * (1 - st.dropFraction()) * dt;
            final double packets = delivered / 8 / mtu;
            add(c, present, RX_BYTES, delivered / 8);
            add(c, present, RX_PACKETS, packets);
            add(c, present, txPause, st.pausedFraction() * CongestionModel.pauseFramesPerSecond(nominal) * dt);
            add(c, present, FCS, st.crcPerPacket() * packets);
            // The PHY encodes idle symbols too: FEC codewords run at the line rate whether or not frames flow.
            final double lineBits = st.up() ? nominal * dt : 0;
            add(c, present, FEC, st.fecPerBit() * lineBits);
            add(c, present, FEC_UNCORR, st.fecPerBit() * lineBits * FEC_UNCORRECTABLE_RATIO);
            add(c, present, RX_DROPS, 0);
            if (!switchPort) {
                add(c, present, CNP_SENT, st.cnpPerSec() * dt);
            }
        }
        add(c, present, LINK_FLAPS, transitions);
        final double span = t1 - t0;
        g[OPER_UP] = up ? 1.0 : 0.0;
        g[SPEED] = nominal;
        g[QUEUE_DEPTH] = span > 0 ? queueArea / span : 0;
        g[WATERMARK] = watermark;
        g[P50] = span > 0 ? p50Area / span : baseUs;
        g[P99] = span > 0 ? p99Area / span : baseUs;
    }

    /** Length of state i's overlap with [t0, t1] (0: none, skip it); negative once the states start at or after t1. */
    private static double overlap(final LinkTimeline timeline, final int d, final int i, final double t0, final double t1) {
        final double start = Math.max(t0, timeline.start(d, i));
        if (start >= t1) {
            return -1;
        }
        final double end = Math.min(t1, i + 1 < timeline.size(d) ? timeline.start(d, i + 1) : Double.POSITIVE_INFINITY);
        return Math.max(0, end - start);
    }

    private static void add(final double[] c, final boolean[] present, final int slot, final double v) {
        c[slot] += v;
        present[slot] = true;
    }
}
