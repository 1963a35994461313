package dev.fabrictwin.analyzer.detect;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.checkpoint.LearnedPart;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;

/**
 * {@code LATENCY_SLO}: a port's P99 latency departing from its own learned level. A port's tail latency is a property
 * of the device and of its traffic pattern (a ring's NIC sits at a few µs, an all-to-all's at hundreds at a few % of
 * line rate, two ports of one leaf at the same load differ tenfold), which the twin cannot know; so each port learns
 * its P99 per traffic regime ({@link DetectionCalibration#latencyRegime}: the busier direction's share of line rate)
 * from ticks no alert covers, and a P99 departs when it rises above
 * {@link DetectionCalibration#latencyFloorFactor}× the learned 90th percentile and that percentile plus
 * {@link DetectionCalibration#latencySpreadMultiple}× the learned 10–90 % spread ({@link #departs}), in each of the
 * last {@link DetectionCalibration#latencyPersistSeconds} seconds of ticks (the most downstream symptom waits for the
 * evidence windows of its causes, ECN_MISCONFIG's 3 s, so the cause is named first). A port is silent in a regime
 * until it has learned it. A rise that coincides with congestion on the port or its path (its own egress,
 * the peer's, for a NIC any port of its switch, and a NIC told of congestion further on by CNPs or pauses:
 * {@link #onCongestedPath}) is a symptom of that congestion, not a
 * cause. An operator's fixed SLO ({@code AnalyzerConfig.latencySloUs}, off by default) adds the old test: a P99 over
 * it and over the twin's by {@link DetectionCalibration.LatencySlo#marginUs} µs +
 * {@link DetectionCalibration.LatencySlo#marginShare} is reported whatever was learned.
 */
final class LatencySloDetector implements Detector, LearnedPart {

    /** Each port's P99 per traffic regime, key = port index × regimes + regime (sized at the first tick). */
    private LearnedLevels levels;
    /** Consecutive ticks each port's P99 departed, by port index. */
    private short[] streaks;

    @Override
    public String learnedName() {
        return "latency-slo";
    }

    @Override
    public int learnedVersion() {
        return 1;
    }

    /** Each port's learned P99 per regime (another regime count at the next tick: learned afresh). */
    @Override
    public void writeLearned(final DataOutput out) throws IOException {
        LearnedLevels.writeOrNone(levels, out);
    }

    @Override
    public boolean readLearned(final DataInput in, final int version) throws IOException {
        if (version != 1) {
            return false;
        }
        levels = LearnedLevels.readOrNone(in);
        return true;
    }

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        final DetectionCalibration cal = context.config().calibration();
        final int regimes = cal.latencyRegimeCount();
        if (levels == null || levels.keys() != context.fabric().directedLinkCount() * regimes) {
            levels = new LearnedLevels(context.fabric().directedLinkCount() * regimes, cal.learnRing(), cal.learnWarmUp(),
                cal.latencyPeakHalfLifeSeconds());
        }
        if (streaks == null) {
            streaks = new short[context.fabric().directedLinkCount()];
        }
        final int persist = (int) Math.max(1, Math.ceil(cal.latencyPersistSeconds() * 1000 / context.config().tickMs()));
        // at fast telemetry one value a second enters the ring, so it spans the same wall time as at 1 s
        final boolean learnTick = context.tick().index() % context.ticks(1) == 0;
        for (final PortTick t : context.ports()) {
            final double p99 = t.gauge(CounterNames.LATENCY_P99_US);
            if (Double.isNaN(p99) || t.unreliable() || TickContext.down(t)) {
                continue;
            }
            final int key = t.index() * regimes + cal.latencyRegime(utilization(context, t));
            final double expected = t.expectedGauge(CounterIndex.LATENCY_P99_US);
            final boolean overSlo = overSlo(context, p99, expected);
            final boolean departs = departs(levels, key, p99, cal);
            streaks[t.index()] = departs ? (short) Math.min(Short.MAX_VALUE, streaks[t.index()] + 1) : 0;
            if (!departs && learnTick && context.uncovered(t)) {
                levels.learn(key, p99);
            }
            if (!overSlo && streaks[t.index()] < persist) {
                continue;
            }
            final String summary = overSlo
                ? String.format("P99 latency at %s %s is %.1f µs: over the %.0f µs SLO and the twin's %.1f µs",
                    t.port().device(), t.port().port(), p99, context.config().latencySloUs(), expected)
                : String.format("P99 latency at %s %s is %.1f µs: above its learned %.1f µs (90th percentile of its "
                    + "healthy P99 at this load)", t.port().device(), t.port().port(), p99, levels.quantile(key, 0.9));
            final double reference = overSlo ? expected : levels.quantile(key, 0.9);
            if (onCongestedPath(context, t) || !overSlo && queueExplains(context, t, p99 - reference)) {
                out.add(Finding.symptom(FaultType.LATENCY_SLO, Entity.port(t.port()),
                    Entity.link(context.fabric().link(t.index() / 2)), "latency_p99_us", p99, reference,
                    summary + " (queueing)"));
            } else {
                out.add(Finding.root(FaultType.LATENCY_SLO, Entity.port(t.port()), "latency_p99_us", p99, reference,
                    Severity.WARNING, summary));
            }
        }
    }

    /**
     * The port's own buffer explains a rise of {@code riseUs}: at most twice the time its peak queue (the watermark
     * gauge, else the mean queue) takes to drain at line rate — a packet in the tail waits behind the queue at its
     * peak, and its own burst's serialization as long again. A few µs on a port whose buffer peaked at 100 kB is that
     * queue, not a fault.
     */
    static boolean queueExplains(final TickContext context, final PortTick t, final double riseUs) {
        final double peak = t.gauge(CounterNames.BUFFER_WATERMARK_BYTES);
        final double queue = t.gauge(CounterNames.QUEUE_DEPTH_BYTES);
        final double bytes = Math.max(Double.isNaN(peak) ? 0 : peak, Double.isNaN(queue) ? 0 : queue);
        return bytes > 0 && riseUs <= 2 * bytes * 8 / context.capacityBps(t) * 1e6;
    }

    /** The operator's SLO is set, and the P99 is over it and over the twin's by the margin. */
    static boolean overSlo(final TickContext context, final double p99, final double expected) {
        final var slo = context.config().latencySlo();
        final DetectionCalibration.LatencySlo margin = context.config().calibration().latencySlo();
        return slo.isPresent() && p99 > slo.getAsDouble() && p99 > expected * (1 + margin.marginShare()) + margin.marginUs();
    }

    /**
     * The key has learned its level and {@code p99} is above both the multiplicative floor over its 90th percentile
     * and that percentile plus the spread multiple of its 10–90 % spread.
     */
    static boolean departs(final LearnedLevels levels, final int key, final double p99, final DetectionCalibration cal) {
        if (!levels.learned(key) || !(p99 > cal.latencyFloorFactor() * levels.lowest(key))) {
            return false; // (cheap: the threshold is never below the floor over the lowest value)
        }
        final double high = levels.quantile(key, 0.9);
        final double spread = high - levels.quantile(key, 0.1);
        return p99 > cal.latencyFloorFactor() * high && p99 > high + cal.latencySpreadMultiple() * spread
            && !(p99 <= levels.peak(key));
    }

    /** The busier direction's share of line rate in this tick. */
    static double utilization(final TickContext context, final PortTick t) {
        final double line = context.capacityBps(t) / 8 * t.seconds();
        if (!(line > 0)) {
            return 0;
        }
        return Math.max(t.observed(CounterIndex.TX_BYTES), t.observed(CounterIndex.RX_BYTES)) / line;
    }

    /**
     * Congestion the latency may be a symptom of: the port's own egress or its peer's
     * ({@link PfcOriginDetector#congested}), for a NIC any egress of the switch it hangs off (its traffic's first hop
     * either way), and a NIC told of congestion further along its path ({@link #congestionSignalled}).
     */
    static boolean onCongestedPath(final TickContext context, final PortTick t) {
        if (queueing(context, t)) {
            return true;
        }
        final PortTick peer = context.peerOf(t);
        if (peer != null && queueing(context, peer)) {
            return true;
        }
        if (!context.isHost(t)) {
            return false;
        }
        if (congestionSignalled(t)) {
            return true;
        }
        final Fabric fabric = context.fabric();
        final int node = fabric.rxNode(t.index());
        for (int i = 0; i < fabric.degree(node); i++) {
            final int own = fabric.link(fabric.linkOf(node, i)).from(node);
            final PortTick p = context.port(own);
            if (p != null && queueing(context, p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A NIC told in this tick that its traffic met congestion somewhere on its path: CNPs for packets a queue marked
     * anywhere downstream (its own switch's ports need not queue: the hot spot may be the far leaf), or pauses from its
     * switch. Its latency then rises with that congestion (DCQCN slows it, its packets wait in that queue).
     */
    static boolean congestionSignalled(final PortTick t) {
        return t.observed(CounterIndex.CNP_HANDLED) > 0 || TickContext.pfc(t, CounterNames.RX_PFC_PAUSE, true) > 0;
    }

    /**
     * An egress that queued in this tick: congested beyond the twin ({@link PfcOriginDetector#congested}), or marking
     * any packet at all — whatever a device's marking threshold, a mark means its queue passed it (in a world whose
     * devices mark 0.07 % of their packets when they queue, a share threshold misses it).
     */
    static boolean queueing(final TickContext context, final PortTick t) {
        return PfcOriginDetector.congested(context, t) || t.observed(CounterIndex.ECN_MARKED) > 0;
    }
}
