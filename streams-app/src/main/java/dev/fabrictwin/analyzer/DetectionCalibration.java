package dev.fabrictwin.analyzer;

import java.io.Serializable;
import java.util.List;

/**
 * Every tuned number of the detectors, the job tracker, the phase lock, the path learner and the correlator (issue
 * 31): the flat fields are those of the detectors that judge a port or device against what it learned of itself
 * ({@code LATENCY_SLO}, {@code ECN_MISCONFIG}, {@code LINK_DEGRADED}), each a principle — a tail probability, a
 * multiple of a learned spread, a physical bound — not a value fitted to one capture or to our own simulator; the
 * nested records hold the rest, one per detector or tracker. Windows in ticks are for 1 s telemetry
 * ({@code TickContext.ticks} keeps their wall span at faster sampling). docs/analyzer.md prints them all as one table
 * ({@code DetectionCalibrationTest} holds it to {@link #defaults()}). Validated here, so a bad calibration fails at
 * start-up.
 *
 * @param learnRing                healthy values kept per learned key (a port in one traffic regime, a device's queue
 *                                 band): quantiles are taken over them; 16 floats = 64 B per key
 * @param learnWarmUp              healthy values a key must have seen before it judges anything (≤ the ring)
 * @param latencyRegimes           utilization bounds (share of line rate, the busier direction) between a port's
 *                                 traffic regimes: its P99 is learned per regime, and a regime never seen healthy is
 *                                 not judged (a job starting is a new regime, not a departure)
 * @param latencyFloorFactor       a P99 departs only above this multiple of its learned level's 90th percentile: a
 *                                 steady level's gauge noise is a few %, a tripled tail is not a fluctuation
 * @param latencySpreadMultiple    …and above that 90th percentile plus this many times its learned 10–90 %
 *                                 spread (a port whose tail already swings by Δ must rise by several Δ)
 * @param latencyPersistSeconds  a P99 departs only after departing this long without a break: latency is the most
 *                                 downstream symptom, and the causes' detectors need their windows (ECN_MISCONFIG 3 s)
 *                                 to be named first, so the latency becomes their victim rather than a root
 * @param latencyPeakHalfLifeSeconds …and above the highest P99 the port showed healthy in that regime, which halves
 *                                 every this many seconds of healthy values learned since: a port's tail at one load is
 *                                 bimodal with its traffic's burstiness (a ring job paced by a slow link or straggler
 *                                 runs smooth at 50 µs, bursty at 300 µs once it is gone), and the last 16 values hold
 *                                 one mode only; an hour of healthy history is the port's normal
 * @param ecnBandBaseBytes         the shallowest queue band a device's marking is learned at; bands double from here
 * @param ecnBands                 queue bands per device (the last is open-ended): 10 kB × 2^11 ≈ 20 MB, deeper than
 *                                 any switch buffer per port
 * @param ecnShareQuantile         the marked share a device is expected to keep at a queue band: this low quantile of
 *                                 its healthy shares there (marking is monotone in the queue, so a band not yet seen
 *                                 takes the highest of the shallower learned bands)
 * @param ecnNothingShare          marking below this share of what the device used to mark at the same queues is
 *                                 "marks ~nothing": two orders of magnitude under the low end of its learned spread
 *                                 (a device's share at the same mean queue moves ~10× with the traffic pattern alone:
 *                                 an incast's standing queue marks less per packet than a collective's bursts)
 * @param ecnMinExpectedMarks      marks the learned curve must call for in the window before "nothing" is judged:
 *                                 ≤ 1 mark where 100 are expected is a Poisson tail far below 1e-9
 * @param ecnMinLearnPackets       packets a port-tick needs before its marked share is learned: a 0.1 % marker marks
 *                                 one packet in 1,000
 * @param pausedShare              a port held paused this share of a tick (received pauses) is not congestion calling
 *                                 for marks: its queue is the pause's
 * @param linkErrorTail            a port's errors are a departure when its learned rate makes at least as many in the
 *                                 window this improbable (Poisson upper tail, Chernoff-bounded): the fleet goal of
 *                                 one false root per 10k port-days is 1.2e-9 per port-second
 * @param linkErrorFactor          …and at least this multiple of what its learned rate makes (real error counts are
 *                                 burstier than Poisson: an order of magnitude)
 * @param linkErrorWindowSeconds   seconds of errors judged together (at 100 ms polls a rate of a few per second shows
 *                                 as fractions per tick)
 * @param linkErrorHorizonSeconds  healthy exposure a port's learned error rate remembers (older exposure is scaled
 *                                 down): its rate follows an ageing link within an hour
 * @param linkErrorPriorErrors     pseudo-errors in every port's learned rate: a port that never erred is not rate 0,
 *                                 and one with a short history is judged leniently (errors/(healthy seconds))
 * @param linkErrorWarmUpSeconds   healthy seconds a port learns before its errors are judged: two windows. Many real
 *                                 links correct FEC codewords all the time; what a link shows from its first seconds
 *                                 is its normal (the analyzer needs a healthy start, as for job slowdowns)
 * @param silentDrop               {@code SILENT_DROP}'s windowed fit and its fast test
 * @param ecmp                     {@code ECMP_IMBALANCE}'s test
 * @param unexpectedTraffic        {@code UNEXPECTED_TRAFFIC}'s excess
 * @param ecn                      {@code ECN_MISCONFIG}'s window and its fallback where no curve is learned
 * @param pfc                      {@code PFC_STORM}'s walk (its paused share is {@link #pausedShare})
 * @param straggler                {@code STRAGGLER}'s gates
 * @param latencySlo               {@code LATENCY_SLO}'s margin over the twin against an operator's objective
 * @param jobs                     the job tracker's slowdowns ({@code JOB_BOTTLENECK}) and its phase lock
 * @param correlation              the correlator's patience with symptoms
 * @param paths                    the path learner's epochs
 * @param linkFlap                 {@code LINK_FLAP}'s count and window
 */
public record DetectionCalibration(int learnRing, int learnWarmUp, List<Double> latencyRegimes,
                                   double latencyFloorFactor, double latencySpreadMultiple,
                                   double latencyPersistSeconds, double latencyPeakHalfLifeSeconds,
                                   double ecnBandBaseBytes,
                                   int ecnBands, double ecnShareQuantile, double ecnNothingShare,
                                   double ecnMinExpectedMarks, double ecnMinLearnPackets, double pausedShare,
                                   double linkErrorTail, double linkErrorFactor, double linkErrorWindowSeconds,
                                   double linkErrorHorizonSeconds, double linkErrorPriorErrors,
                                   double linkErrorWarmUpSeconds, SilentDrop silentDrop, Ecmp ecmp,
                                   UnexpectedTraffic unexpectedTraffic, Ecn ecn, Pfc pfc, Straggler straggler,
                                   LatencySlo latencySlo, Jobs jobs, Correlation correlation, Paths paths,
                                   LinkFlap linkFlap)
    implements Serializable {

    public DetectionCalibration {
        latencyRegimes = List.copyOf(latencyRegimes);
        require(learnRing >= 4 && learnRing <= 1024, "learnRing in 4..1024", learnRing);
        require(learnWarmUp >= 1 && learnWarmUp <= learnRing, "learnWarmUp in 1..learnRing", learnWarmUp);
        for (int i = 0; i < latencyRegimes.size(); i++) {
            final double b = latencyRegimes.get(i);
            require(b > 0 && (i == 0 || b > latencyRegimes.get(i - 1)), "latencyRegimes positive and increasing",
                latencyRegimes);
        }
        require(latencyFloorFactor > 1, "latencyFloorFactor > 1", latencyFloorFactor);
        require(latencySpreadMultiple >= 0, "latencySpreadMultiple >= 0", latencySpreadMultiple);
        require(latencyPersistSeconds >= 0, "latencyPersistSeconds >= 0", latencyPersistSeconds);
        require(latencyPeakHalfLifeSeconds > 0, "latencyPeakHalfLifeSeconds > 0", latencyPeakHalfLifeSeconds);
        require(ecnBandBaseBytes > 0, "ecnBandBaseBytes > 0", ecnBandBaseBytes);
        require(ecnBands >= 1 && ecnBands <= 64, "ecnBands in 1..64", ecnBands);
        require(ecnShareQuantile >= 0 && ecnShareQuantile <= 1, "ecnShareQuantile in 0..1", ecnShareQuantile);
        require(ecnNothingShare > 0 && ecnNothingShare < 1, "ecnNothingShare in (0, 1)", ecnNothingShare);
        require(ecnMinExpectedMarks > 0, "ecnMinExpectedMarks > 0", ecnMinExpectedMarks);
        require(ecnMinLearnPackets >= 1, "ecnMinLearnPackets >= 1", ecnMinLearnPackets);
        require(pausedShare > 0 && pausedShare < 1, "pausedShare in (0, 1)", pausedShare);
        require(linkErrorTail > 0 && linkErrorTail < 0.5, "linkErrorTail in (0, 0.5)", linkErrorTail);
        require(linkErrorFactor >= 1, "linkErrorFactor >= 1", linkErrorFactor);
        require(linkErrorWindowSeconds > 0, "linkErrorWindowSeconds > 0", linkErrorWindowSeconds);
        require(linkErrorHorizonSeconds >= linkErrorWindowSeconds, "linkErrorHorizonSeconds >= the window",
            linkErrorHorizonSeconds);
        require(linkErrorPriorErrors > 0, "linkErrorPriorErrors > 0", linkErrorPriorErrors);
        require(linkErrorWarmUpSeconds >= 0 && linkErrorWarmUpSeconds <= linkErrorHorizonSeconds,
            "linkErrorWarmUpSeconds in 0..the horizon", linkErrorWarmUpSeconds);
        require(silentDrop != null && ecmp != null && unexpectedTraffic != null && ecn != null && pfc != null
            && straggler != null && latencySlo != null && jobs != null && correlation != null && paths != null
            && linkFlap != null,
            "every detector's numbers", "null");
    }

    /** The calibration the analyzer runs with unless told otherwise. */
    public static DetectionCalibration defaults() {
        return new DetectionCalibration(16, 16, List.of(0.01, 0.1, 0.5), 3, 3, 3, 3_600, 10_000, 12, 0.1, 0.01, 100, 1_000,
            0.02, 1.2e-9, 10, 5, 3_600, 1, 10, SilentDrop.defaults(), Ecmp.defaults(), UnexpectedTraffic.defaults(),
            Ecn.defaults(), Pfc.defaults(), Straggler.defaults(), LatencySlo.defaults(), Jobs.defaults(),
            Correlation.defaults(), Paths.defaults(), LinkFlap.defaults());
    }

    /** The number of latency regimes: one more than the bounds between them. */
    public int latencyRegimeCount() {
        return latencyRegimes.size() + 1;
    }

    /** The regime of a port whose busier direction runs at {@code utilization} of line rate. */
    public int latencyRegime(final double utilization) {
        int r = 0;
        while (r < latencyRegimes.size() && utilization >= latencyRegimes.get(r)) {
            r++;
        }
        return r;
    }

    /** The queue band of a depth in bytes, or -1 below the shallowest band. */
    public int ecnBand(final double queueBytes) {
        if (!(queueBytes >= ecnBandBaseBytes)) {
            return -1;
        }
        return (int) Math.min(ecnBands - 1, Math.floor(Math.log(queueBytes / ecnBandBaseBytes) / Math.log(2)));
    }

    /**
     * {@code SILENT_DROP} (LinkConservationDetector): d = Σtx(sender) − Σrx(receiver) fitted as
     * d = loss·sent + offset·rate + c over windows of points, the loss tested against its Newey–West error.
     *
     * @param spanPoints             points in a window of the fit
     * @param scales                 ticks between a window's points, one window per scale (30, 90 and 270 ticks at
     *                               30 points): a loss under the in-flight noise of 30 ticks rises above it over more
     * @param minT                   the least t a loss needs, however few windows are judged: the autocorrelation-
     *                               consistent error is itself estimated from the window's points, so its t has
     *                               heavier tails than a normal's
     * @param minIidT                the least t against the error that assumes independent residuals (telescoping
     *                               in-flight changes can make the autocorrelation-consistent one too small)
     * @param hacLags                lags of the residuals' autocovariance the loss's error takes in (Newey–West
     *                               bandwidth, in points)
     * @param minActivePoints        points in the window that must follow traffic (also its traffic's spread,
     *                               (Σs)²/Σs²): one burst says nothing about a loss rate
     * @param minLoss                the least share of what was sent a loss is: under it, no fault worth naming
     * @param minPackets             packets sent in the window before a loss is judged
     * @param familyAlpha            false losses the test lets through per tick, across all windows judged
     *                               (Bonferroni)
     * @param controlFramesPerSecond control frames (LLDP, LACP, BFD) one end may count and the other not: a floor no
     *                               loss worth naming is under
     * @param fastTest               the fast test on d's floor (RisingFloor)
     * @param readingGain            how much quieter (tick to tick) d read at one instant from both ends' lines must be
     *                               than d read at each end's own instants for a direction to judge it, and back:
     *                               collectors whose stamps jitter around one reading instant favour the own
     *                               instants, ends polled at their own phases the one instant
     */
    public record SilentDrop(int spanPoints, List<Integer> scales, double minT, double minIidT, int hacLags,
                             int minActivePoints, double minLoss, double minPackets, double familyAlpha,
                             double controlFramesPerSecond, FastTest fastTest, double readingGain)
        implements Serializable {

        public SilentDrop {
            scales = List.copyOf(scales);
            require(spanPoints >= 4, "silentDrop.spanPoints >= 4", spanPoints);
            require(!scales.isEmpty() && scales.stream().allMatch(s -> s >= 1), "silentDrop.scales all >= 1", scales);
            require(minT > 0, "silentDrop.minT > 0", minT);
            require(minIidT > 0, "silentDrop.minIidT > 0", minIidT);
            require(hacLags >= 0 && hacLags < spanPoints, "silentDrop.hacLags in 0..spanPoints-1", hacLags);
            require(minActivePoints >= 1 && minActivePoints <= spanPoints, "silentDrop.minActivePoints in 1..spanPoints",
                minActivePoints);
            require(minLoss > 0 && minLoss < 1, "silentDrop.minLoss in (0, 1)", minLoss);
            require(minPackets >= 0, "silentDrop.minPackets >= 0", minPackets);
            require(familyAlpha > 0 && familyAlpha < 1, "silentDrop.familyAlpha in (0, 1)", familyAlpha);
            require(controlFramesPerSecond >= 0, "silentDrop.controlFramesPerSecond >= 0", controlFramesPerSecond);
            require(fastTest != null, "silentDrop.fastTest", "null");
            require(readingGain >= 1, "silentDrop.readingGain >= 1", readingGain);
        }

        static SilentDrop defaults() {
            return new SilentDrop(30, List.of(1, 3, 9), 5, 4, 5, 10, 0.001, 1e5, 0.05, 100, FastTest.defaults(), 1.25);
        }
    }

    /**
     * {@code SILENT_DROP}'s fast test (RisingFloor): d's floor rising above its past by a consistent share of what
     * each tick sent, found in two or three ticks instead of most of a window.
     *
     * @param warmUpTicks       ticks of history before the test arms: the floor and its moves must have been seen
     * @param steadyTicks       ticks the past's highest floor must have stood still before a rise is read as loss
     *                          (also the ticks the sender must not have been paused, and the load looked back over)
     * @param episodeTicks      how long after the past's highest floor began rising (from a steady past) a rise is
     *                          still judged here
     * @param kappa             multiples of the floor's median tick-to-tick move a rise must exceed
     * @param moves             the floor's recent moves kept for their median
     * @param gapTicks          non-rising ticks a found rise survives (a burst dipping d for a tick or two)
     * @param loadTolerance     how much more a tick may carry than the past's busiest before the in-flight amount
     *                          could outgrow the past's
     * @param consistency       how far apart the shares of the rising steps a loss needs may be: a loss rises by one
     *                          share of what each tick sent, jitter of what is in flight by anything
     * @param tightConsistency  two steps suffice when they and the rise agree this closely after a flat step, a
     *                          climb out of a dip or the loss's own first step: a loss's share repeats to the
     *                          counters' read jitter, a lifted floor's jitter does not
     */
    public record FastTest(int warmUpTicks, int steadyTicks, int episodeTicks, double kappa, int moves, int gapTicks,
                           double loadTolerance, double consistency, double tightConsistency) implements Serializable {

        public FastTest {
            require(warmUpTicks >= 1, "fastTest.warmUpTicks >= 1", warmUpTicks);
            require(steadyTicks >= 1, "fastTest.steadyTicks >= 1", steadyTicks);
            require(episodeTicks >= 1, "fastTest.episodeTicks >= 1", episodeTicks);
            require(kappa > 0, "fastTest.kappa > 0", kappa);
            require(moves >= 2, "fastTest.moves >= 2", moves);
            require(gapTicks >= 0, "fastTest.gapTicks >= 0", gapTicks);
            require(loadTolerance >= 1, "fastTest.loadTolerance >= 1", loadTolerance);
            require(consistency >= 1, "fastTest.consistency >= 1", consistency);
            require(tightConsistency >= 1 && tightConsistency <= consistency, "fastTest.tightConsistency in 1..consistency",
                tightConsistency);
        }

        static FastTest defaults() {
            return new FastTest(30, 10, 30, 8, 32, 3, 1.1, 1.5, 1.1);
        }
    }

    /**
     * {@code ECMP_IMBALANCE} (EcmpSpreadDetector): the chance that hashing the twin's flows uniformly puts the observed
     * busiest share on one member.
     *
     * @param windowTicks      ticks of traffic a group's shares are judged over
     * @param maxTrials        most Monte Carlo trials one test runs...
     * @param maxDraws         ...and most hash draws (trials × flows) it spends
     * @param pValue           false imbalances the test lets through per tick, over all the fabric's groups
     *                         (Bonferroni: a run's hash is fixed, so each group is one draw of luck for the whole run)
     * @param congestedPValue  the same, for a group whose busiest member also rose above its calm past and backed up
     *                         beyond the twin in the tick (two pieces of evidence)
     * @param hold             how much more chance a group already found imbalanced may show and still be
     *                         (hysteresis)
     * @param snapshotTicks    ticks of the twin's flow snapshots kept: bursty jobs may cross the group in only some
     * @param departure        how far above its highest calm share a member must rise to count as a change (a bursty
     *                         job's windows vary)
     * @param calmWindows      windows judged calm kept per group: what its members carried before
     * @param calmLearned      calm windows a group must have before it has a past to depart from
     * @param movedLoad        the least load a moved hash must have put on its busiest member beyond its calm
     *                         highest, as a share of the member's capacity: traffic flows come and go on a lightly
     *                         loaded bundle without anything moving that matters
     */
    public record Ecmp(int windowTicks, int maxTrials, long maxDraws, double pValue, double congestedPValue,
                       double hold, int snapshotTicks, double departure, int calmWindows, int calmLearned,
                       double movedLoad)
        implements Serializable {

        public Ecmp {
            require(windowTicks >= 1, "ecmp.windowTicks >= 1", windowTicks);
            require(maxTrials >= 1, "ecmp.maxTrials >= 1", maxTrials);
            require(maxDraws >= maxTrials, "ecmp.maxDraws >= maxTrials", maxDraws);
            require(pValue > 0 && pValue < 1, "ecmp.pValue in (0, 1)", pValue);
            require(congestedPValue >= pValue && congestedPValue < 1, "ecmp.congestedPValue in pValue..1",
                congestedPValue);
            require(hold >= 1, "ecmp.hold >= 1", hold);
            require(snapshotTicks >= 1, "ecmp.snapshotTicks >= 1", snapshotTicks);
            require(departure > 0 && departure < 1, "ecmp.departure in (0, 1)", departure);
            require(calmWindows >= 1, "ecmp.calmWindows >= 1", calmWindows);
            require(calmLearned >= 1 && calmLearned <= calmWindows, "ecmp.calmLearned in 1..calmWindows", calmLearned);
            require(movedLoad >= 0 && movedLoad < 1, "ecmp.movedLoad in [0, 1)", movedLoad);
        }

        static Ecmp defaults() {
            return new Ecmp(5, 40_000, 20_000_000L, 1e-3, 5e-2, 10, 20, 0.1, 30, 10, 0.05);
        }
    }

    /**
     * {@code LINK_FLAP}: a link that keeps going down and coming back.
     *
     * @param flaps          flaps (a down and an up) in the window that make a link flapping: a planned change (a shut
     *                       and no-shut, a peer's reboot, a reseated cable) is one or two
     * @param windowSeconds  the window the flaps are counted over: three within five minutes is no maintenance step
     */
    public record LinkFlap(int flaps, double windowSeconds) implements Serializable {

        public LinkFlap {
            require(flaps >= 2, "linkFlap.flaps >= 2", flaps);
            require(windowSeconds >= 1, "linkFlap.windowSeconds >= 1", windowSeconds);
        }

        static LinkFlap defaults() {
            return new LinkFlap(3, 300);
        }
    }

    /**
     * {@code UNEXPECTED_TRAFFIC}: a NIC sending more than the twin and its learned undeclared background.
     *
     * @param windowTicks        ticks averaged (several iterations, so a phase error of the twin averages out)
     * @param excessShare        the least excess over the twin and the background, as a share of line rate
     * @param excessFactor       the least multiple of what the twin and the background explain
     * @param backgroundWindows  healthy windows kept per port and direction to learn its background from
     * @param backgroundWarmUp   windows learned before the port is judged
     * @param backgroundQuantile the quantile of the kept windows' excess taken as the background
     * @param rhythmShare        a port direction has a daily rhythm once its hours of day's learned levels span this
     *                           share of line rate: a swing under half the least excess cannot raise or hide a finding
     *                           by itself, and below it the port is judged exactly as without hours
     * @param rhythmSlackMinutes a window is judged against the highest level of the hours of day within this many
     *                           minutes of its end: when a rhythm turns moves from day to day by up to this much
     * @param rhythmDecline      share of the way an hour of day's level comes down, per day, to a lower one it showed
     *                           healthy (a rise is taken at once): a quiet weekend day does not erase the working day
     */
    public record UnexpectedTraffic(int windowTicks, double excessShare, double excessFactor, int backgroundWindows,
                                    int backgroundWarmUp, double backgroundQuantile, double rhythmShare,
                                    int rhythmSlackMinutes, double rhythmDecline) implements Serializable {

        public UnexpectedTraffic {
            require(windowTicks >= 1, "unexpectedTraffic.windowTicks >= 1", windowTicks);
            require(excessShare > 0 && excessShare <= 1, "unexpectedTraffic.excessShare in (0, 1]", excessShare);
            require(excessFactor >= 1, "unexpectedTraffic.excessFactor >= 1", excessFactor);
            require(backgroundWindows >= 1 && backgroundWindows <= 1024, "unexpectedTraffic.backgroundWindows in 1..1024",
                backgroundWindows);
            require(backgroundWarmUp >= 1 && backgroundWarmUp <= backgroundWindows,
                "unexpectedTraffic.backgroundWarmUp in 1..backgroundWindows", backgroundWarmUp);
            require(backgroundQuantile >= 0 && backgroundQuantile <= 1, "unexpectedTraffic.backgroundQuantile in 0..1",
                backgroundQuantile);
            require(rhythmShare > 0 && rhythmShare <= 1, "unexpectedTraffic.rhythmShare in (0, 1]", rhythmShare);
            require(rhythmSlackMinutes >= 0 && rhythmSlackMinutes <= 720, "unexpectedTraffic.rhythmSlackMinutes in 0..720",
                rhythmSlackMinutes);
            require(rhythmDecline > 0 && rhythmDecline <= 1, "unexpectedTraffic.rhythmDecline in (0, 1]", rhythmDecline);
        }

        static UnexpectedTraffic defaults() {
            return new UnexpectedTraffic(5, 0.2, 1.5, 16, 3, 0.9, 0.1, 30, 0.25);
        }
    }

    /**
     * {@code ECN_MISCONFIG}'s evidence window and the fallback that judges a device before its curve is learned.
     *
     * @param windowTicks          the most ticks of evidence judged
     * @param minSeconds           the fewest seconds of evidence judged (at least as many ticks)
     * @param minCongestedPackets  packets sent from congested egresses in the window before the fallback judges a
     *                             device
     * @param markingQueueKmins    a queue this many times the twin's default Kmin is past the marking threshold of any
     *                             plausibly configured switch (the fallback only)
     */
    public record Ecn(int windowTicks, int minSeconds, double minCongestedPackets, double markingQueueKmins)
        implements Serializable {

        public Ecn {
            require(windowTicks >= 1, "ecn.windowTicks >= 1", windowTicks);
            require(minSeconds >= 1 && minSeconds <= windowTicks, "ecn.minSeconds in 1..windowTicks", minSeconds);
            require(minCongestedPackets > 0, "ecn.minCongestedPackets > 0", minCongestedPackets);
            require(markingQueueKmins >= 1, "ecn.markingQueueKmins >= 1", markingQueueKmins);
        }

        static Ecn defaults() {
            return new Ecn(10, 3, 1e5, 1.5);
        }
    }

    /**
     * {@code PFC_STORM}'s culprit-vs-victim walk; a port sends pauses above {@link #pausedShare}.
     *
     * @param switchOriginShare  a switch port is named the origin of a storm only above this share (switches pause for
     *                           many reasons)
     * @param queueExcessBytes   an egress whose queue exceeds the twin's by this much (bytes) is congested; one
     *                           holding this much is overloaded whatever the twin expected
     * @param constantsSlack     the twin's ECN thresholds and buffer are defaults; a fabric's may differ by this
     *                           factor (vendor profiles)
     * @param heavyMarking       an egress marking this share of its packets or more is overloaded, whatever the twin
     *                           expected
     */
    public record Pfc(double switchOriginShare, double queueExcessBytes, double constantsSlack, double heavyMarking)
        implements Serializable {

        public Pfc {
            require(switchOriginShare > 0 && switchOriginShare < 1, "pfc.switchOriginShare in (0, 1)", switchOriginShare);
            require(queueExcessBytes > 0, "pfc.queueExcessBytes > 0", queueExcessBytes);
            require(constantsSlack >= 1, "pfc.constantsSlack >= 1", constantsSlack);
            require(heavyMarking > 0 && heavyMarking < 1, "pfc.heavyMarking in (0, 1)", heavyMarking);
        }

        static Pfc defaults() {
            return new Pfc(0.05, 50_000, 1.25, 0.01);
        }
    }

    /**
     * {@code STRAGGLER}: one NIC of a slow job taking in well under line rate while its switch port queues. The
     * lesser job slowdown a usually calm port's change needs is {@link Jobs#recovered}.
     *
     * @param windowTicks     ticks the facing port must queue in most of, and the NIC's intake is averaged over
     * @param lineShare       a straggling NIC receives under this share of line rate over the window
     * @param jobShare        more than this share of a job's NICs doing so at once is no single host's fault: the job
     *                        as a whole is held back at its own NICs ({@code JOB_BOTTLENECK})
     * @param stragglerShare  more slow NICs than this share of the job (and more than one) are not individual
     *                        stragglers but a pattern effect
     * @param calmPastTicks   ticks of a facing port's past (before the window) that must be known before it can be
     *                        called usually calm (of the 64 kept)
     * @param calmShare       a port backed up in at most this share of its past ticks is usually calm
     * @param recentTicks     ticks of the job's slowdown the lesser threshold looks back over: the estimate wavers
     *                        tick to tick
     * @param unsteadyShare   a job whose slowdown strayed past the lesser threshold (either way) in more of its past
     *                        wavers, and needs the full one
     */
    public record Straggler(int windowTicks, double lineShare, double jobShare, double stragglerShare,
                            int calmPastTicks, double calmShare, int recentTicks, double unsteadyShare)
        implements Serializable {

        public Straggler {
            require(windowTicks >= 1, "straggler.windowTicks >= 1", windowTicks);
            require(lineShare > 0 && lineShare < 1, "straggler.lineShare in (0, 1)", lineShare);
            require(jobShare > 0 && jobShare <= 1, "straggler.jobShare in (0, 1]", jobShare);
            require(stragglerShare > 0 && stragglerShare <= jobShare, "straggler.stragglerShare in (0, jobShare]",
                stragglerShare);
            require(calmPastTicks >= 1 && calmPastTicks <= 64, "straggler.calmPastTicks in 1..64", calmPastTicks);
            require(calmShare >= 0 && calmShare < 1, "straggler.calmShare in [0, 1)", calmShare);
            require(recentTicks >= 1, "straggler.recentTicks >= 1", recentTicks);
            require(unsteadyShare >= 0 && unsteadyShare < 1, "straggler.unsteadyShare in [0, 1)", unsteadyShare);
        }

        static Straggler defaults() {
            return new Straggler(4, 0.7, 0.75, 0.1, 32, 0.25, 2, 0.1);
        }
    }

    /**
     * {@code LATENCY_SLO} against an operator's {@code --latency-slo-us}: a P99 over it is reported only when it is
     * also over the twin's P99 by this margin.
     *
     * @param marginUs     the absolute part of the margin (µs)
     * @param marginShare  the part proportional to the twin's P99
     */
    public record LatencySlo(double marginUs, double marginShare) implements Serializable {

        public LatencySlo {
            require(marginUs >= 0, "latencySlo.marginUs >= 0", marginUs);
            require(marginShare >= 0, "latencySlo.marginShare >= 0", marginShare);
        }

        static LatencySlo defaults() {
            return new LatencySlo(5, 0.5);
        }
    }

    /**
     * The job tracker (JobHealthTracker, {@code JOB_BOTTLENECK}): each job's comm time over the twin's, from a phase
     * lock on a few of its NICs or, for jobs whose period is too short to see phases, from a window's average rate.
     *
     * @param slowdown          comm slower than the twin's by this factor (over the job's learned usual) is a
     *                          bottleneck; also what tells a straggler's job apart from one merely running
     * @param recovered         ...until it is back under this one (hysteresis: a slowdown hovering at the threshold
     *                          is one episode); a lock-step job over it makes a usually calm port's change a straggler
     * @param minQuality        fits explaining less of the NICs' bytes than this (R²) neither steer the twin nor judge
     *                          the job
     * @param nicsPerJob        NICs per job fed to the phase lock: lock-step ranks move together, a few suffice and
     *                          bound the cost
     * @param retimeMs          the twin's next comm start is moved when it is off by more than this (ms)
     * @param smoothing         fits judged per job: a bottleneck needs the median of the last few, so one odd fit
     *                          neither opens nor clears it
     * @param staleFits         consecutive failed fits after which a job's slowdown is no longer known
     * @param baselineAfter     good fits before a job's healthy slowdown is learned (the first iterations warm up)
     * @param baselineLearning  weight of each new fit in the learned healthy slowdown
     * @param coarsePeriods     jobs whose period is under this many ticks are judged by average rate, not by phase
     * @param coarseWindowTicks ticks of the average-rate window, at least (a slowdown worth an alert shows within
     *                          them)...
     * @param maxCoarseWindowTicks ...and at most: longer windows would judge a slowdown minutes late
     * @param coarseError       error of a coarse comm time the window is sized for
     * @param idleShare         a job whose NICs sent under this share of what the twin expects...
     * @param idlePeriods       ...for this many iteration periods has ended (before a scheduler said so, or by itself)
     * @param phase             the phase lock's search
     */
    public record Jobs(double slowdown, double recovered, double minQuality, int nicsPerJob, double retimeMs,
                       int smoothing, int staleFits, int baselineAfter, double baselineLearning, double coarsePeriods,
                       int coarseWindowTicks, int maxCoarseWindowTicks, double coarseError, double idleShare,
                       int idlePeriods, Phase phase) implements Serializable {

        public Jobs {
            require(slowdown > 1, "jobs.slowdown > 1", slowdown);
            require(recovered >= 1 && recovered <= slowdown, "jobs.recovered in 1..slowdown", recovered);
            require(minQuality >= 0 && minQuality < 1, "jobs.minQuality in [0, 1)", minQuality);
            require(nicsPerJob >= 1, "jobs.nicsPerJob >= 1", nicsPerJob);
            require(retimeMs >= 0, "jobs.retimeMs >= 0", retimeMs);
            require(smoothing >= 1, "jobs.smoothing >= 1", smoothing);
            require(staleFits >= 1, "jobs.staleFits >= 1", staleFits);
            require(baselineAfter >= 1, "jobs.baselineAfter >= 1", baselineAfter);
            require(baselineLearning > 0 && baselineLearning <= 1, "jobs.baselineLearning in (0, 1]", baselineLearning);
            require(coarsePeriods > 0, "jobs.coarsePeriods > 0", coarsePeriods);
            require(coarseWindowTicks >= 1 && coarseWindowTicks <= maxCoarseWindowTicks,
                "jobs.coarseWindowTicks in 1..maxCoarseWindowTicks", coarseWindowTicks);
            require(coarseError > 0 && coarseError < 1, "jobs.coarseError in (0, 1)", coarseError);
            require(idleShare > 0 && idleShare < 1, "jobs.idleShare in (0, 1)", idleShare);
            require(idlePeriods >= 1, "jobs.idlePeriods >= 1", idlePeriods);
            require(phase != null, "jobs.phase", "null");
        }

        static Jobs defaults() {
            return new Jobs(1.3, 1.15, 0.5, 4, 20, 5, 10, 10, 0.05, 2.5, 10, 120, 0.1, 0.01, 2, Phase.defaults());
        }
    }

    /**
     * The phase lock (PhaseLock): a grid search over comm duration and phase offset, then refined. Cost per fit:
     * (durations × offsets + 98) × observations.
     *
     * @param durations      comm durations on the search grid, log-spaced between the two factors
     * @param offsets        phase offsets on the search grid
     * @param windowPeriods  iteration periods of observations kept
     * @param minCommFactor  the shortest comm duration searched, as a multiple of the twin's...
     * @param maxCommFactor  ...and the longest
     */
    public record Phase(int durations, int offsets, int windowPeriods, double minCommFactor, double maxCommFactor)
        implements Serializable {

        public Phase {
            require(durations >= 2, "phase.durations >= 2", durations);
            require(offsets >= 2, "phase.offsets >= 2", offsets);
            require(windowPeriods >= 1, "phase.windowPeriods >= 1", windowPeriods);
            require(minCommFactor > 0 && minCommFactor < maxCommFactor, "phase.minCommFactor in (0, maxCommFactor)",
                minCommFactor);
        }

        static Phase defaults() {
            return new Phase(16, 40, 4, 0.5, 4.0);
        }
    }

    /**
     * The correlator's patience with symptoms.
     *
     * @param unexplainedTicks  ticks a job's slowdown nothing explains before it becomes a root cause of its own
     *                          ({@code JOB_BOTTLENECK}): the other detectors had their chance to name a fault
     * @param recoveryTicks     ticks a job's slowdown stays attributed to a root cause after that cause was last seen:
     *                          the phase lock judges comm time over several iterations, so a job shows slow for a
     *                          while after its fault ends
     */
    public record Correlation(int unexplainedTicks, int recoveryTicks) implements Serializable {

        public Correlation {
            require(unexplainedTicks >= 1, "correlation.unexplainedTicks >= 1", unexplainedTicks);
            require(recoveryTicks >= 0, "correlation.recoveryTicks >= 0", recoveryTicks);
        }

        static Correlation defaults() {
            return new Correlation(15, 30);
        }
    }

    /**
     * The path learner (PathLearner): pins the replica's flows to the paths the counters show.
     *
     * @param epochTicks  ticks of an epoch whose link bytes are fitted: a few iterations of typical jobs
     * @param minGain     a move must cut the squared residual by this share of the flow's squared bytes
     * @param maxPasses   passes over an epoch's flows, at most
     * @param pinDelayMs  how long after an epoch's last tick its pins take effect in the replica (ms)
     */
    public record Paths(int epochTicks, double minGain, int maxPasses, long pinDelayMs) implements Serializable {

        public Paths {
            require(epochTicks >= 1, "paths.epochTicks >= 1", epochTicks);
            require(minGain > 0, "paths.minGain > 0", minGain);
            require(maxPasses >= 1, "paths.maxPasses >= 1", maxPasses);
            require(pinDelayMs >= 0, "paths.pinDelayMs >= 0", pinDelayMs);
        }

        static Paths defaults() {
            return new Paths(10, 0.1, 20, 10_000);
        }
    }

    static void require(final boolean ok, final String what, final Object was) {
        if (!ok) {
            throw new IllegalArgumentException("detection calibration: " + what + ", was " + was);
        }
    }
}
