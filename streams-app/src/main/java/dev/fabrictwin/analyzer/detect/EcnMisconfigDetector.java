package dev.fabrictwin.analyzer.detect;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;

/**
 * {@code ECN_MISCONFIG}: a switch whose egress queues build (or which pauses its upstream) yet marks almost
 * nothing, over a window of {@value #WINDOW} seconds (at least as many ticks). With ECN working, DCQCN marks long before PFC; a device
 * that congests without marking — while the twin expects marks on it, or while its queues and pauses show
 * congestion the twin's marking curve would mark — has marking disabled or misconfigured. The evidence is the newest
 * run of ticks, {@value #MIN_SECONDS} seconds to the whole window, that holds enough of it.
 */
public final class EcnMisconfigDetector implements Detector {

    static final int WINDOW = 10;
    /** The fewest seconds of evidence judged (at least as many ticks). */
    static final int MIN_SECONDS = 3;
    /** Observed marks below this share of the marks congestion calls for mean marking is off. */
    static final double MARKED_SHARE = 0.05;
    /** Packets sent from congested egresses in the window before the device is judged. */
    static final double MIN_CONGESTED_PACKETS = 1e5;
    /**
     * A queue this deep is past the marking threshold of any plausibly configured switch: 1.5× the twin's default
     * Kmin (real thresholds are only approximately known, docs/twin.md).
     */
    static final double MARKING_QUEUE_BYTES = 1.5 * dev.fabrictwin.twin.model.ModelParams.defaults().ecnKminBytes();

    private final Map<String, Rolling> congestedPackets = new HashMap<>();
    private final Map<String, Rolling> marks = new HashMap<>();
    private final Map<String, Rolling> expectedMarks = new HashMap<>();

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        final Map<String, double[]> perDevice = new HashMap<>();
        for (final PortTick t : context.ports()) {
            final String device = t.port().device();
            if (context.isHost(t)) {
                continue;
            }
            final double[] acc = perDevice.computeIfAbsent(device, d -> new double[3]);
            final double queue = t.gauge(CounterNames.QUEUE_DEPTH_BYTES);
            // congested = queueing beyond the twin AND past where any switch starts marking (a queue below Kmin is
            // never marked, however far it is above the twin's)
            final boolean queued = queue - t.expectedGauge(CounterIndex.QUEUE_DEPTH_BYTES) > PfcOriginDetector.QUEUE_EXCESS_BYTES
                && queue > MARKING_QUEUE_BYTES;
            if (queued) {
                acc[0] += t.observed(CounterIndex.TX_PACKETS);
            }
            acc[1] += t.observed(CounterIndex.ECN_MARKED);
            acc[2] += t.expected(CounterIndex.ECN_MARKED);
        }
        for (final var e : perDevice.entrySet()) {
            final String device = e.getKey();
            final double[] acc = e.getValue();
            final int window = context.ticks(WINDOW);
            final Rolling congested = congestedPackets.computeIfAbsent(device, d -> new Rolling(window));
            final Rolling marked = marks.computeIfAbsent(device, d -> new Rolling(window));
            final Rolling twin = expectedMarks.computeIfAbsent(device, d -> new Rolling(window));
            congested.add(acc[0]);
            marked.add(acc[1]);
            twin.add(acc[2]);
            // The newest ticks, as few as MIN_SECONDS' worth and as many as the window, that hold enough congestion and
            // almost no marks: judging only the whole window kept the marks from before marking stopped in it, and
            // found a switch that stopped marking a window later (issue 15: time to detect 9 ticks).
            final int fewest = Math.min(window, context.ticks(MIN_SECONDS));
            double congestedSum = 0;
            double markedSum = 0;
            double twinSum = 0;
            for (int k = 0; k < congested.count(); k++) {
                congestedSum += congested.ago(k);
                markedSum += marked.ago(k);
                twinSum += twin.ago(k);
                // congestion calls for at least the twin's marks, and for a few percent of congested packets
                final double calledFor = Math.max(twinSum, 0.01 * congestedSum);
                if (k + 1 >= fewest && congestedSum >= MIN_CONGESTED_PACKETS && markedSum <= MARKED_SHARE * calledFor) {
                    out.add(Finding.root(FaultType.ECN_MISCONFIG, Entity.device(device), "ecn_marked", markedSum,
                        calledFor, Severity.WARNING, String.format("%s queues %.3g packets behind congested egresses in "
                            + "%d ticks but marked %.3g with ECN (%.3g expected): ECN marking looks disabled", device,
                            congestedSum, k + 1, markedSum, calledFor)));
                    break;
                }
            }
        }
    }
}
