package dev.fabrictwin.analyzer.detect;

import java.io.Serializable;
import java.util.Arrays;

import dev.fabrictwin.analyzer.DetectionCalibration;

/**
 * The fast test for a silent loss: one direction's running difference d (sent − received, net of control frames) rising
 * above every value it held in a steady past, tick after tick. The window fit ({@link LinkConservationDetector}) needs
 * most of its {@link DetectionCalibration.SilentDrop#spanPoints} points to hold the loss before its slope is
 * significant; this test needs two or three ticks.
 *
 * <p>Why it is honest: lost packets never come back, so a lossy link's d keeps reaching new highs, while on a healthy
 * link d is a constant plus the packets in flight between the two ends' sampling instants, which is bounded. The in
 * flight amount comes in bursts: it dips d (receiver sampling later) or lifts it (earlier) for a tick or two. So the
 * test reads the floor g = min(d now, d a tick ago), which a one-tick burst does not move, and it opens only when
 * <ul>
 *   <li>g is above its highest value at least two ticks old by more than {@link DetectionCalibration.FastTest#kappa} of
 *   its usual tick-to-tick move (a median, so bursts do not widen it), more than
 *   {@link DetectionCalibration.SilentDrop#minLoss} of what was sent over those ticks and more than the control frames
 *   one end may count;</li>
 *   <li>g rose again this tick, by as much as a loss of that share would make it, and the last two steps to a newer
 *   tick's d rose by one share of what was sent between, the same share the rise shows, to
 *   {@link DetectionCalibration.FastTest#consistency}× (a loss rises by its share of each tick's traffic; jitter of
 *   what is in flight by anything: continuous traffic after a past of gaps at the sampling instants jitters the floor
 *   up and down). The rise is read from the older of the two floors, from where the floor usually sits (the median of
 *   its past) when that one was in a dip, and from the past's highest when it was already above it: one high floor in
 *   the past must not halve the share read. A step that starts in a dip below where the floor sits counts for nothing
 *   (a floor that is always in a dip climbs back from deep dips to shallow ones). Where the past showed in-flight
 *   lifting d (additive), three steps must agree, or two to {@link DetectionCalibration.FastTest#tightConsistency}×
 *   after a flat one;</li>
 *   <li>that highest value stands still, or began rising at most {@link DetectionCalibration.FastTest#episodeTicks}
 *   ticks ago after standing still for {@link DetectionCalibration.FastTest#steadyTicks} (a past that was itself
 *   rising, a loss from the start, a job settling, is left to the window fit);</li>
 *   <li>the sender was not paused in the last {@link DetectionCalibration.FastTest#steadyTicks} ticks: a paused
 *   sender's backlog can be counted as sent (counters that count at enqueue) and swell d by a growing amount that
 *   drains when the pauses end;</li>
 *   <li>the sender sent no more per tick (a tick after missed samples counts as the ticks it covers), over the last
 *   {@link DetectionCalibration.FastTest#steadyTicks} ticks, than it did in the past before them (to
 *   {@link DetectionCalibration.FastTest#loadTolerance}×), so a larger in-flight amount (more traffic between the two
 *   instants, a job starting) cannot pass for a loss.</li>
 * </ul> Once open, the rise is followed while it keeps going with at most
 * {@link DetectionCalibration.FastTest#gapTicks} ticks between rising ticks (a burst dipping d interrupts it). State: a
 * few numbers and rings of {@link DetectionCalibration.FastTest#moves} moves and floors per direction.
 */
final class RisingFloor implements Serializable {

    /** The fast test's numbers, and the least loss share of the window fit. */
    private final DetectionCalibration.FastTest cal;
    private final double minLoss;

    private long ticks;
    private double previousD = Double.NaN;
    /**
     * The past showed d standing above the floor's past and falling back: the receiver samples before the sender (or
     * either, with jitter), so what is in flight adds to d and traffic that stops leaving gaps at the sampling instants lifts the
     * floor. Such a direction needs three rising steps of one share before its rise is loss, others two.
     */
    private boolean additive;
    /** The shares of the last two steps over ticks that sent (a step over what was sent in the tick it covers). */
    private double stepShare1 = Double.NaN;
    private double stepShare2 = Double.NaN;
    /** The floors those steps started from. */
    private double stepFrom1 = Double.NaN;
    private double stepFrom2 = Double.NaN;
    /** The floor one and two ticks ago, the cumulative sent at the ticks whose d they are, and at the last three ticks. */
    private double g1 = Double.NaN;
    private double g2 = Double.NaN;
    private double gSent1 = Double.NaN;
    private double gSent2 = Double.NaN;
    private double sent1 = Double.NaN;
    private double sent2 = Double.NaN;
    private long time2;
    private long time1;
    /** The highest floor at least two ticks old, and the tick it last rose at. */
    private double peak = Double.NEGATIVE_INFINITY;
    private long peakRoseAt;
    /** The first rise of the peak after it stood still for the steady ticks. */
    private long episodeStart = Long.MIN_VALUE / 2;
    /** The most the sender sent in one tick, in ticks at least the steady ticks old; the ticks since. */
    private double mostSentPerTick;
    private final double[] sentPerTick;
    private final double[] moves;
    /** The floors that joined the past with those moves: their median is where the floor usually sits. */
    private final double[] floors;
    private int movesTaken;
    private double pendingMove = Double.NaN;
    /** The last tick the rise was read as loss; {@link Long#MIN_VALUE} when none. */
    private long risingAt = Long.MIN_VALUE / 2;
    /** Pause frames the sender has been sent (cumulative), and the last tick they rose in. */
    private double pausesToSender = Double.POSITIVE_INFINITY;
    private long pausedAt = Long.MIN_VALUE / 2;
    private double risenOver;

    RisingFloor(final DetectionCalibration.SilentDrop silentDrop) {
        this.cal = silentDrop.fastTest();
        this.minLoss = silentDrop.minLoss();
        this.peakRoseAt = -cal.steadyTicks();
        this.sentPerTick = new double[cal.steadyTicks()];
        this.moves = new double[cal.moves()];
        this.floors = new double[cal.moves()];
    }

    /**
     * Takes this tick's d, the sender's cumulative packets sent, the pause frames it has been sent (cumulative: the
     * larger of its rx and its peer's tx pause counters) and the tick's end time; returns the share of what was sent
     * over the last two ticks that the rise shows lost, or NaN when it shows none.
     */
    double observe(final double d, final double sent, final double pausesToSender, final long time,
                   final double controlFramesPerSecond, final long tickMs) {
        ticks++;
        if (pausesToSender > this.pausesToSender) {
            pausedAt = ticks;
        }
        this.pausesToSender = pausesToSender;
        // the floor, and what had been sent at the tick whose d it is (the older of two equal: a tick that sent nothing
        // leaves d where it was and moves the floor to no new tick)
        final boolean now = Double.isNaN(previousD) || d < previousD;
        final double g = now ? d : previousD;
        final double gSent = now ? sent : sent1;
        final double sentThisTick = Double.isNaN(sent1) ? 0 : sent - sent1;
        // what one tick carried: a tick after missed samples covers several
        final double loadThisTick = sentThisTick
            / Math.max(1, Math.round((time - time1) / (double) Math.max(1, tickMs)));
        if (!Double.isNaN(previousD) && ticks - risingAt > cal.moves()) {
            // d a tick ago stood above the floor's past and fell back: something in flight had lifted it
            final double tolerance = Math.max(controlFramesPerSecond * Math.max(1, time - time1) / 1000.0,
                minLoss * Math.max(sentThisTick, sent1 - sent2));
            additive |= previousD - peak > tolerance && previousD - d > tolerance;
        }
        previousD = d;
        // the floor two ticks ago joins the past
        if (!Double.isNaN(g2)) {
            final double tolerance = controlFramesPerSecond * Math.max(1, time1 - time2) / 1000.0;
            if (g2 > peak + tolerance) {
                if (ticks - 2 - peakRoseAt >= cal.steadyTicks()) { // the first rise after a steady past
                    episodeStart = ticks - 2;
                }
                peakRoseAt = ticks - 2;
            }
            peak = Math.max(peak, g2);
            if (!Double.isNaN(pendingMove) && ticks - risingAt > cal.moves()) {
                floors[movesTaken % cal.moves()] = g2;
                moves[movesTaken++ % cal.moves()] = pendingMove;
            }
        }
        double share = Double.NaN;
        if (ticks > cal.warmUpTicks() && movesTaken >= cal.moves() / 2 && !Double.isNaN(gSent2)) {
            share = judge(g, gSent, time, controlFramesPerSecond, loadThisTick);
        }
        pendingMove = Double.isNaN(g1) ? Double.NaN : Math.abs(g - g1);
        if (!Double.isNaN(g1) && gSent > gSent1) { // the shares of the last steps to a newer tick's d
            stepShare2 = stepShare1;
            stepFrom2 = stepFrom1;
            stepShare1 = (g - g1) / (gSent - gSent1);
            stepFrom1 = g1;
        }
        final int slot = (int) (ticks % cal.steadyTicks());
        mostSentPerTick = Math.max(mostSentPerTick, sentPerTick[slot]);
        sentPerTick[slot] = loadThisTick;
        g2 = g1;
        g1 = g;
        gSent2 = gSent1;
        gSent1 = gSent;
        sent2 = sent1;
        sent1 = sent;
        time2 = time1;
        time1 = time;
        return share;
    }

    private double judge(final double g, final double gSent, final long time, final double controlFramesPerSecond,
                         final double loadThisTick) {
        final boolean following = ticks - risingAt <= cal.gapTicks() + 1;
        // steady: the past's highest floor stands still, or began rising after standing still not long ago
        final boolean steady = ticks - 2 - peakRoseAt >= cal.steadyTicks() || ticks - episodeStart <= cal.episodeTicks();
        if (!following && (!steady || ticks - pausedAt <= cal.steadyTicks())) {
            return Double.NaN;
        }
        for (final double recent : sentPerTick) {
            if (Math.max(recent, loadThisTick) > cal.loadTolerance() * mostSentPerTick) {
                return Double.NaN;
            }
        }
        final double rise = g - peak;
        if (!(rise > 0)) { // the usual healthy tick: no median to take
            return Double.NaN;
        }
        final double move = medianMove();
        // the rise covers what was sent since the floor two ticks ago (in a staircase g is d a tick ago: two ticks)
        final double sentOver = gSent - gSent2;
        final double seconds = Math.max(1, time - time2) / 1000.0;
        final boolean above = rise > cal.kappa() * move && rise >= minLoss * sentOver
            && rise >= controlFramesPerSecond * seconds && sentOver > 0;
        final double step = g - g1;
        // what the step covers: a floor that moved to no newer tick's d (a tick that sent nothing, a burst in flight)
        // cannot rise, and does not interrupt a rise being followed
        final double covered = gSent - gSent1;
        final boolean idle = !(covered > 0);
        final boolean rising = idle ? following && step >= 0
            : step > cal.kappa() * move / 2 && step >= minLoss * covered;
        // the rise a loss made over those two floors: from the older one, or from where the floor usually sits when
        // that one was in a dip (a floor climbing back from a dip rises by less than its steps), or from the past's
        // highest when it was already above it (a single high floor in the past must not halve the share read)
        final double usual = median(floors);
        final double riseShare = (g - Math.min(Math.max(g2, usual), peak)) / sentOver;
        if (!above || !rising
            || !following && (idle || !consistentSteps(riseShare, step / covered, usual - cal.kappa() * move
                - minLoss * sentOver))) {
            return Double.NaN;
        }
        risingAt = ticks;
        risenOver = sentOver;
        return riseShare;
    }

    /**
     * This step's share and the last one or two (three on an additive direction unless two agree to
     * {@link DetectionCalibration.FastTest#tightConsistency}× after a flat one) agree with the rise on one share. A
     * step that starts in a dip below where the floor usually sits counts for nothing: a floor climbing back out of a
     * dip is no evidence of loss, whatever share its climb shows ({@code dipBelow}: where the floor usually sits, less
     * its usual moves).
     */
    private boolean consistentSteps(final double riseShare, final double stepShare, final double dipBelow) {
        if (g1 < dipBelow) {
            return false;
        }
        final double s1 = stepFrom1 < dipBelow ? Double.NaN : stepShare1;
        final double s2 = stepFrom2 < dipBelow ? Double.NaN : stepShare2;
        // before two close steps: flat, or a climb back out of a dip to where the floor sits, or the loss's first step
        final double before = Double.isNaN(stepShare2) || stepFrom2 < dipBelow ? 0 : stepShare2;
        return consistent(riseShare, stepShare, s1, s1, cal.consistency())
            && (!additive || consistent(riseShare, stepShare, s1, s2, cal.consistency())
                || consistent(riseShare, stepShare, s1, s1, cal.tightConsistency()) && (Math.abs(before) <= stepShare / 4
                    || before >= stepShare / cal.consistency() && before <= 2.5 * stepShare));
    }

    private boolean consistent(final double riseShare, final double step, final double s1, final double s2,
                               final double ratio) {
        final double lo = Math.min(Math.min(riseShare, step), Math.min(s1, s2));
        final double hi = Math.max(Math.max(riseShare, step), Math.max(s1, s2));
        return lo >= minLoss && hi <= ratio * lo;
    }

    /** Packets sent over the two ticks the last rise read as loss covered. */
    double sentOver() {
        return risenOver;
    }

    private double medianMove() {
        return median(moves);
    }

    private double median(final double[] ring) {
        final int n = Math.min(movesTaken, cal.moves());
        if (n == 0) {
            return 0;
        }
        final double[] sorted = Arrays.copyOf(ring, n);
        Arrays.sort(sorted);
        return sorted[n / 2];
    }
}
