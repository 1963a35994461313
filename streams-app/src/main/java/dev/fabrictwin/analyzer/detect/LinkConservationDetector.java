package dev.fabrictwin.analyzer.detect;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;

/**
 * {@code SILENT_DROP}: packets one end of a link sent that the other never received, with no error counter
 * to show for it. For each direction the detector keeps the running difference d = Σ tx_packets(sender) −
 * Σ rx_packets(receiver). The two devices' clocks are skewed, so d also holds whatever was in flight between
 * their sampling instants — a bounded term that comes and goes with the traffic — while lost packets make d
 * grow. Comparing the mean of d over the newest {@value #GROUP} ticks with its mean over the oldest of a
 * {@value #SPAN}-tick window, a growth beyond {@value #SIGMAS} standard errors of d's own tick-to-tick spread
 * (learned per link, so the skew of each device pair sets its own tolerance) and beyond {@value #MIN_LOSS} of
 * the packets sent is loss. A reset or gap on either end restarts the direction's accounting.
 */
public final class LinkConservationDetector implements Detector {

    static final int GROUP = 5;
    static final int SPAN = 20;
    static final double SIGMAS = 6;
    static final double MIN_LOSS = 0.001;
    static final double MIN_PACKETS = 1e5;

    private record Point(double sent, double difference) {
    }

    /** A port's running sums since its last reset; {@code epoch} counts resets so directions can restart. */
    private static final class Running {
        double tx;
        double rx;
        int epoch;
    }

    /** A direction's points and the sender/receiver epochs they were taken in. */
    private static final class Direction {
        final Deque<Point> points = new ArrayDeque<>();
        int senderEpoch = -1;
        int receiverEpoch = -1;
    }

    private final Map<PortRef, Running> running = new HashMap<>();
    private final Map<Integer, Direction> directions = new HashMap<>();

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        // each port's own running sums first: a port that missed a tick catches up in its next interval
        for (final PortTick t : context.ports().values()) {
            final Running r = running.computeIfAbsent(t.port(), p -> new Running());
            if (t.unreliable() || !t.reports(CounterNames.TX_PACKETS) || !t.reports(CounterNames.RX_PACKETS)) {
                r.tx = 0;
                r.rx = 0;
                r.epoch++;
                continue;
            }
            r.tx += t.observed(CounterNames.TX_PACKETS);
            r.rx += t.observed(CounterNames.RX_PACKETS);
        }
        final Map<Integer, Finding> perLink = new HashMap<>();
        for (final PortTick sender : context.ports().values()) {
            final PortRef peer = context.peer(sender.port());
            if (peer == null || context.port(peer) == null) {
                continue;
            }
            final Running a = running.get(sender.port());
            final Running b = running.get(peer);
            final int directed = context.fabric().txLink(sender.port());
            final Direction direction = directions.computeIfAbsent(directed, d -> new Direction());
            final Deque<Point> points = direction.points;
            if (direction.senderEpoch != a.epoch || direction.receiverEpoch != b.epoch) {
                points.clear();
                direction.senderEpoch = a.epoch;
                direction.receiverEpoch = b.epoch;
            }
            if (sender.unreliable() || context.port(peer).unreliable()) {
                continue;
            }
            points.addLast(new Point(a.tx, a.tx - b.rx));
            if (points.size() > SPAN) {
                points.removeFirst();
            }
            if (points.size() < SPAN) {
                continue;
            }
            final double[] early = stats(points.iterator());
            final double[] late = stats(points.descendingIterator());
            final double lost = late[1] - early[1];
            final double sent = late[0] - early[0];
            final double standardError = Math.sqrt((early[2] + late[2]) / GROUP);
            if (sent < MIN_PACKETS || lost < MIN_LOSS * sent || lost < SIGMAS * standardError) {
                continue;
            }
            final Link link = context.fabric().link(directed / 2);
            final double share = lost / sent;
            perLink.merge(link.index(), Finding.root(FaultType.SILENT_DROP, Entity.link(link), "lost_packet_share",
                share, 0, Finding.Severity.CRITICAL, String.format("link %s—%s silently loses %.2f%% of packets from "
                    + "%s to %s (%.3g of %.3g over %d ticks) with no error counter rising", link.lower().device(),
                    link.upper().device(), 100 * share, sender.port().device(), peer.device(), lost, sent, SPAN)),
                (x, y) -> x.observed() >= y.observed() ? x : y);
        }
        out.addAll(perLink.values());
    }

    /** Mean sent, mean difference and the difference's variance over the first {@value #GROUP} points. */
    private static double[] stats(final Iterator<Point> it) {
        double sent = 0;
        double sum = 0;
        double sumSq = 0;
        for (int i = 0; i < GROUP; i++) {
            final Point p = it.next();
            sent += p.sent;
            sum += p.difference;
            sumSq += p.difference * p.difference;
        }
        final double mean = sum / GROUP;
        return new double[] {sent / GROUP, mean, Math.max(0, sumSq / GROUP - mean * mean)};
    }
}
