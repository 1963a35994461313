package dev.fabrictwin.simulator;

import java.util.HashMap;
import java.util.Map;

import dev.fabrictwin.simulator.reality.RealityDraw;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.sim.CounterIntegrator;
import dev.fabrictwin.twin.sim.PortCounters;

/**
 * Control frames a switch port exchanges and — on some ports only — counts in its packet and byte counters: LLDP
 * (one frame per interval each way), the PFC pause frames it sends and receives, and, facing a NIC, the CNPs that NIC
 * sends and receives. The NIC at the other end never counts them, so the two ends of a link disagree by a steady few
 * frames per second, more while PFC fires.
 */
final class ControlFrames {

    private static final String TX_PAUSE = CounterNames.perPriority(CounterNames.TX_PFC_PAUSE, CounterIntegrator.PFC_PRIORITY);
    private static final String RX_PAUSE = CounterNames.perPriority(CounterNames.RX_PFC_PAUSE, CounterIntegrator.PFC_PRIORITY);

    private final RealityDraw draw;
    private final Fabric fabric;
    private final CounterIntegrator integrator;
    private final Map<PortRef, RealityDraw.Port> ports = new HashMap<>();

    ControlFrames(final RealityDraw draw, final Fabric fabric, final CounterIntegrator integrator) {
        this.draw = draw;
        this.fabric = fabric;
        this.integrator = integrator;
    }

    /** Adds to {@code cumulative} what port {@code p} counts of its control frames over [t0, t1]. */
    void count(final PortRef p, final double t0, final double t1, final PortCounters own, final Map<String, Double> cumulative) {
        final RealityDraw.Port port = port(p);
        if (!port.countsControlFrames() || !(t1 > t0)) {
            return;
        }
        final PortRef peer = fabric.rxPort(fabric.txLink(p));
        final RealityDraw.Port peerPort = port(peer);
        final double small = draw.ranges().controlFrameBytes();
        double txFrames = draw.lldpFramesBy(port, t1) - draw.lldpFramesBy(port, t0);
        double rxFrames = draw.lldpFramesBy(peerPort, t1) - draw.lldpFramesBy(peerPort, t0);
        double txBytes = txFrames * port.lldpFrameBytes();
        double rxBytes = rxFrames * peerPort.lldpFrameBytes();
        final double txPause = own.counters().getOrDefault(TX_PAUSE, 0.0);
        final double rxPause = own.counters().getOrDefault(RX_PAUSE, 0.0);
        txFrames += txPause;
        rxFrames += rxPause;
        txBytes += txPause * small;
        rxBytes += rxPause * small;
        if (fabric.node(fabric.txNode(fabric.txLink(peer))).isHost()) {
            final Map<String, Double> nic = integrator.expected(peer, t0, t1).counters();
            final double sent = nic.getOrDefault(CounterNames.CNP_SENT, 0.0); // the NIC's CNPs arrive here
            final double handled = nic.getOrDefault(CounterNames.CNP_HANDLED, 0.0); // and those it handles leave here
            rxFrames += sent;
            rxBytes += sent * small;
            txFrames += handled;
            txBytes += handled * small;
        }
        cumulative.merge(CounterNames.TX_PACKETS, txFrames, Double::sum);
        cumulative.merge(CounterNames.TX_BYTES, txBytes, Double::sum);
        cumulative.merge(CounterNames.RX_PACKETS, rxFrames, Double::sum);
        cumulative.merge(CounterNames.RX_BYTES, rxBytes, Double::sum);
    }

    private RealityDraw.Port port(final PortRef p) {
        return ports.computeIfAbsent(p, q -> draw.port(q, !fabric.node(fabric.txNode(fabric.txLink(q))).isHost()));
    }
}
