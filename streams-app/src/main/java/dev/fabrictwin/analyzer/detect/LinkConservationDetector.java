package dev.fabrictwin.analyzer.detect;

import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;

/**
 * {@code SILENT_DROP}: packets one end of a link sent that the other never received, with no error counter
 * to show for it. For each direction the detector keeps the running difference d = Σ tx_packets(sender) −
 * Σ rx_packets(receiver). The two devices' clocks are skewed, so d also holds whatever was in flight between
 * their sampling instants — a term proportional to the traffic's rate (the pair's clock offset times the rate),
 * while lost packets make d grow with what was sent. Over a {@value #SPAN}-tick window the detector fits
 * d = share·sent + offset·rate + c by least squares; a share above {@value #MIN_LOSS} and {@value #SIGMAS}
 * standard errors (the fit's own residual spread: each device pair's skew and jitter set their own tolerance)
 * is a candidate. The fit's standard error assumes independent residuals, which d's are not: the in-flight
 * amount is a whole comm burst or two, and moves in steps as phases drift against the sampling instants (a healthy
 * link read 0/1/2 bursts in flight looks like 5 % loss for half a minute). What is honest with such residuals is
 * that in-flight amounts are bounded, so their tick-to-tick changes telescope — as many go down as up — while a
 * lossy link's d rises in every tick that carries traffic. So a candidate must also pass a sign test on d's
 * increments, its p-value corrected for the number of directions judged in the tick (Bonferroni, family-wise
 * {@value #FAMILY_ALPHA} per tick), and lost packets never come back: d must end above anything it showed before
 * the window.
 *
 * <p>Some switch ports count the control frames they exchange in their packet counters and their peers do not.
 * PFC pause frames are bounded by the ports' own pause counters, so d is taken net of the pauses sent on the
 * direction (whichever of the sender's tx and the receiver's rx pause counters is larger); other control traffic
 * (LLDP, LACP, BFD) is a few frames a second, so a loss must also exceed {@value #CONTROL_FRAMES_PER_SECOND}
 * frames per second of the window.
 * A reset or gap on either end restarts the direction's accounting.
 */
public final class LinkConservationDetector implements Detector {

    static final int SPAN = 30;
    static final double SIGMAS = 8;
    /** Ticks in the window that must carry traffic: one burst says nothing about a loss rate. */
    static final int MIN_ACTIVE_TICKS = SPAN / 3;
    static final double MIN_LOSS = 0.001;
    static final double MIN_PACKETS = 1e5;
    /** False SILENT_DROP alerts allowed per tick across all directions judged (the sign test's family). */
    static final double FAMILY_ALPHA = 1e-3;
    /** Control frames (LLDP, LACP, BFD) one end may count and the other not: a floor no loss worth naming is under. */
    static final double CONTROL_FRAMES_PER_SECOND = 100;

    private record Point(double sent, double difference, double rate, long time) implements Serializable {
    }

    /** A port's running sums since its last reset; {@code epoch} counts resets so directions can restart. */
    private static final class Running implements Serializable {
        double tx;
        double rx;
        double txPause;
        double rxPause;
        int epoch;
    }

    /** A direction's points and the sender/receiver epochs they were taken in. */
    private static final class Direction implements Serializable {
        final Deque<Point> points = new ArrayDeque<>();
        int senderEpoch = -1;
        int receiverEpoch = -1;
        /** Loss found: it stays found while the evidence is half as strong (hysteresis). */
        boolean losing;
        /** Points in the window with traffic. */
        int activeTicks;
        /** The highest d among the points that have left the window (since the last restart). */
        double peakBefore = Double.NEGATIVE_INFINITY;
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
                r.txPause = 0;
                r.rxPause = 0;
                r.epoch++;
                continue;
            }
            r.tx += t.observed(CounterNames.TX_PACKETS);
            r.rx += t.observed(CounterNames.RX_PACKETS);
            r.txPause += TickContext.pfc(t, CounterNames.TX_PFC_PAUSE, true);
            r.rxPause += TickContext.pfc(t, CounterNames.RX_PFC_PAUSE, true);
        }
        final List<Candidate> candidates = new java.util.ArrayList<>();
        int judged = 0;
        final Map<Integer, Finding> perLink = new HashMap<>();
        for (final PortTick sender : context.ports().values()) {
            final PortRef peer = context.peer(sender.port());
            final PortTick receiver = peer == null ? null : context.port(peer);
            if (receiver == null) {
                continue;
            }
            final Running a = running.get(sender.port());
            final Running b = running.get(peer);
            final int directed = context.fabric().txLink(sender.port());
            final Direction direction = directions.computeIfAbsent(directed, d -> new Direction());
            final Deque<Point> points = direction.points;
            if (direction.senderEpoch != a.epoch || direction.receiverEpoch != b.epoch) {
                points.clear();
                direction.activeTicks = 0;
                direction.losing = false;
                direction.peakBefore = Double.NEGATIVE_INFINITY;
                direction.senderEpoch = a.epoch;
                direction.receiverEpoch = b.epoch;
            }
            if (sender.unreliable() || receiver.unreliable()) {
                continue;
            }
            // pause frames on this direction, which either end may count as packets: never read as loss
            final double pauses = Math.max(a.txPause, b.rxPause);
            final Point point = new Point(a.tx, a.tx - b.rx - pauses, sender.observedRate(CounterNames.TX_PACKETS),
                Math.max(sender.t1(), receiver.t1()));
            points.addLast(point);
            direction.activeTicks += point.rate > 0 ? 1 : 0;
            if (points.size() > SPAN) {
                final Point gone = points.removeFirst();
                direction.activeTicks -= gone.rate > 0 ? 1 : 0;
                direction.peakBefore = Math.max(direction.peakBefore, gone.difference);
            }
            if (points.size() < SPAN || direction.activeTicks < MIN_ACTIVE_TICKS) {
                continue;
            }
            judged++;
            final Loss loss = Loss.fit(points);
            final double strength = direction.losing ? 0.5 : 1;
            final double seconds = (points.peekLast().time - points.peekFirst().time) / 1000.0;
            final boolean candidate = loss != null && loss.sent >= MIN_PACKETS && loss.share >= strength * MIN_LOSS
                && loss.share >= strength * SIGMAS * loss.standardError
                && loss.share * loss.sent >= strength * CONTROL_FRAMES_PER_SECOND * seconds
                && (direction.losing || beyondItsPast(direction, loss));
            if (candidate) {
                candidates.add(new Candidate(sender, peer, directed, direction, loss));
            } else {
                direction.losing = false;
            }
        }
        for (final Candidate c : candidates) {
            final Direction direction = c.direction;
            // a loss already found stays while half as strong; a new one must rise in more ticks than chance allows
            direction.losing = direction.losing || risesBeyondChance(direction.points, c.loss.skew, FAMILY_ALPHA / judged);
            if (!direction.losing) {
                continue;
            }
            final Loss loss = c.loss;
            final PortTick sender = c.sender;
            final PortRef peer = c.peer;
            final int directed = c.directed;
            final double share = loss.share;
            final double lost = share * loss.sent;
            final double sent = loss.sent;
            final Link link = context.fabric().link(directed / 2);
            perLink.merge(link.index(), Finding.root(FaultType.SILENT_DROP, Entity.link(link), "lost_packet_share",
                share, 0, Severity.CRITICAL, String.format("link %s—%s silently loses %.2f%% of packets from "
                    + "%s to %s (%.3g of %.3g over %d ticks) with no error counter rising", link.lower().device(),
                    link.upper().device(), 100 * share, sender.port().device(), peer.device(), lost, sent, SPAN)),
                (x, y) -> x.observed() >= y.observed() ? x : y);
        }
        out.addAll(perLink.values());
    }

    private record Candidate(PortTick sender, PortRef peer, int directed, Direction direction, Loss loss) {
    }

    /**
     * Sign test on d's increments between consecutive points that carried traffic, net of the fitted clock-skew
     * term: without loss, d is an in-flight amount that goes down as often as up (its changes telescope), whatever
     * their size or autocorrelation over a window; a loss raises it in every tick. A rise within what control frames
     * counted by one end could make is a tie, and a tie is no rise. True when P(Binomial(n, ½) ≥ rises) ≤ alpha.
     */
    private static boolean risesBeyondChance(final Deque<Point> points, final double skew, final double alpha) {
        int n = 0;
        int rises = 0;
        Point previous = null;
        for (final Point p : points) {
            if (previous != null && p.sent > previous.sent) {
                n++;
                final double rise = p.difference - previous.difference - skew * (p.rate - previous.rate);
                rises += rise > CONTROL_FRAMES_PER_SECOND * (p.time - previous.time) / 1000.0 ? 1 : 0;
            }
            previous = p;
        }
        return n > 0 && upperTail(n, rises) <= alpha;
    }

    /** P(Binomial(n, ½) ≥ k). */
    static double upperTail(final int n, final int k) {
        double term = Math.pow(0.5, n); // P(X = n)
        double sum = 0;
        for (int i = n; i >= Math.max(k, 0); i--) {
            sum += term;
            term = term * i / (n - i + 1); // P(X = i - 1) from P(X = i)
        }
        return Math.min(1, sum);
    }

    /**
     * Lost packets never come back, so a lossy link's d keeps reaching new highs: it ends at least half the window's
     * loss above anything it showed before the window. An in-flight amount that dipped and creeps back (a phase
     * relation between comm phases and sampling instants shifting after a fault elsewhere) only returns to where d
     * had been.
     */
    private static boolean beyondItsPast(final Direction direction, final Loss loss) {
        return direction.points.peekLast().difference - direction.peakBefore >= 0.5 * loss.share * loss.sent;
    }

    /**
     * Least squares d = share·sent + skew·rate + c over the window: lost packets grow with what was sent, while
     * the in-flight term between two skewed sampling instants follows the traffic's rate (so a step in load is
     * not mistaken for loss). Returns the loss share, its standard error and the packets sent in the window.
     */
    private record Loss(double share, double standardError, double sent, double skew) {
        static Loss fit(final Deque<Point> points) {
            final int n = points.size();
            double mx = 0;
            double mr = 0;
            double md = 0;
            for (final Point p : points) {
                mx += p.sent;
                mr += p.rate;
                md += p.difference;
            }
            mx /= n;
            mr /= n;
            md /= n;
            double sxx = 0;
            double srr = 0;
            double sxr = 0;
            double sxd = 0;
            double srd = 0;
            for (final Point p : points) {
                final double x = p.sent - mx;
                final double r = p.rate - mr;
                final double d = p.difference - md;
                sxx += x * x;
                srr += r * r;
                sxr += x * r;
                sxd += x * d;
                srd += r * d;
            }
            final double det = sxx * srr - sxr * sxr;
            if (!(sxx > 0) || !(det > 1e-12 * sxx * Math.max(srr, 1))) {
                return sxx > 0 ? simple(points, mx, md, sxx, sxd) : null;
            }
            final double share = (sxd * srr - srd * sxr) / det;
            final double skew = (srd * sxx - sxd * sxr) / det;
            double sse = 0;
            for (final Point p : points) {
                final double e = p.difference - md - share * (p.sent - mx) - skew * (p.rate - mr);
                sse += e * e;
            }
            final double variance = sse / Math.max(1, n - 3);
            return new Loss(share, Math.sqrt(variance * srr / det), points.peekLast().sent - points.peekFirst().sent, skew);
        }

        /** Constant rate in the window: the rate term is the intercept, fit d = share·sent + c. */
        private static Loss simple(final Deque<Point> points, final double mx, final double md, final double sxx,
                                   final double sxd) {
            final double share = sxd / sxx;
            double sse = 0;
            for (final Point p : points) {
                final double e = p.difference - md - share * (p.sent - mx);
                sse += e * e;
            }
            final double variance = sse / Math.max(1, points.size() - 2);
            return new Loss(share, Math.sqrt(variance / sxx), points.peekLast().sent - points.peekFirst().sent, 0);
        }
    }
}
