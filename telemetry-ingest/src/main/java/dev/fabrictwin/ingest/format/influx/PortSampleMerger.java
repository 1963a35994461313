package dev.fabrictwin.ingest.format.influx;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import dev.fabrictwin.ingest.format.support.QueueDimension;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * Makes consecutive points of one device, port and time one sample (docs/contracts.md: one sample per port per
 * time): Telegraf writes a point per queue (a queue tag) or per sysfs directory for the same port and time. A name
 * that would repeat starts a new sample instead of overwriting. Port totals are summed from per-queue fields (a
 * NIC's {@code rx_queue_3_bytes}) when the point has none; queue-tagged points are switch queue statistics whose
 * port totals come from the interface's own counters, so they are not summed (docs/ingest.md, "Queues and
 * priorities").
 */
final class PortSampleMerger {

    private final Consumer<Sample> out;
    private Sample current;
    private boolean queueTagged;

    PortSampleMerger(final Consumer<Sample> out) {
        this.out = out;
    }

    /** Adds one point's (validated) sample; {@code tagged}: the point carried a queue or priority tag. */
    void add(final Sample s, final boolean tagged) {
        if (current != null && sameKey(current, s) && disjoint(current, s)) {
            final Map<String, Long> counters = new LinkedHashMap<>(current.counters());
            counters.putAll(s.counters());
            final Map<String, Double> gauges = new LinkedHashMap<>(current.gauges());
            gauges.putAll(s.gauges());
            current = new Sample(s.ts(), s.device(), s.port(), s.source(), counters, gauges);
            queueTagged |= tagged;
            return;
        }
        flush();
        current = s;
        queueTagged = tagged;
    }

    /** Emits the sample being built, if any. */
    void flush() {
        if (current == null) {
            return;
        }
        final Sample s = current;
        current = null;
        out.accept(queueTagged ? s : new Sample(s.ts(), s.device(), s.port(), s.source(),
            QueueDimension.withTotals(s.counters()), QueueDimension.withGaugeTotals(s.gauges())));
    }

    private static boolean sameKey(final Sample a, final Sample b) {
        return a.ts() == b.ts() && a.device().equals(b.device()) && a.port().equals(b.port());
    }

    private static boolean disjoint(final Sample a, final Sample b) {
        return b.counters().keySet().stream().noneMatch(n -> a.counters().containsKey(n) || a.gauges().containsKey(n))
            && b.gauges().keySet().stream().noneMatch(n -> a.counters().containsKey(n) || a.gauges().containsKey(n));
    }
}
