package dev.fabrictwin.twin.sim;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.model.CongestionModel;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.model.LinkState;
import dev.fabrictwin.twin.model.ModelParams;

/**
 * Expected counters of any port over any [t0, t1]: exact integrals of the piecewise-constant link states, so
 * samples that are not aligned across devices compare exactly. A port transmits on one directed link and
 * receives on the other; what its peer does to it (PFC pause) is read off the link it transmits on.
 */
public final class CounterIntegrator {

    /** Lossless RoCE/IB traffic class that PFC counters are reported for. */
    public static final int PFC_PRIORITY = 3;
    /** Uncorrectable FEC codewords per corrected one on a degrading link. */
    private static final double FEC_UNCORRECTABLE_RATIO = 1e-3;
    /** Ethernet/TCP egress drops per packet per unit of overload (TCP keeps loss small but non-zero). */
    private static final double TCP_DROP_PER_OVERLOAD = 1e-3;

    private final Fabric fabric;
    private final LinkTimeline timeline;
    private final ModelParams params;

    public CounterIntegrator(final Fabric fabric, final LinkTimeline timeline, final ModelParams params) {
        this.fabric = fabric;
        this.timeline = timeline;
        this.params = params;
    }

    public PortCounters expected(final PortRef port, final double t0, final double t1) {
        if (!(t1 >= t0)) {
            throw new IllegalArgumentException("interval end " + t1 + " before start " + t0);
        }
        final int tx = fabric.txLink(port);
        final int rx = fabric.rxLink(port);
        final int mtu = fabric.technology().mtuBytes();
        final boolean switchPort = !fabric.node(fabric.txNode(tx)).isHost();
        final double nominal = fabric.link(tx / 2).capacityBps();
        final double baseUs = switchPort ? fabric.technology().hopLatencyUs() : fabric.technology().nicLatencyUs();
        final Map<String, Double> c = new HashMap<>();
        final Map<String, Double> g = new HashMap<>();
        final String txPause = CounterNames.perPriority(CounterNames.TX_PFC_PAUSE, PFC_PRIORITY);
        final String rxPause = CounterNames.perPriority(CounterNames.RX_PFC_PAUSE, PFC_PRIORITY);
        final String pauseUs = CounterNames.perPriority(CounterNames.RX_PAUSE_DURATION_US, PFC_PRIORITY);
        double queueArea = 0;
        double p50Area = 0;
        double p99Area = 0;
        double watermark = 0;
        boolean up = true;

        for (final Segment s : segments(tx, t0, t1)) {
            final LinkState st = s.state;
            final double dt = s.dt;
            final double packets = st.rateBps() * dt / 8 / mtu;
            add(c, CounterNames.TX_BYTES, st.rateBps() * dt / 8);
            add(c, CounterNames.TX_PACKETS, packets);
            if (switchPort) {
                add(c, CounterNames.ECN_MARKED, st.markProbability() * packets);
            }
            final double paused = st.pausedFraction();
            add(c, rxPause, paused * CongestionModel.pauseFramesPerSecond(nominal) * dt);
            add(c, pauseUs, paused * dt * 1e6);
            if (fabric.technology() == Technology.ETHERNET && st.capacityBps() > 0 && st.offeredBps() > st.capacityBps()) {
                add(c, CounterNames.TX_DROPS, packets * TCP_DROP_PER_OVERLOAD * (st.offeredBps() / st.capacityBps() - 1));
            }
            if (!switchPort) {
                add(c, CounterNames.CNP_HANDLED, st.cnpPerSec() * dt);
            }
            final double qDelay = CongestionModel.queueDelayUs(st.queueBytes(), nominal);
            queueArea += st.queueBytes() * dt;
            p50Area += (baseUs + qDelay + st.addedLatencyUs()) * dt;
            p99Area += (baseUs + qDelay * params.tailToMeanQueue() + st.addedLatencyUs()) * dt;
            watermark = Math.max(watermark, st.queueBytes() * (st.offeredBps() > st.capacityBps() ? 1.5 : 1.0));
            up = st.up();
        }
        for (final Segment s : segments(rx, t0, t1)) {
            final LinkState st = s.state;
            final double dt = s.dt;
            final double delivered = st.rateBps() * (1 - st.dropFraction()) * dt;
            final double packets = delivered / 8 / mtu;
            add(c, CounterNames.RX_BYTES, delivered / 8);
            add(c, CounterNames.RX_PACKETS, packets);
            add(c, txPause, st.pausedFraction() * CongestionModel.pauseFramesPerSecond(nominal) * dt);
            add(c, CounterNames.FCS_ERRORS, st.crcPerPacket() * packets);
            // The PHY encodes idle symbols too: FEC codewords run at the line rate whether or not frames flow.
            final double lineBits = st.up() ? nominal * dt : 0;
            add(c, CounterNames.FEC_CORRECTED, st.fecPerBit() * lineBits);
            add(c, CounterNames.FEC_UNCORRECTABLE, st.fecPerBit() * lineBits * FEC_UNCORRECTABLE_RATIO);
            add(c, CounterNames.RX_DROPS, 0);
            if (!switchPort) {
                add(c, CounterNames.CNP_SENT, st.cnpPerSec() * dt);
            }
        }
        final double span = t1 - t0;
        g.put(CounterNames.OPER_UP, up ? 1.0 : 0.0);
        g.put(CounterNames.SPEED_BPS, nominal);
        g.put(CounterNames.QUEUE_DEPTH_BYTES, span > 0 ? queueArea / span : 0);
        g.put(CounterNames.BUFFER_WATERMARK_BYTES, watermark);
        g.put(CounterNames.LATENCY_P50_US, span > 0 ? p50Area / span : baseUs);
        g.put(CounterNames.LATENCY_P99_US, span > 0 ? p99Area / span : baseUs);
        return new PortCounters(port, t0, t1, c, g);
    }

    private record Segment(LinkState state, double dt) {
    }

    /** The states overlapping [t0, t1] with the length of each overlap. */
    private List<Segment> segments(final int link, final double t0, final double t1) {
        final List<LinkState> states = timeline.states(link);
        final List<Segment> out = new java.util.ArrayList<>();
        if (states.isEmpty()) {
            return out;
        }
        for (int i = timeline.indexAt(link, t0); i < states.size(); i++) {
            final LinkState s = states.get(i);
            final double start = Math.max(t0, s.start());
            final double end = Math.min(t1, i + 1 < states.size() ? states.get(i + 1).start() : Double.POSITIVE_INFINITY);
            if (start >= t1) {
                break;
            }
            if (end > start) {
                out.add(new Segment(s, end - start));
            }
        }
        return out;
    }

    private static void add(final Map<String, Double> c, final String name, final double v) {
        c.merge(name, v, Double::sum);
    }
}
