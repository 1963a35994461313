package dev.fabrictwin.analyzer;

import java.io.Serializable;
import java.util.List;

/**
 * The tuned numbers of the detectors that judge a port or device against what it learned of itself
 * ({@code LATENCY_SLO}, {@code ECN_MISCONFIG}, {@code LINK_DEGRADED}; issue 31). Each is a principle — a tail
 * probability, a multiple of a learned spread, a physical bound — not a value fitted to one capture or to our own
 * simulator; docs/analyzer.md prints them as one table. Validated here, so a bad calibration fails at start-up.
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
 */
public record DetectionCalibration(int learnRing, int learnWarmUp, List<Double> latencyRegimes,
                                   double latencyFloorFactor, double latencySpreadMultiple,
                                   double latencyPersistSeconds, double latencyPeakHalfLifeSeconds,
                                   double ecnBandBaseBytes,
                                   int ecnBands, double ecnShareQuantile, double ecnNothingShare,
                                   double ecnMinExpectedMarks, double ecnMinLearnPackets, double pausedShare,
                                   double linkErrorTail, double linkErrorFactor, double linkErrorWindowSeconds,
                                   double linkErrorHorizonSeconds, double linkErrorPriorErrors,
                                   double linkErrorWarmUpSeconds)
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
    }

    /** The calibration the analyzer runs with unless told otherwise. */
    public static DetectionCalibration defaults() {
        return new DetectionCalibration(16, 16, List.of(0.01, 0.1, 0.5), 3, 3, 3, 3_600, 10_000, 12, 0.1, 0.01, 100, 1_000,
            0.02, 1.2e-9, 10, 5, 3_600, 1, 10);
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

    private static void require(final boolean ok, final String what, final Object was) {
        if (!ok) {
            throw new IllegalArgumentException("detection calibration: " + what + ", was " + was);
        }
    }
}
