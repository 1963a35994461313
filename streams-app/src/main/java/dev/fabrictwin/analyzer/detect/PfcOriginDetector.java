package dev.fabrictwin.analyzer.detect;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;

/**
 * {@code PFC_STORM}, culprit vs victim (docs/twin.md). Pauses flow against the traffic: a port that is paused
 * stops sending, its switch's queue fills and the switch pauses its own upstream ingress ports. Each tick
 * this builds the graph of pause senders (ports whose {@code tx_pfc_pause} is well above the twin's) and
 * walks each sender back to where the pausing started:
 * <ul>
 * <li>a host NIC sending pauses is an origin: a healthy NIC drains what it receives (the twin says when an
 *     incast legitimately backs it up);</li>
 * <li>a switch port pauses because its device cannot drain: if one of the device's own ports is being paused,
 *     the walk continues at the peer pausing it; else if one of its egress ports is congested (ECN marks or a
 *     queue the twin does not expect, or simply running full and marking or queueing: the twin cannot know the
 *     switches' hashes, so it may expect the congestion on another port), the pauses are a symptom of that
 *     link's congestion, whatever causes it (the correlator looks for its alert); else the switch port itself is
 *     the origin.</li>
 * </ul>
 * An origin opens the root-cause alert on its port; every other sender whose walk ends there is a victim.
 */
public final class PfcOriginDetector implements Detector {

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        final DetectionCalibration cal = context.config().calibration();
        // in port order: the findings' order does not depend on hashing
        final Map<PortTick, Double> senders = new LinkedHashMap<>();
        for (final PortTick t : context.ports()) {
            final double excess = pausingShare(context, t, true);
            if (sendsPauses(excess, cal)) {
                senders.put(t, excess);
            }
        }
        for (final var e : senders.entrySet()) {
            final Cause cause = walk(context, e.getKey().index(), new HashSet<>(), null);
            final PortRef sender = e.getKey().port();
            if (cause.boundary != null) { // the cause is beyond this shard: the correlation stage finds it
                context.pfcBoundary().entry(new PfcBoundary.Entry(cause.boundary, sender, e.getValue(), cause.origin,
                    cause.congested));
                continue;
            }
            final int peerNode = context.fabric().rxNode(e.getKey().index());
            if (context.boundary(peerNode)) {
                final Entity explained = cause.origin != null ? Entity.port(cause.origin) : cause.congested;
                if (explained != null) {
                    context.pfcBoundary().exit(new PfcBoundary.Exit(context.fabric().node(peerNode).name(), explained,
                        e.getValue()));
                }
            }
            finding(sender, e.getValue(), context.isHost(e.getKey()), cause.origin, cause.congested, cal.pfc())
                .ifPresent(out::add);
        }
    }

    /**
     * The PFC pauses that entered a shard at a boundary device, walked on with what the other shards saw there: an
     * entry takes the cause an exit at that device found in another shard (the storming port, or the congested link),
     * and without one is what the walk would have made of it on the whole fabric (the congestion seen there, else the
     * boundary port itself).
     */
    @Override
    public void acrossShards(final CrossShard tick, final List<Finding> merged) {
        final DetectionCalibration.Pfc cal = tick.calibration().pfc();
        final Map<String, PfcBoundary.Exit> exits = new HashMap<>();
        tick.pfc().values().forEach(b -> b.exits()
            .forEach(e -> exits.merge(e.device(), e, (x, y) -> y.share() > x.share() ? y : x)));
        tick.pfc().forEach((shard, b) -> b.entries().forEach(e -> crossing(e, exits.get(e.device()), cal)
            .filter(f -> tick.claim(shard, f))
            .ifPresent(merged::add)));
    }

    /** A pause entering a shard at a boundary device, walked on with what the other shards saw there. */
    private static Optional<Finding> crossing(final PfcBoundary.Entry e, final PfcBoundary.Exit exit,
                                              final DetectionCalibration.Pfc cal) {
        if (exit != null) {
            final Entity cause = exit.cause();
            return cause.kind() == Entity.Kind.PORT
                ? finding(e.sender(), e.share(), false, new PortRef(cause.device(), cause.port()), null, cal)
                : finding(e.sender(), e.share(), false, null, cause, cal);
        }
        return e.congested() != null ? finding(e.sender(), e.share(), false, null, e.congested(), cal)
            : finding(e.sender(), e.share(), false, e.stop(), null, cal);
    }

    /**
     * A port pausing its peer for more than the calibration's {@link DetectionCalibration#pausedShare} of the time
     * (beyond the twin) sends pauses.
     */
    static boolean sendsPauses(final double pausedShare, final DetectionCalibration cal) {
        return pausedShare > cal.pausedShare();
    }

    /** A switch port is named the origin of a storm only above its share (switches pause for many reasons). */
    static boolean storms(final double pausedShare, final boolean host, final DetectionCalibration.Pfc cal) {
        return host || !(pausedShare < cal.switchOriginShare());
    }

    /**
     * The finding for a pause {@code sender} whose walk ended at {@code origin} (a storming port) or, with none, at
     * a {@code congested} link; empty when a switch port is its own origin below
     * {@link DetectionCalibration.Pfc#switchOriginShare} ({@link #storms}).
     */
    static Optional<Finding> finding(final PortRef sender, final double pausedShare, final boolean host,
                                     final PortRef origin, final Entity congested, final DetectionCalibration.Pfc cal) {
        final String share = String.format("%.0f%%", 100 * pausedShare);
        if (origin != null && origin.equals(sender)) {
            if (!storms(pausedShare, host, cal)) {
                return Optional.empty();
            }
            return Optional.of(Finding.root(FaultType.PFC_STORM, Entity.port(sender), "pfc_paused_share", pausedShare,
                0, Severity.CRITICAL, String.format(
                    "%s %s is storming PFC: it holds its peer paused %s of the time with no congestion to explain it",
                    sender.device(), sender.port(), share)));
        }
        if (origin != null) {
            return Optional.of(Finding.symptom(FaultType.PFC_STORM, Entity.port(sender), Entity.port(origin),
                "pfc_paused_share", pausedShare, 0, String.format("%s %s pauses its peer %s of the time, "
                    + "passing on pauses that start at %s %s", sender.device(), sender.port(), share,
                    origin.device(), origin.port())));
        }
        if (congested != null) {
            return Optional.of(Finding.symptom(FaultType.PFC_STORM, Entity.port(sender), congested, "pfc_paused_share",
                pausedShare, 0, String.format("%s %s pauses its peer %s of the time because %s is congested",
                    sender.device(), sender.port(), share, congested)));
        }
        return Optional.empty();
    }

    /**
     * Where a walk ended: a storming port, or a congested link, or — sharded — a boundary device (by name) none of
     * whose ports in this shard explains the pauses ({@code origin} is then the port the walk stopped at).
     */
    private record Cause(PortRef origin, Entity congested, String boundary) {
        Cause(final PortRef origin, final Entity congested) {
            this(origin, congested, null);
        }
    }

    /**
     * Follows the pauses back from {@code sender}. A walk that comes back to a device it passed is a loop: with a
     * congested egress on the way it is congestion spreading both ways (an all-to-all over oversubscribed uplinks
     * does this), a symptom of that egress; with none, a cyclic buffer dependency holding itself paused (a PFC
     * deadlock), whose every sender is reported.
     */
    private Cause walk(final TickContext context, final int sender, final Set<Integer> visited,
                       final Entity congestedOnTheWay) {
        final Fabric fabric = context.fabric();
        final int node = fabric.txNode(sender);
        if (fabric.node(node).isHost()) {
            return new Cause(fabric.txPort(sender), null);
        }
        if (!visited.add(node)) {
            return congestedOnTheWay != null ? new Cause(null, congestedOnTheWay) : new Cause(fabric.txPort(sender), null);
        }
        int pausedBy = -1;
        double most = context.config().calibration().pausedShare();
        Entity congested = null;
        for (int i = 0; i < fabric.degree(node); i++) {
            final Link link = fabric.link(fabric.linkOf(node, i));
            final int own = link.from(node);
            final PortTick t = context.port(own);
            if (t == null || own == sender) {
                continue;
            }
            final double paused = pausingShare(context, t, false);
            if (paused > most) {
                most = paused;
                pausedBy = own ^ 1;
            }
            if (congested == null && overloaded(context, t)) {
                congested = Entity.link(link);
            }
        }
        if (pausedBy >= 0) {
            return walk(context, pausedBy, visited, congestedOnTheWay != null ? congestedOnTheWay : congested);
        }
        if (context.boundary(node)) {
            // its other ports are another shard's: one of them may be paused (and explain this) or not
            return new Cause(fabric.txPort(sender), congestedOnTheWay != null ? congestedOnTheWay : congested,
                fabric.node(node).name());
        }
        return congested != null ? new Cause(null, congested) : new Cause(fabric.txPort(sender), null);
    }

    /** Share of the tick this port held its peer paused (tx) or was held paused (rx), beyond the twin's. */
    static double pausingShare(final TickContext context, final PortTick t, final boolean sent) {
        final double perSecond = context.pauseFramesPerSecond(t);
        if (perSecond <= 0 || t.seconds() <= 0) {
            return 0;
        }
        final String prefix = sent ? CounterNames.TX_PFC_PAUSE : CounterNames.RX_PFC_PAUSE;
        final double excess = TickContext.pfc(t, prefix, true) - TickContext.pfc(t, prefix, false);
        return excess / (perSecond * t.seconds());
    }

    /** An egress marking ECN or queueing beyond the twin: it cannot drain what it is offered. */
    static boolean congested(final TickContext context, final PortTick t) {
        final DetectionCalibration.Pfc cal = context.config().calibration().pfc();
        final double marks = t.observed(CounterIndex.ECN_MARKED) - t.expected(CounterIndex.ECN_MARKED) * 2;
        final double packets = t.observed(CounterIndex.TX_PACKETS);
        final double queue = t.gauge(CounterNames.QUEUE_DEPTH_BYTES);
        return packets > 0 && marks > 0.001 * packets
            || !Double.isNaN(queue) && queue - t.expectedGauge(CounterIndex.QUEUE_DEPTH_BYTES) > cal.queueExcessBytes();
    }

    /**
     * An egress that backed up in this tick beyond the twin: {@link #congested}, or its buffer's peak (the watermark
     * gauge) above {@link DetectionCalibration.Pfc#queueExcessBytes} and above
     * {@link DetectionCalibration.Pfc#constantsSlack}× the twin's peak. The queue
     * gauge is a mean over the tick, so a queue standing only while a job communicates (a third of its iteration,
     * say) is diluted to a fraction of its depth; how deep it stands, and whether it marks at all, depends on ECN
     * thresholds and a buffer the twin knows only as defaults (vendor profiles differ by tens of %): with Kmin set
     * higher the port marks nothing and the mean stays under the bar in half the ticks. The peak is not diluted; the
     * slack is what the twin's default constants may be off by, so a peak the twin expects is not taken for a new one.
     */
    static boolean backedUp(final TickContext context, final PortTick t) {
        final DetectionCalibration.Pfc cal = context.config().calibration().pfc();
        final double peak = t.gauge(CounterNames.BUFFER_WATERMARK_BYTES);
        return congested(context, t) || !Double.isNaN(peak) && peak > cal.queueExcessBytes()
            && peak > cal.constantsSlack() * t.expectedGauge(CounterIndex.BUFFER_WATERMARK_BYTES);
    }

    /**
     * An egress that explains its device's pauses: congested beyond the twin, or marking at least
     * {@link DetectionCalibration.Pfc#heavyMarking} of its packets or holding a queue of
     * {@link DetectionCalibration.Pfc#queueExcessBytes} (its mean over
     * the tick, or its peak: the mean of a queue that stands only while a job communicates is diluted by the rest of
     * the tick, and with ECN thresholds set higher than the twin's defaults the port marks nothing) whatever the twin
     * expected. The twin cannot know the switches' hashes, so it may expect the congestion on another port; a
     * standing queue above the marking threshold is overload while the port sends, however short its bursts.
     */
    static boolean overloaded(final TickContext context, final PortTick t) {
        final DetectionCalibration.Pfc cal = context.config().calibration().pfc();
        final double packets = t.observed(CounterIndex.TX_PACKETS);
        final double queue = t.gauge(CounterNames.QUEUE_DEPTH_BYTES);
        final double peak = t.gauge(CounterNames.BUFFER_WATERMARK_BYTES);
        return congested(context, t) || packets > 0 && t.observed(CounterIndex.ECN_MARKED) >= cal.heavyMarking() * packets
            || !Double.isNaN(queue) && queue > cal.queueExcessBytes() || !Double.isNaN(peak) && peak > cal.queueExcessBytes();
    }
}
