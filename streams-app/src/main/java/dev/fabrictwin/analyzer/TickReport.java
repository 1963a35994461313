package dev.fabrictwin.analyzer;

import java.util.List;
import java.util.Map;

import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.twin.fabric.Fabric;

/**
 * One analyzed tick as the analyzer reports it to listeners: the closed tick (never changed once closed), the
 * fabric it was judged on, every alert open after it, the last twin evaluation's duration, the late intervals
 * so far, and the devices whose clocks run ahead of the fabric's event time (ms ahead).
 */
public record TickReport(Fabric fabric, Tick tick, List<Alert> open, double twinMs, long lateIntervals,
                         Map<String, Long> clocksAhead) {

    public TickReport {
        open = List.copyOf(open);
        clocksAhead = Map.copyOf(clocksAhead);
    }
}
