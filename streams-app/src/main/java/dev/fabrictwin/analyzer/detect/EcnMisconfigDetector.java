package dev.fabrictwin.analyzer.detect;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.checkpoint.LearnedPart;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.model.ModelParams;

/**
 * {@code ECN_MISCONFIG}: a switch that stopped marking at queue depths where it used to mark. Marking curves are a
 * device's own (vendor, profile, firmware: the share of packets marked at the same queue differs by ~100× between
 * devices), so each switch learns its curve from ticks no alert covers: per queue band
 * ({@link DetectionCalibration#ecnBand}, doubling from {@link DetectionCalibration#ecnBandBaseBytes}), the shares of
 * its ports' packets marked ({@link LearnedLevels}), from the ports that ever marked in a calm tick ({@link #marking}:
 * a port whose traffic never crossed the threshold, a ring's steady queue beside a fan-in's bursts on the same
 * switch, would call for marks it never made). Those ports' packets in the window then call for the marks the
 * curve's low quantile gives at their queues (only bands it learned: a queue gauge is a mean, marks follow bursts,
 * so one band says nothing of another); a device marking under {@link DetectionCalibration#ecnNothingShare}
 * of that, when it amounts to at least {@link DetectionCalibration#ecnMinExpectedMarks}, has marking off
 * ({@link #marksNothing}). Before a queue's band is learned the fallback is strict ({@link #unmarkedCongestion}):
 * {@link DetectionCalibration.Ecn#minCongestedPackets} packets behind queues past
 * {@link DetectionCalibration.Ecn#markingQueueKmins}× the twin's Kmin and beyond the twin ({@link #deepBeyondTwin}),
 * with not one
 * mark on the whole device — a quiet marker (a few marks per 1,000 packets) never fires it. A port held paused
 * ({@link #paused}) neither teaches nor counts: its queue is the pause's, not congestion calling for marks. The
 * evidence is the newest run of ticks, {@link DetectionCalibration.Ecn#minSeconds} seconds to the whole window of
 * {@link DetectionCalibration.Ecn#windowTicks}.
 */
final class EcnMisconfigDetector implements Detector, LearnedPart {

    /** The twin's default Kmin: the fallback's deep queue is a multiple of it. */
    private static final double TWIN_KMIN_BYTES = ModelParams.defaults().ecnKminBytes();

    /** Marked shares per device and queue band, key = device × bands + band. */
    private LearnedLevels curves;
    /**
     * The switch ports that marked a packet in a calm tick, by port index: only they speak for their device's curve.
     * A device's ports mark by their own traffic (a fan-in's bursts cross the threshold, a ring's steady queue of the
     * same mean never does), so a port that never marked says nothing of marking being off. One bit a port.
     */
    private BitSet marking;
    private final Map<String, Rolling> marks = new HashMap<>();
    private final Map<String, Rolling> called = new HashMap<>();
    private final Map<String, Rolling> fallbackPackets = new HashMap<>();
    /**
     * Per device, its calm ticks' port shares (band, marked share) not yet learned: a tick enters
     * the curve only once the fewest ticks a finding needs have passed without one, so the first ticks of a switch
     * that stopped marking are never learned as its normal.
     */
    private final Map<String, ArrayDeque<List<float[]>>> pending = new HashMap<>();

    @Override
    public String learnedName() {
        return "ecn-misconfig";
    }

    @Override
    public int learnedVersion() {
        return 1;
    }

    /** Each device's marking curve by queue band, and which ports have marked (another band count: learned afresh). */
    @Override
    public void writeLearned(final DataOutput out) throws IOException {
        out.writeBoolean(curves != null);
        if (curves != null) {
            curves.write(out);
            final long[] bits = marking.toLongArray();
            out.writeInt(bits.length);
            for (final long b : bits) {
                out.writeLong(b);
            }
        }
    }

    @Override
    public boolean readLearned(final DataInput in, final int version) throws IOException {
        if (version != 1) {
            return false;
        }
        if (in.readBoolean()) {
            curves = LearnedLevels.read(in);
            final long[] bits = new long[in.readInt()];
            for (int i = 0; i < bits.length; i++) {
                bits[i] = in.readLong();
            }
            marking = BitSet.valueOf(bits);
        }
        return true;
    }

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        final DetectionCalibration cal = context.config().calibration();
        final int bands = cal.ecnBands();
        if (curves == null || curves.keys() != context.fabric().nodes().size() * bands) {
            curves = new LearnedLevels(context.fabric().nodes().size() * bands, cal.learnRing(), cal.learnWarmUp());
            marking = new BitSet(context.fabric().directedLinkCount());
        }
        final Map<String, double[]> perDevice = new HashMap<>();
        final Map<String, double[]> shareTables = new HashMap<>();
        final Map<String, List<float[]>> learning = new HashMap<>();
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
            if (marked > 0 && context.calm()) {
                marking.set(t.index());
            }
            final boolean marks = marking.get(t.index());
            if (packets >= cal.ecnMinLearnPackets() && marks) {
                learning.computeIfAbsent(device, d -> new ArrayList<>()).add(new float[] {band,
                    (float) (marked / packets)});
            }
            if (!Double.isNaN(table[band])) {
                acc[1] += marks ? packets * table[band] : 0;
            } else if (deepBeyondTwin(queue, t.expectedGauge(CounterIndex.QUEUE_DEPTH_BYTES), cal)) {
                acc[2] += packets;
            }
        }
        final int window = context.ticks(cal.ecn().windowTicks());
        final int fewest = Math.min(window, context.ticks(cal.ecn().minSeconds()));
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
            // The newest ticks, as few as minSeconds' worth and as many as the window: judging only the whole window
            // kept the marks from before marking stopped in it (time to detect 9 ticks).
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
                if (unmarkedCongestion(markedSum, unlearnedSum, cal)) {
                    out.add(Finding.root(FaultType.ECN_MISCONFIG, Entity.device(device), "ecn_marked", markedSum,
                        0, Severity.WARNING, String.format("%s queues %.3g packets behind deep queues in %d ticks and "
                            + "marked none with ECN: ECN marking looks disabled", device, unlearnedSum, k + 1)));
                    found = true;
                    break;
                }
            }
            final ArrayDeque<List<float[]>> waiting = pending.computeIfAbsent(device,
                d -> new ArrayDeque<>());
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
     * One calm tick's port shares enter the device's curve, each in its port's band (a port of a device marks at its
     * own bursts: pooling its ports would make a share none of them keeps), unless a share is itself "nothing" against
     * what its band is expected to mark (a departure, not the curve).
     */
    static void learn(final LearnedLevels curves, final int base, final List<float[]> shares,
                      final DetectionCalibration cal) {
        final double[] table = shareTable(curves, base, cal);
        for (final float[] bandShare : shares) {
            final int b = (int) bandShare[0];
            if (!(bandShare[1] < cal.ecnNothingShare() * table[b])) {
                curves.learn(base + b, bandShare[1]);
            }
        }
    }

    /**
     * Per band, the share the device is expected to mark at least: the low quantile of its learned shares there (NaN
     * where the band is not learned). No band speaks for another: the gauge is a queue's mean over the tick while
     * marks follow its bursts, so a bursty port marks at a shallower mean than a steady one of the same device, and a
     * shallow band's share does not carry to deeper ones.
     */
    static double[] shareTable(final LearnedLevels curves, final int base, final DetectionCalibration cal) {
        final double[] table = new double[cal.ecnBands()];
        for (int b = 0; b < table.length; b++) {
            table[b] = curves.learned(base + b) ? curves.quantile(base + b, cal.ecnShareQuantile()) : Double.NaN;
        }
        return table;
    }

    /** Marks under the "nothing" share of what the learned curve calls for, when it calls for enough to tell. */
    static boolean marksNothing(final double marked, final double calledFor, final DetectionCalibration cal) {
        return calledFor >= cal.ecnMinExpectedMarks() && marked <= cal.ecnNothingShare() * calledFor;
    }

    /** The fallback before a curve is learned: enough packets behind deep queues and not one mark on the device. */
    static boolean unmarkedCongestion(final double marked, final double packetsBehindDeepQueues,
                                      final DetectionCalibration cal) {
        return marked == 0 && packetsBehindDeepQueues >= cal.ecn().minCongestedPackets();
    }

    /**
     * For the fallback only: a queue past the marking threshold of any plausibly configured switch (a multiple of the
     * twin's default Kmin) and beyond the twin's by the PFC detector's congested excess.
     */
    static boolean deepBeyondTwin(final double queue, final double expectedQueue, final DetectionCalibration cal) {
        return queue > markingQueueBytes(cal) && queue - expectedQueue > cal.pfc().queueExcessBytes();
    }

    /** The fallback's deep queue in bytes. */
    static double markingQueueBytes(final DetectionCalibration cal) {
        return cal.ecn().markingQueueKmins() * TWIN_KMIN_BYTES;
    }

    /** The port was held paused (received pauses) for more than the calibration's share of the tick. */
    static boolean paused(final TickContext context, final PortTick t, final DetectionCalibration cal) {
        final double perSecond = context.pauseFramesPerSecond(t);
        return perSecond > 0 && t.seconds() > 0
            && TickContext.pfc(t, CounterNames.RX_PFC_PAUSE, true) / (perSecond * t.seconds()) > cal.pausedShare();
    }
}
