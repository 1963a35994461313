package dev.fabrictwin.analyzer.detect;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;

/**
 * {@code ECN_MISCONFIG}: a switch that stopped marking at queue depths where it used to mark. Marking curves are a
 * device's own (vendor, profile, firmware: the share of packets marked at the same queue differs by ~100× between
 * devices), so each switch learns its curve from ticks no alert covers: per queue band
 * ({@link DetectionCalibration#ecnBand}, doubling from {@link DetectionCalibration#ecnBandBaseBytes}), the shares of
 * its ports' packets marked ({@link LearnedLevels}). Its ports' packets in the window then call for the marks the
 * curve's low quantile gives at their queues (marking is monotone in the queue: a band not yet seen takes the
 * highest share of the shallower learned bands); a device marking under {@link DetectionCalibration#ecnNothingShare}
 * of that, when it amounts to at least {@link DetectionCalibration#ecnMinExpectedMarks}, has marking off
 * ({@link #marksNothing}). Before a queue's band is learned the fallback is strict ({@link #unmarkedCongestion}):
 * {@value #MIN_CONGESTED_PACKETS} packets behind queues past 1.5× the twin's Kmin and beyond the twin, with not one
 * mark on the whole device — a quiet marker (a few marks per 1,000 packets) never fires it. A port held paused
 * ({@link #paused}) neither teaches nor counts: its queue is the pause's, not congestion calling for marks. The
 * evidence is the newest run of ticks, {@value #MIN_SECONDS} seconds to the whole window of {@value #WINDOW}.
 */
public final class EcnMisconfigDetector implements Detector {

    static final int WINDOW = 10;
    /** The fewest seconds of evidence judged (at least as many ticks). */
    static final int MIN_SECONDS = 3;
    /** Packets sent from congested egresses in the window before the fallback judges a device. */
    static final double MIN_CONGESTED_PACKETS = 1e5;
    /**
     * For the fallback only: a queue this deep is past the marking threshold of any plausibly configured switch,
     * 1.5× the twin's default Kmin.
     */
    static final double MARKING_QUEUE_BYTES = 1.5 * dev.fabrictwin.twin.model.ModelParams.defaults().ecnKminBytes();

    /** Marked shares per device and queue band, key = device × bands + band. */
    private LearnedLevels curves;
    private final Map<String, Rolling> marks = new HashMap<>();
    private final Map<String, Rolling> called = new HashMap<>();
    private final Map<String, Rolling> fallbackPackets = new HashMap<>();
    /**
     * Per device, its calm ticks' marks and packets per band (2 × bands, interleaved) not yet learned: a tick enters
     * the curve only once the fewest ticks a finding needs have passed without one, so the first ticks of a switch
     * that stopped marking are never learned as its normal.
     */
    private final Map<String, java.util.ArrayDeque<double[]>> pending = new HashMap<>();

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        final DetectionCalibration cal = context.config().calibration();
        final int bands = cal.ecnBands();
        if (curves == null) {
            curves = new LearnedLevels(context.fabric().nodes().size() * bands, cal.learnRing(), cal.learnWarmUp());
        }
        final Map<String, double[]> perDevice = new HashMap<>();
        final Map<String, double[]> shareTables = new HashMap<>();
        final Map<String, double[]> learning = new HashMap<>();
        for (final PortTick t : context.ports()) {
            if (context.isHost(t) || t.unreliable() || TickContext.down(t)) {
                continue;
            }
            final String device = t.port().device();
            final double[] acc = perDevice.computeIfAbsent(device, d -> new double[3]);
            final double packets = t.observed(CounterIndex.TX_PACKETS);
            final double marked = t.observed(CounterIndex.ECN_MARKED);
            acc[0] += marked;
            if (paused(context, t, cal)) {
                continue;
            }
            final double queue = t.gauge(CounterNames.QUEUE_DEPTH_BYTES);
            final int band = cal.ecnBand(queue);
            if (band < 0) {
                continue;
            }
            final int base = context.fabric().txNode(t.index()) * bands;
            final double[] table = shareTables.computeIfAbsent(device, d -> shareTable(curves, base, cal));
            final double[] toLearn = learning.computeIfAbsent(device, d -> new double[2 * bands]);
            toLearn[2 * band] += marked;
            toLearn[2 * band + 1] += packets;
            if (!Double.isNaN(table[band])) {
                acc[1] += packets * table[band];
            } else if (queue > MARKING_QUEUE_BYTES
                && queue - t.expectedGauge(CounterIndex.QUEUE_DEPTH_BYTES) > PfcOriginDetector.QUEUE_EXCESS_BYTES) {
                acc[2] += packets;
            }
        }
        final int window = context.ticks(WINDOW);
        final int fewest = Math.min(window, context.ticks(MIN_SECONDS));
        for (final var e : perDevice.entrySet()) {
            final String device = e.getKey();
            final double[] acc = e.getValue();
            final Rolling marked = marks.computeIfAbsent(device, d -> new Rolling(window));
            final Rolling calledFor = called.computeIfAbsent(device, d -> new Rolling(window));
            final Rolling unlearned = fallbackPackets.computeIfAbsent(device, d -> new Rolling(window));
            boolean found = false;
            marked.add(acc[0]);
            calledFor.add(acc[1]);
            unlearned.add(acc[2]);
            // The newest ticks, as few as MIN_SECONDS' worth and as many as the window: judging only the whole window
            // kept the marks from before marking stopped in it (issue 15: time to detect 9 ticks).
            double markedSum = 0;
            double calledSum = 0;
            double unlearnedSum = 0;
            for (int k = 0; k < marked.count(); k++) {
                markedSum += marked.ago(k);
                calledSum += calledFor.ago(k);
                unlearnedSum += unlearned.ago(k);
                if (k + 1 < fewest) {
                    continue;
                }
                if (marksNothing(markedSum, calledSum, cal)) {
                    out.add(Finding.root(FaultType.ECN_MISCONFIG, Entity.device(device), "ecn_marked", markedSum,
                        calledSum, Severity.WARNING, String.format("%s marked %.3g packets with ECN in %d ticks where "
                            + "its learned marking at the same queue depths calls for %.3g: ECN marking looks disabled",
                            device, markedSum, k + 1, calledSum)));
                    found = true;
                    break;
                }
                if (unmarkedCongestion(markedSum, unlearnedSum)) {
                    out.add(Finding.root(FaultType.ECN_MISCONFIG, Entity.device(device), "ecn_marked", markedSum,
                        0, Severity.WARNING, String.format("%s queues %.3g packets behind deep queues in %d ticks and "
                            + "marked none with ECN: ECN marking looks disabled", device, unlearnedSum, k + 1)));
                    found = true;
                    break;
                }
            }
            final java.util.ArrayDeque<double[]> waiting = pending.computeIfAbsent(device, d -> new java.util.ArrayDeque<>());
            if (found) {
                waiting.clear();
            } else if (context.calm() && learning.containsKey(device)) {
                waiting.addLast(learning.get(device));
            }
            while (waiting.size() > fewest) {
                learn(curves, context.fabric().requireNode(device).index() * bands, waiting.removeFirst(), cal);
            }
        }
    }

    /**
     * One calm tick's marked share per band enters the device's curve where it sent enough packets to tell a share,
     * unless it is itself "nothing" against what the band is expected to mark (a departure, not the curve).
     */
    static void learn(final LearnedLevels curves, final int base, final double[] marksAndPackets,
                      final DetectionCalibration cal) {
        final double[] table = shareTable(curves, base, cal);
        for (int b = 0; b < cal.ecnBands(); b++) {
            final double packets = marksAndPackets[2 * b + 1];
            if (packets >= cal.ecnMinLearnPackets()) {
                final double share = marksAndPackets[2 * b] / packets;
                if (!(share < cal.ecnNothingShare() * table[b])) {
                    curves.learn(base + b, share);
                }
            }
        }
    }

    /** Per band, the share the device is expected to mark at least (NaN where no band up to it is learned). */
    static double[] shareTable(final LearnedLevels curves, final int base, final DetectionCalibration cal) {
        final double[] table = new double[cal.ecnBands()];
        double best = Double.NaN;
        for (int b = 0; b < table.length; b++) {
            if (curves.learned(base + b)) {
                final double share = curves.quantile(base + b, cal.ecnShareQuantile());
                best = Double.isNaN(best) ? share : Math.max(best, share);
            }
            table[b] = best;
        }
        return table;
    }

    /** Marks under the "nothing" share of what the learned curve calls for, when it calls for enough to tell. */
    static boolean marksNothing(final double marked, final double calledFor, final DetectionCalibration cal) {
        return calledFor >= cal.ecnMinExpectedMarks() && marked <= cal.ecnNothingShare() * calledFor;
    }

    /** The fallback before a curve is learned: enough packets behind deep queues and not one mark on the device. */
    static boolean unmarkedCongestion(final double marked, final double packetsBehindDeepQueues) {
        return marked == 0 && packetsBehindDeepQueues >= MIN_CONGESTED_PACKETS;
    }

    /** The port was held paused (received pauses) for more than the calibration's share of the tick. */
    static boolean paused(final TickContext context, final PortTick t, final DetectionCalibration cal) {
        final double perSecond = context.pauseFramesPerSecond(t);
        return perSecond > 0 && t.seconds() > 0
            && TickContext.pfc(t, CounterNames.RX_PFC_PAUSE, true) / (perSecond * t.seconds()) > cal.pausedShare();
    }
}
