package dev.fabrictwin.analyzer.detect;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.checkpoint.LearnedPart;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;

/**
 * {@code UNEXPECTED_TRAFFIC}: load at a host port that neither the declared jobs nor the port's usual undeclared
 * traffic explain. Over a window of {@link DetectionCalibration.UnexpectedTraffic#windowTicks} ticks (several
 * iterations, so a phase error of the twin averages out) a NIC sending more than the twin expects plus its learned
 * background by {@link DetectionCalibration.UnexpectedTraffic#excessShare} of its line rate ({@link #excess}) is a
 * source of undeclared traffic — a root cause: the traffic is its own. A NIC receiving that much more is where it
 * lands, a victim of the largest source; a receiver with no source in sight (traffic from outside the monitored
 * hosts) is the root itself.
 *
 * <p>Real fabrics carry traffic no scheduler declares (storage, inference, checkpoints, test traffic). Each port and
 * direction learns its background: the excess over the twin of its healthy windows (no alert covering it, none found
 * here), one per window, the last {@link DetectionCalibration.UnexpectedTraffic#backgroundWindows} kept; the background
 * is their {@link DetectionCalibration.UnexpectedTraffic#backgroundQuantile} quantile. A port judges nothing until
 * it has learned {@link DetectionCalibration.UnexpectedTraffic#backgroundWarmUp} windows: what runs when the analysis
 * starts is the fabric's normal, a source that appears later is not.
 *
 * <p>Undeclared traffic often follows the day (storage and inference by day, backups by night). Each port and
 * direction therefore also learns a level per hour of day ({@link DailyRhythm}, event time): each learned window's
 * background (the quantile of its hour's windows among the last kept) raises its clock hour's level; the next hour
 * makes it the hour of day's (a lower one brings it down by {@link DetectionCalibration.UnexpectedTraffic#rhythmDecline}
 * a day). Where the hours of day learned span {@link DetectionCalibration.UnexpectedTraffic#rhythmShare} of line rate
 * the port has a rhythm, and a window is judged against the highest hour of day within
 * {@link DetectionCalibration.UnexpectedTraffic#rhythmSlackMinutes} of its end (an hour not seen yet: the port's highest
 * hour) instead of its recent windows: a port twice as busy by day is not unexpected at the morning's rise, and at
 * night a source that would hide under the day's level is found. Elsewhere the port is judged as without hours. Memory,
 * bounded by the fabric: 64 B of hours per host port and direction (kept for host ports only: 8 MB at 32k GPUs, ≈ 64k
 * host ports × 2 directions), beside the recent windows' 68 B per port and direction and 12 B per port for the pending
 * window's end and the host ordinal.
 */
final class UnexpectedTrafficDetector implements Detector, LearnedPart {

    private static final String RX_METRIC = "rx_excess_share";
    private static final String TX_METRIC = "tx_excess_share";

    /** By port index (sized to the fabric at the first tick). */
    private Rolling[][] windows;
    /** Per port index, ticks taken into its window since it last learned its background. */
    private int[] sinceLearned;
    /** Healthy windows' excess over the twin as a share of line rate, by {@code 2 × port index} (+1 sending). */
    private LearnedLevels background;
    /**
     * By the same key, the last window's share, learned once the next window is healthy too (NaN: none): the window in
     * which unexpected traffic begins holds only part of it, and learning it would raise the background it is judged by.
     */
    private float[] pending;
    /** By port index, when the pending windows of its two directions ended (event time, epoch ms). */
    private long[] pendingEndMs;
    /** Each host port direction's level per hour of day, by {@link #hourKey} (null before the first tick). */
    private DailyRhythm rhythm;
    /** By port index, the host port's ordinal among the fabric's host ports (-1: a switch port). */
    private int[] hostSlot;

    @Override
    public String learnedName() {
        return "unexpected-traffic";
    }

    @Override
    public int learnedVersion() {
        return 2;
    }

    /** Each host port's learned undeclared background, both directions: its recent windows and its hours of day. */
    @Override
    public void writeLearned(final DataOutput out) throws IOException {
        LearnedLevels.writeOrNone(background, out);
        out.writeBoolean(rhythm != null);
        if (rhythm != null) {
            rhythm.write(out);
        }
    }

    /** Version 1 (before hours of day) is read too: its recent windows are taken back, the hours learned afresh. */
    @Override
    public boolean readLearned(final DataInput in, final int version) throws IOException {
        if (version != 1 && version != 2) {
            return false;
        }
        background = LearnedLevels.readOrNone(in);
        rhythm = version == 2 && in.readBoolean() ? DailyRhythm.read(in) : null;
        return true;
    }

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        final DetectionCalibration.UnexpectedTraffic cal = context.config().calibration().unexpectedTraffic();
        if (windows == null) {
            final int ports = context.fabric().directedLinkCount();
            windows = new Rolling[ports][];
            sinceLearned = new int[ports];
            if (background == null || background.keys() != 2 * ports) {
                background = new LearnedLevels(2 * ports, cal.backgroundWindows(), cal.backgroundWarmUp());
            }
            hostSlot = new int[ports];
            int hosts = 0;
            for (int i = 0; i < ports; i++) {
                hostSlot[i] = context.fabric().node(context.fabric().txNode(i)).isHost() ? hosts++ : -1;
            }
            if (rhythm == null || rhythm.keys() != 2 * hosts) {
                rhythm = new DailyRhythm(2 * hosts);
            }
            pending = new float[2 * ports];
            Arrays.fill(pending, Float.NaN);
            pendingEndMs = new long[ports];
        }
        // in port order: the findings' order does not depend on hashing
        final Map<PortRef, Double> rxExcess = new LinkedHashMap<>();
        final Map<PortRef, Double> txExcess = new LinkedHashMap<>();
        for (final PortTick t : context.ports()) {
            if (!context.isHost(t)) {
                continue;
            }
            final int window = context.ticks(cal.windowTicks());
            if (windows[t.index()] == null) {
                windows[t.index()] = new Rolling[] {
                    new Rolling(window), new Rolling(window), new Rolling(window), new Rolling(window), new Rolling(window)};
            }
            final Rolling[] w = windows[t.index()];
            if (t.unreliable()) {
                for (final Rolling r : w) {
                    r.clear();
                }
                continue;
            }
            w[0].add(t.observed(CounterIndex.RX_BYTES));
            w[1].add(t.expected(CounterIndex.RX_BYTES));
            w[2].add(t.observed(CounterIndex.TX_BYTES));
            w[3].add(t.expected(CounterIndex.TX_BYTES));
            w[4].add(t.seconds());
            if (!w[0].full()) {
                continue;
            }
            final double lineBytes = context.capacityBps(t) / 8 * w[4].sum();
            final boolean learnNow = ++sinceLearned[t.index()] >= window && context.uncovered(t);
            final long endMs = context.tick().endMs();
            final long pendingEnd = pendingEndMs[t.index()];
            final Optional<Double> rx =
                judge(2 * t.index(), w[0].sum(), w[1].sum(), lineBytes, endMs, learnNow, pendingEnd, cal);
            final Optional<Double> tx =
                judge(2 * t.index() + 1, w[2].sum(), w[3].sum(), lineBytes, endMs, learnNow, pendingEnd, cal);
            if (learnNow) {
                sinceLearned[t.index()] = 0;
                pendingEndMs[t.index()] = endMs;
            }
            rx.ifPresent(x -> rxExcess.put(t.port(), x));
            tx.ifPresent(x -> txExcess.put(t.port(), x));
        }
        final int first = out.size();
        rxExcess.forEach((port, x) -> out.add(sink(port, x, null)));
        txExcess.forEach((port, x) -> out.add(Finding.root(FaultType.UNEXPECTED_TRAFFIC, Entity.port(port), TX_METRIC, x,
            0, Severity.WARNING, String.format("%s %s sends %.0f%% of line rate more than the declared jobs and its "
                + "usual undeclared traffic explain", port.device(), port.port(), 100 * x))));
        linkSinks(out.subList(first, out.size()));
    }

    /**
     * One direction of a port over its window ending at {@code endMs}: the excess beyond the twin and the learned
     * background, when it is unexpected; when {@code learnNow} and none is found, the last healthy window (ended at
     * {@code pendingEndMs}) is learned and this one waits for the next. Nothing is judged before the key has learned
     * its background.
     */
    private Optional<Double> judge(final int key, final double observed, final double expected,
                                             final double lineBytes, final long endMs, final boolean learnNow,
                                             final long pendingEndMs, final DetectionCalibration.UnexpectedTraffic cal) {
        if (lineBytes <= 0) {
            return Optional.empty();
        }
        final double share = (observed - expected) / lineBytes;
        final Optional<Double> excess = background.learned(key)
            ? excess(observed, expected + Math.max(0, background(key, endMs, cal)) * lineBytes, lineBytes, cal)
            : Optional.empty();
        if (excess.isPresent()) {
            pending[key] = Float.NaN;
        } else if (learnNow) {
            learn(key, pending[key], pendingEndMs, cal);
            pending[key] = (float) share;
        }
        return excess;
    }

    /**
     * The background a window ending at {@code endMs} is judged by: where the key has a daily rhythm, the level of its
     * hours of day; else the quantile of its recent windows.
     */
    private double background(final int key, final long endMs, final DetectionCalibration.UnexpectedTraffic cal) {
        return rhythm.rhythmic(hourKey(key), cal.rhythmShare())
            ? rhythm.level(hourKey(key), endMs, cal.rhythmSlackMinutes() * 60_000L)
            : background.quantile(key, cal.backgroundQuantile());
    }

    /**
     * Learns a healthy window's share (NaN: none pending) into the recent windows, and the background it makes of its
     * clock hour's windows among them into the hours of day.
     */
    private void learn(final int key, final float share, final long endMs,
                       final DetectionCalibration.UnexpectedTraffic cal) {
        if (Float.isNaN(share)) {
            return;
        }
        background.learn(key, share);
        final int hourKey = hourKey(key);
        rhythm.learn(hourKey, endMs,
            background.quantile(key, cal.backgroundQuantile(), rhythm.visitValues(hourKey, endMs) + 1), cal.rhythmDecline());
    }

    /** A host port direction's key ({@code 2 × port index}, +1 sending) as its key among the host ports only. */
    private int hourKey(final int key) {
        return 2 * hostSlot[key / 2] + key % 2;
    }

    /** A source and its sinks may be judged by different shards: linked again over the whole fabric. */
    @Override
    public void acrossShards(final CrossShard tick, final List<Finding> merged) {
        linkSinks(merged);
    }

    /**
     * Makes every NIC receiving unexplained traffic a symptom of the NIC sending the most of it (the first such on a
     * tie), when there is one; else each receiver is a root of its own. Sharded, the correlation stage links them over
     * the whole fabric (a source and its sink may be judged by different shards).
     */
    private static void linkSinks(final List<Finding> findings) {
        Finding source = null;
        for (final Finding f : findings) {
            if (f.type() == FaultType.UNEXPECTED_TRAFFIC && TX_METRIC.equals(f.metric())
                && (source == null || f.observed() > source.observed())) {
                source = f;
            }
        }
        for (int i = 0; i < findings.size(); i++) {
            final Finding f = findings.get(i);
            if (f.type() == FaultType.UNEXPECTED_TRAFFIC && RX_METRIC.equals(f.metric())) {
                findings.set(i, sink(new PortRef(f.entity().device(), f.entity().port()), f.observed(),
                    source == null ? null : new PortRef(source.entity().device(), source.entity().port())));
            }
        }
    }

    private static Finding sink(final PortRef port, final double excess, final PortRef source) {
        final String summary = String.format("%s %s receives %.0f%% of line rate more than the declared jobs and its "
            + "usual undeclared traffic explain",
            port.device(), port.port(), 100 * excess);
        return source == null
            ? Finding.root(FaultType.UNEXPECTED_TRAFFIC, Entity.port(port), RX_METRIC, excess, 0, Severity.WARNING, summary)
            : Finding.symptom(FaultType.UNEXPECTED_TRAFFIC, Entity.port(port), Entity.port(source), RX_METRIC, excess, 0,
                summary + ", from " + source.device());
    }

    /**
     * The excess over the twin as a share of line rate, when it is unexpected: at least the calibration's share of
     * line rate and its factor over what the twin expects (a busy job's own noise is not unexpected).
     */
    static Optional<Double> excess(final double observed, final double expected, final double line,
                                             final DetectionCalibration.UnexpectedTraffic cal) {
        if (line <= 0 || observed - expected < cal.excessShare() * line || observed < cal.excessFactor() * expected) {
            return Optional.empty();
        }
        return Optional.of((observed - expected) / line);
    }
}
