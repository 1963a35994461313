package dev.fabrictwin.analyzer;

import java.util.List;
import java.util.Map;

import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.twin.fabric.Fabric;

/**
 * One analyzed tick as the analyzer reports it to listeners: the closed tick (never changed once closed), the
 * fabric it was judged on, every alert open after it, the last twin evaluation's duration, the late intervals
 * so far, and the devices whose clocks run ahead of the fabric's event time (ms ahead). Sharded, it is one shard's
 * tick (its ports only; {@code open} empty: the open alerts are the correlation stage's,
 * {@link AnalyzerListener#openAlerts}).
 */
public record TickReport(Fabric fabric, Tick tick, List<Alert> open, double twinMs, long lateIntervals,
                         Map<String, Long> clocksAhead, int shard) {

    public TickReport {
        open = List.copyOf(open);
        clocksAhead = Map.copyOf(clocksAhead);
    }

    /** The tick of an unsharded analysis (the whole fabric). */
    public TickReport(final Fabric fabric, final Tick tick, final List<Alert> open, final double twinMs,
                      final long lateIntervals, final Map<String, Long> clocksAhead) {
        this(fabric, tick, open, twinMs, lateIntervals, clocksAhead, 0);
    }
}
