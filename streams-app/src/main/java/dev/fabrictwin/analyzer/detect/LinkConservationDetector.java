package dev.fabrictwin.analyzer.detect;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;

/**
 * {@code SILENT_DROP}: packets one end of a link sent that the other never received, with no error counter to show for
 * it. For each direction the detector keeps the running difference d = Σ tx_packets(sender) − Σ rx_packets(receiver).
 * The two devices' clocks are skewed, so d also holds whatever was in flight between their sampling instants — a term
 * proportional to the traffic's rate (the pair's clock offset times the rate), while lost packets make d grow with what
 * was sent. Over a window of {@link DetectionCalibration.SilentDrop#spanPoints} points the detector fits d = share·sent
 * + offset·rate + c by least squares. The residuals are not independent: the in-flight amount is a whole comm burst or
 * two, and moves in steps and ramps as phases drift against the sampling instants. So the share is tested against its
 * Newey–West (autocorrelation-consistent) error — a step leaves residuals on one side for many points, which widens it
 * — at a level corrected for the number of windows judged in the tick (Bonferroni,
 * {@link DetectionCalibration.SilentDrop#familyAlpha} per tick, never below
 * {@link DetectionCalibration.SilentDrop#minT} errors), and against {@link DetectionCalibration.SilentDrop#minIidT} of
 * the error that assumes independent residuals. A share above {@link DetectionCalibration.SilentDrop#minLoss} that
 * passes is a loss, if lost packets never come back: the loss line (the fit without its in-flight term) must end above
 * anything d showed at any tick before the window, so a window is judged only once half a window of past has gone
 * before it. The in-flight amount is not the tick's mean rate times a skew when traffic comes in bursts: it is whatever
 * part of a burst fell between the two ends' sampling instants, a whole burst or nothing, and it drifts with the comm
 * phases; the t-test alone can take that drift for a loss, the permanence check cannot (d never rises above where it
 * has been).
 *
 * <p>The in-flight amount is bounded, the loss is not: a loss too small to rise above the in-flight noise of one tick
 * (a 1 % loss on a link whose two ends' clocks are 100 ms apart, read in bursts) rises above it over more ticks. So
 * each direction is judged on three time scales at once: windows of {@link DetectionCalibration.SilentDrop#spanPoints}
 * points taken every tick, every 3rd and every 9th tick (30, 90 and 270 ticks). A strong loss is found on the first
 * within a window; a weak one, or one behind noisy clocks, later on a longer one.
 *
 * <p>Some switch ports count the control frames they exchange in their packet counters and their peers do not.
 * PFC pause frames are bounded by the ports' own pause counters, so d is taken net of the pauses sent on the
 * direction (whichever of the sender's tx and the receiver's rx pause counters is larger), and, towards a NIC, of
 * the CNPs the NIC received (its {@code cnp_handled}: the switch port facing it may count them); other control
 * traffic (LLDP, LACP, BFD) is a few frames a second, so a loss must also exceed
 * {@link DetectionCalibration.SilentDrop#controlFramesPerSecond}
 * frames per second of the window.
 * A reset or gap on either end restarts the direction's accounting.
 *
 * <p>Where the two ends are polled at their own phases and cadences (a real Clos's routers: every 10 s at phases
 * seconds apart, one every 11.5 s), their sums at their own instants hold seconds of traffic between the instants,
 * which a rising load lifts for good, like a loss. So each direction also reads d at one instant both ends have passed,
 * each end's sums read from the line between its own samples, and judges whichever of the two readings moves less from
 * tick to tick ({@link DetectionCalibration.SilentDrop#readingGain}): collectors whose stamps jitter around one reading
 * instant keep the first, ends polled apart take the second.
 */
final class LinkConservationDetector implements Detector {

    /**
     * A port's running sums since its last reset ({@code epoch} counts resets so directions can restart), and the sums
     * at its last few sampling instants: the two ends of a link are polled at their own instants (and cadences), so a
     * direction compares them at one instant both have passed, each read from its own line between its samples.
     */
    private static final class Running implements Serializable {
        /** Sums kept per instant: tx, rx, tx pauses, rx pauses, CNPs received. */
        static final int TX = 0;
        static final int RX = 1;
        static final int TX_PAUSE = 2;
        static final int RX_PAUSE = 3;
        static final int CNP_IN = 4;
        /** Instants kept: the ends' polls differ by under a tick or two (later ones are judged at the next tick). */
        static final int INSTANTS = 4;
        final double[] sums = new double[5];
        int epoch;
        private final long[] times = new long[INSTANTS];
        private final double[][] at = new double[INSTANTS][5];
        private int kept;
        private int head;

        void reset() {
            Arrays.fill(sums, 0);
            kept = 0;
            epoch++;
        }

        /** Adds one tick's increments, which ran from {@code t0} (the sums' zero after a reset) to {@code t1}. */
        void add(final long t0, final long t1, final double tx, final double rx, final double txPause,
                 final double rxPause, final double cnpIn) {
            if (kept == 0) {
                keep(t0);
            }
            sums[TX] += tx;
            sums[RX] += rx;
            sums[TX_PAUSE] += txPause;
            sums[RX_PAUSE] += rxPause;
            sums[CNP_IN] += cnpIn;
            keep(t1);
        }

        private void keep(final long time) {
            if (kept > 0 && times[Math.floorMod(head - 1, INSTANTS)] >= time) {
                return; // an instant no later than the last adds no point
            }
            times[head] = time;
            System.arraycopy(sums, 0, at[head], 0, sums.length);
            head = (head + 1) % INSTANTS;
            kept = Math.min(INSTANTS, kept + 1);
        }

        /** The latest sampling instant (meaningless before the first). */
        long latest() {
            return times[Math.floorMod(head - 1, INSTANTS)];
        }

        /** Sum {@code which} at {@code time}, between the instants around it; NaN when it is older than those kept. */
        double at(final long time, final int which) {
            double laterValue = Double.NaN;
            long later = Long.MIN_VALUE;
            for (int i = 1; i <= kept; i++) {
                final int slot = Math.floorMod(head - i, INSTANTS);
                final long t = times[slot];
                final double v = at[slot][which];
                if (t <= time) {
                    return t == time || later == Long.MIN_VALUE ? v
                        : v + (laterValue - v) * (time - t) / (double) (later - t);
                }
                later = t;
                laterValue = v;
            }
            return Double.NaN;
        }
    }

    /** A direction's windows and the sender/receiver epochs they were taken in. */
    private static final class Direction implements Serializable {
        final DetectionCalibration.SilentDrop cal;
        final Window[] windows;
        RisingFloor floor;
        int senderEpoch = -1;
        int receiverEpoch = -1;
        /** Points taken since the last restart. */
        long taken;
        /** d and the sender's running sum a tick ago: the floor of the last two ticks is what the windows fit. */
        double previousDifference = Double.NaN;
        double previousSent = Double.NaN;

        Direction(final DetectionCalibration.SilentDrop cal) {
            this.cal = cal;
            this.windows = new Window[cal.scales().size()];
            for (int s = 0; s < windows.length; s++) {
                windows[s] = new Window(cal.scales().get(s), cal.spanPoints());
            }
            this.floor = new RisingFloor(cal);
        }

        /**
         * Which reading of d this direction judges: the ends' sums at their own latest instants (exact when both ends
         * are read at one instant, whatever their stamps say), or both read at the earlier instant from each end's line
         * between its samples (right when the ends are polled at their own phases and cadences). Each reading's
         * tick-to-tick move is tracked and the direction judges the quieter one, switching only for one
         * {@link DetectionCalibration.SilentDrop#readingGain} times quieter (its windows then start over).
         */
        boolean interpolated;
        double exactMove;
        double interpolatedMove;
        double lastExact = Double.NaN;
        double lastInterpolated = Double.NaN;
        long compared;

        void restart(final int sender, final int receiver) {
            startOver();
            senderEpoch = sender;
            receiverEpoch = receiver;
            exactMove = 0;
            interpolatedMove = 0;
            lastExact = Double.NaN;
            lastInterpolated = Double.NaN;
            compared = 0;
        }

        private void startOver() {
            for (final Window w : windows) {
                w.clear();
            }
            floor = new RisingFloor(cal);
            taken = 0;
            previousDifference = Double.NaN;
            previousSent = Double.NaN;
        }

        /**
         * Tracks both readings' moves and returns whether this tick judges the interpolated one (NaN: that reading
         * has no instant to read this tick).
         */
        boolean judgeInterpolated(final double exact, final double atOneInstant) {
            if (!Double.isNaN(atOneInstant) && !Double.isNaN(lastExact) && !Double.isNaN(lastInterpolated)) {
                final double weight = 1.0 / cal.spanPoints();
                exactMove += weight * (Math.abs(exact - lastExact) - exactMove);
                interpolatedMove += weight * (Math.abs(atOneInstant - lastInterpolated) - interpolatedMove);
                compared++;
            }
            lastExact = exact;
            lastInterpolated = atOneInstant;
            if (compared >= cal.spanPoints()) {
                final boolean quieter = interpolated
                    ? exactMove * cal.readingGain() >= interpolatedMove
                    : interpolatedMove * cal.readingGain() < exactMove;
                if (quieter != interpolated) {
                    interpolated = quieter;
                    startOver();
                }
            }
            return interpolated;
        }
    }

    /** By port index, and by directed link (a sender's port index): sized to the fabric at the first tick. */
    private Running[] running;
    private Direction[] directions;

    /** A window to report if it is (still) losing; {@code fresh}: it took a point this tick and is tested anew. */
    private record Candidate(PortTick sender, PortTick receiver, Window window, Loss loss, boolean fresh) {
    }

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        final DetectionCalibration.SilentDrop cal = context.config().calibration().silentDrop();
        if (running == null) {
            running = new Running[context.fabric().directedLinkCount()];
            directions = new Direction[context.fabric().directedLinkCount()];
        }
        // each port's own running sums first: a port that missed a tick catches up in its next interval
        for (final PortTick t : context.ports()) {
            if (running[t.index()] == null) {
                running[t.index()] = new Running();
            }
            final Running r = running[t.index()];
            if (!t.packetsExact(context.capacityBps(t)) || !t.reports(CounterIndex.TX_PACKETS)
                || !t.reports(CounterIndex.RX_PACKETS)) {
                r.reset();
                continue;
            }
            r.add(t.t0(), t.t1(), t.observed(CounterIndex.TX_PACKETS), t.observed(CounterIndex.RX_PACKETS),
                TickContext.pfc(t, CounterNames.TX_PFC_PAUSE, true), TickContext.pfc(t, CounterNames.RX_PFC_PAUSE, true),
                t.reports(CounterIndex.CNP_HANDLED) ? t.observed(CounterIndex.CNP_HANDLED) : 0);
        }
        final List<Candidate> candidates = new ArrayList<>();
        final Map<Integer, Finding> risen = new HashMap<>();
        int judged = 0;
        for (final PortTick sender : context.ports()) {
            final PortTick receiver = context.peerOf(sender);
            if (receiver == null) {
                continue;
            }
            final Running a = running[sender.index()];
            final Running b = running[receiver.index()];
            final int directed = sender.index();
            if (directions[directed] == null) {
                directions[directed] = new Direction(cal);
            }
            final Direction direction = directions[directed];
            if (direction.senderEpoch != a.epoch || direction.receiverEpoch != b.epoch) {
                direction.restart(a.epoch, b.epoch);
            }
            if (!sender.packetsExact(context.capacityBps(sender))
                || !receiver.packetsExact(context.capacityBps(receiver))) {
                continue;
            }
            // control frames on this direction, which one end may count as packets and the other not: never read as
            // loss — pause frames (bounded by either end's pause counters) and the CNPs a NIC receives. d is read two
            // ways (Direction#judgeInterpolated): at each end's own latest instant, and at the earlier of the two
            final double exactControl = Math.max(a.sums[Running.TX_PAUSE], b.sums[Running.RX_PAUSE])
                + b.sums[Running.CNP_IN];
            final double exact = a.sums[Running.TX] - b.sums[Running.RX] - exactControl;
            final long instant = Math.min(a.latest(), b.latest());
            final double sentThen = a.at(instant, Running.TX);
            final double atOneInstant = sentThen - b.at(instant, Running.RX)
                - Math.max(a.at(instant, Running.TX_PAUSE), b.at(instant, Running.RX_PAUSE)) - b.at(instant, Running.CNP_IN);
            final boolean interpolated = direction.judgeInterpolated(exact, atOneInstant);
            if (interpolated && Double.isNaN(atOneInstant)) {
                continue;
            }
            final double difference = interpolated ? atOneInstant : exact;
            final double sent = interpolated ? sentThen : a.sums[Running.TX];
            final long time = interpolated ? instant : Math.max(sender.t1(), receiver.t1());
            final double pausesToSender = interpolated
                ? Math.max(a.at(instant, Running.RX_PAUSE), b.at(instant, Running.TX_PAUSE))
                : Math.max(a.sums[Running.RX_PAUSE], b.sums[Running.TX_PAUSE]);
            final double rate = sender.observedRate(CounterIndex.TX_PACKETS);
            final long taken = direction.taken++;
            final double rise = direction.floor.observe(difference, sent, pausesToSender, time,
                cal.controlFramesPerSecond(), context.config().tickMs());
            if (!Double.isNaN(rise)) {
                final Link link = context.fabric().link(directed / 2);
                risen.merge(link.index(), finding(link, sender, receiver, rise, direction.floor.sentOver(), 2),
                    (x, y) -> x.observed() >= y.observed() ? x : y);
            }
            // the windows fit d's floor over the last two ticks, with what had been sent at the tick whose d it is: a burst
            // caught between two ends read at different instants lifts d for a tick and is gone the next (ends read
            // hundreds of ms apart while their stamps agree), lost packets lift every later tick
            final boolean olderIsFloor = direction.previousDifference < difference;
            final double floorD = olderIsFloor ? direction.previousDifference : difference;
            final double floorSent = olderIsFloor ? direction.previousSent : sent;
            direction.previousDifference = difference;
            direction.previousSent = sent;
            for (final Window w : direction.windows) {
                if (taken % w.every != 0) {
                    w.observe(difference);
                    if (w.losing) { // between its points a window stands by its last judgement
                        candidates.add(new Candidate(sender, receiver, w, w.lastLoss, false));
                    }
                    continue;
                }
                w.add(floorSent, floorD, difference, rate, time);
                if (!judgeable(w, cal)) {
                    continue;
                }
                judged++;
                final Loss loss = Loss.fit(w, cal.hacLags());
                final double strength = w.losing ? 0.5 : 1;
                final double seconds = (w.time(cal.spanPoints() - 1) - w.time(0)) / 1000.0;
                final boolean candidate = loss != null && largeEnough(loss, strength, seconds, cal)
                    && (w.losing || w.beyondItsPast(loss));
                if (candidate) {
                    candidates.add(new Candidate(sender, receiver, w, loss, true));
                } else {
                    w.losing = false;
                }
            }
        }
        // the test: the share's t against its autocorrelation-consistent error, at a level corrected for every window
        // judged in this tick; a loss already found stays while half as strong
        final double threshold = Math.max(cal.minT(), upperQuantile(cal.familyAlpha() / Math.max(1, judged)));
        final Map<Integer, Finding> perLink = risen;
        for (final Candidate c : candidates) {
            final Window w = c.window;
            if (c.fresh) {
                w.losing = c.loss.significant((w.losing ? 0.5 : 1) * threshold, cal);
                w.lastLoss = c.loss;
            }
            if (w.losing) {
                final Link link = context.fabric().link(c.sender.index() / 2);
                perLink.merge(link.index(), finding(link, c.sender, c.receiver, c.loss.share, c.loss.sent,
                    cal.spanPoints() * c.window.every), (x, y) -> x.observed() >= y.observed() ? x : y);
            }
        }
        out.addAll(named(context, perLink).values());
    }

    /**
     * A window full of points, with half a window of past before it (lost packets never come back: the loss line must
     * end above anything d showed before the window) and enough of them following traffic, by count and by the spread
     * of what each sent: one burst says nothing about a loss rate.
     */
    static boolean judgeable(final Window w, final DetectionCalibration.SilentDrop cal) {
        return !(w.size < cal.spanPoints() || w.dropped < cal.spanPoints() / 2 || w.activePoints < cal.minActivePoints()
            || w.effectivePoints() < cal.minActivePoints());
    }

    /**
     * A fitted loss worth testing: enough packets sent in the window, a share of them at least the least loss and
     * more lost than the control frames one end may count over the window's seconds ({@code strength} 0.5 for a loss
     * already found: it stays while half as strong).
     */
    static boolean largeEnough(final Loss loss, final double strength, final double seconds,
                               final DetectionCalibration.SilentDrop cal) {
        return loss.sent >= cal.minPackets() && loss.share >= strength * cal.minLoss()
            && loss.share * loss.sent >= strength * cal.controlFramesPerSecond() * seconds;
    }

    /**
     * A loss names its physical link: where several links join the same two devices (a host's NICs on one leaf), a
     * link entity would name all of them, so a loss on some of them names each by its port at the lower end (the
     * NIC); a loss on all of them names the link between the devices.
     */
    private static Map<Integer, Finding> named(final TickContext context, final Map<Integer, Finding> perLink) {
        final Map<Integer, Finding> out = new TreeMap<>(perLink);
        for (final Map.Entry<Integer, Finding> e : perLink.entrySet()) {
            final Link link = context.fabric().link(e.getKey());
            final List<Link> parallel = context.fabric().linksBetween(link.lower().device(), link.upper().device());
            if (parallel.size() < 2) {
                continue;
            }
            if (!parallel.stream().allMatch(l -> perLink.containsKey(l.index()))) {
                out.put(e.getKey(), e.getValue().naming(Entity.port(link.lower())));
            } else if (link.index() != parallel.get(0).index()) { // one finding for the pair: the largest loss
                out.remove(e.getKey());
                out.merge(parallel.get(0).index(), e.getValue(), (x, y) -> x.observed() >= y.observed() ? x : y);
            }
        }
        return out;
    }

    private static Finding finding(final Link link, final PortTick sender, final PortTick receiver, final double share,
                                   final double sent, final int ticks) {
        return Finding.root(FaultType.SILENT_DROP, Entity.link(link), "lost_packet_share", share, 0, Severity.CRITICAL,
            String.format("link %s—%s silently loses %.2f%% of packets from %s to %s (%.3g of %.3g over %d ticks) "
                + "with no error counter rising", link.lower().device(), link.upper().device(), 100 * share,
                sender.port().device(), receiver.port().device(), share * sent, sent, ticks));
    }

    /**
     * z with P(Z > z) = p for a standard normal Z (Abramowitz and Stegun 26.2.23, error under 4.5e-4), p ≤ ½.
     */
    static double upperQuantile(final double p) {
        final double t = Math.sqrt(-2 * Math.log(p));
        return t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t);
    }

    /**
     * The last {@link DetectionCalibration.SilentDrop#spanPoints} points of a direction taken every {@code every}
     * ticks.
     */
    static final class Window implements Serializable {
        final int every;
        private final double[] sent;
        private final double[] difference;
        private final double[] rate;
        private final long[] time;
        /** The highest d from each point's tick until the next point's: every tick's d, not only the points'. */
        private final double[] segmentPeak;
        private int head;
        int size;
        /** Points after which the sender had sent more than at the point before. */
        int activePoints;
        /** Loss found: it stays found while the evidence is half as strong (hysteresis). */
        boolean losing;
        /** The fit at its last point. */
        Loss lastLoss;
        /**
         * The highest d at any tick before the window's first point (since the last restart): every tick's, not only
         * the points' — a 9-tick window's points can all fall at sampling instants with nothing in flight while the
         * ticks between them held a burst.
         */
        private double peakBefore = Double.NEGATIVE_INFINITY;
        /**
         * Points that have left the window since the last restart: it is judged once half a window has, so that
         * "never comes back" has a past to be judged against (a direction's first half minute, the start of a job,
         * holds in-flight amounts that settle).
         */
        int dropped;

        Window(final int every, final int span) {
            this.every = every;
            this.sent = new double[span];
            this.difference = new double[span];
            this.rate = new double[span];
            this.time = new long[span];
            this.segmentPeak = new double[span];
        }

        void clear() {
            head = 0;
            size = 0;
            activePoints = 0;
            losing = false;
            lastLoss = null;
            peakBefore = Double.NEGATIVE_INFINITY;
            dropped = 0;
        }

        /** {@code i} ≤ the span and {@code head} < it: one subtraction, not a division (the fit reads every point). */
        private int slot(final int i) {
            final int s = head + i;
            return s >= sent.length ? s - sent.length : s;
        }

        double sent(final int i) {
            return sent[slot(i)];
        }

        double difference(final int i) {
            return difference[slot(i)];
        }

        double rate(final int i) {
            return rate[slot(i)];
        }

        long time(final int i) {
            return time[slot(i)];
        }

        private boolean active(final int i) {
            return i == 0 ? rate(0) > 0 : sent(i) > sent(i - 1);
        }

        /** A point: the floor of d and what had been sent at its tick; {@code differenceNow}, this tick's d, for the peaks. */
        void add(final double sentNow, final double floorNow, final double differenceNow, final double rateNow,
                 final long timeNow) {
            if (size == sent.length) {
                peakBefore = Math.max(peakBefore, segmentPeak[slot(0)]);
                dropped++;
                activePoints -= active(0) ? 1 : 0;
                activePoints -= active(1) ? 1 : 0; // the second point's activity is judged anew as the first
                head = slot(1);
                size--;
                activePoints += active(0) ? 1 : 0;
            }
            final int at = slot(size);
            sent[at] = sentNow;
            difference[at] = floorNow;
            rate[at] = rateNow;
            time[at] = timeNow;
            segmentPeak[at] = differenceNow;
            size++;
            activePoints += active(size - 1) ? 1 : 0;
        }

        /**
         * How many points the window's traffic is spread over, each weighted by what it sent: (Σ s)² / Σ s² over the
         * steps between points. A window whose traffic came in its last tick or two (a job resuming after a stall: a
         * trickle kept the earlier points "active") is a fit through two points, and what is in flight between two
         * ends read at different instants then passes for a share of that burst lost.
         */
        double effectivePoints() {
            double sum = 0;
            double squares = 0;
            for (int i = 1; i < size; i++) {
                final double step = Math.max(0, sent(i) - sent(i - 1));
                sum += step;
                squares += step * step;
            }
            return squares > 0 ? sum * sum / squares : 0;
        }

        /** d at a tick between this window's points: part of the window's past once that point has left it. */
        void observe(final double differenceNow) {
            if (size > 0) {
                final int last = slot(size - 1);
                segmentPeak[last] = Math.max(segmentPeak[last], differenceNow);
            }
        }

        /**
         * Lost packets never come back, so a lossy link's d keeps reaching new highs: the fit ends at least half the
         * window's loss above anything d showed before the window (the fit, not the last point: in-flight noise as
         * large as the loss would hide it; and the loss line without the in-flight term: on a bursty link whose
         * receiver samples after its sender, a burst that lands between the two instants makes d dip by the burst and
         * the sender's rate low that tick, so the fitted skew is large and a last point at a high rate lifted the fit's
         * end a whole burst above every d before). An in-flight amount that dipped and creeps back (a
         * phase relation between comm phases and sampling instants shifting after a fault elsewhere) only returns to
         * where d had been.
         */
        boolean beyondItsPast(final Loss loss) {
            return loss.end - peakBefore >= 0.5 * loss.share * loss.sent;
        }

    }

    /**
     * Least squares d = share·sent + skew·rate + c over a window: lost packets grow with what was sent, while
     * the in-flight term between two skewed sampling instants follows the traffic's rate (so a step in load is
     * not mistaken for loss). Returns the loss share, its standard error, the packets sent in the window, the
     * skew term and {@code end}: the loss line share·sent + c at the window's last point, at the window's mean rate —
     * the last point's own in-flight term is not loss.
     */
    record Loss(double share, double standardError, double hacStandardError, double sent, double skew, double end)
        implements Serializable {

        /**
         * Significant at {@code t}: {@code t} autocorrelation-consistent errors, and
         * {@link DetectionCalibration.SilentDrop#minIidT} of the errors that assume independent residuals (with a
         * window's points, telescoping in-flight changes can make the former come out small).
         */
        boolean significant(final double t, final DetectionCalibration.SilentDrop cal) {
            return share >= t * hacStandardError && share >= cal.minIidT() / cal.minT() * t * standardError;
        }

        static Loss fit(final Window w, final int hacLags) {
            final int n = w.size;
            double mx = 0;
            double mr = 0;
            double md = 0;
            for (int i = 0; i < n; i++) {
                mx += w.sent(i);
                mr += w.rate(i);
                md += w.difference(i);
            }
            mx /= n;
            mr /= n;
            md /= n;
            double sxx = 0;
            double srr = 0;
            double sxr = 0;
            double sxd = 0;
            double srd = 0;
            for (int i = 0; i < n; i++) {
                final double x = w.sent(i) - mx;
                final double r = w.rate(i) - mr;
                final double d = w.difference(i) - md;
                sxx += x * x;
                srr += r * r;
                sxr += x * r;
                sxd += x * d;
                srd += r * d;
            }
            final double sent = w.sent(n - 1) - w.sent(0);
            final double det = sxx * srr - sxr * sxr;
            if (!(sxx > 0)) {
                return null;
            }
            final boolean constantRate = !(det > 1e-12 * sxx * Math.max(srr, 1));
            // at a constant rate the rate term is the intercept: fit d = share·sent + c
            final double share = constantRate ? sxd / sxx : (sxd * srr - srd * sxr) / det;
            final double skew = constantRate ? 0 : (srd * sxx - sxd * sxr) / det;
            final double[] e = new double[n];
            final double[] a = new double[n]; // share − its true value = Σ a_i·e_i
            double sse = 0;
            for (int i = 0; i < n; i++) {
                final double x = w.sent(i) - mx;
                final double r = w.rate(i) - mr;
                e[i] = w.difference(i) - md - share * x - skew * r;
                a[i] = constantRate ? x / sxx : (srr * x - sxr * r) / det;
                sse += e[i] * e[i];
            }
            final double variance = sse / Math.max(1, n - (constantRate ? 2 : 3));
            return new Loss(share, Math.sqrt(constantRate ? variance / sxx : variance * srr / det),
                Math.sqrt(neweyWest(a, e, n - (constantRate ? 2 : 3), hacLags)), sent, skew,
                md + share * (w.sent(n - 1) - mx));
        }

        /**
         * Newey–West variance of Σ a_i·e_i: the residuals' autocovariances up to {@code hacLags} points apart,
         * Bartlett-weighted, scaled by n / dof. A step in the in-flight amount leaves residuals that stay on one side
         * for many points; their autocovariance widens the error, where independent residuals leave it as it was.
         */
        private static double neweyWest(final double[] a, final double[] e, final int dof, final int hacLags) {
            final int n = e.length;
            double v = 0;
            for (int i = 0; i < n; i++) {
                v += a[i] * a[i] * e[i] * e[i];
            }
            for (int lag = 1; lag <= hacLags && lag < n; lag++) {
                final double weight = 1 - lag / (hacLags + 1.0);
                double c = 0;
                for (int i = lag; i < n; i++) {
                    c += a[i] * a[i - lag] * e[i] * e[i - lag];
                }
                v += 2 * weight * c;
            }
            return Math.max(v, 0) * n / Math.max(1, dof);
        }
    }
}
