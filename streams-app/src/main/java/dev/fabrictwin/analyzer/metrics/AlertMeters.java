package dev.fabrictwin.analyzer.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.fabrictwin.contract.alert.Alert;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Alerts: records published (processing thread), the sample-to-alert lag, and the open alerts by type and one by one
 * (refresher thread; series exist only while an alert is open).
 */
final class AlertMeters implements MeterBinder {

    private MeterRegistry registry;
    private final Map<String, Counter> published = new ConcurrentHashMap<>();
    private DistributionSummary lag;
    private MultiGauge openByType;
    private MultiGauge openAlerts;
    /** What {@link #showOpen} showed last: the series are re-registered only when it changes. */
    private List<String> shownIds = List.of();

    @Override
    public void bindTo(final MeterRegistry registry) {
        this.registry = registry;
        this.lag = DistributionSummary.builder("fabric.sample.to.alert.lag").baseUnit("seconds")
            .description("Wall clock at publication minus the event time of the tick that raised it (live telemetry)")
            .publishPercentiles(0.5, 0.99).register(registry);
        this.openByType = MultiGauge.builder("fabric.alerts.open")
            .description("Open alerts by type and severity").register(registry);
        this.openAlerts = MultiGauge.builder("fabric.alert.open")
            .description("1 per open alert, with its id, type, entity and whether it is a root cause").register(registry);
    }

    void published(final Alert alert, final long wallClockMs) {
        published.computeIfAbsent(alert.type() + "/" + alert.state(), k -> Counter.builder("fabric.alerts.published")
            .tag("type", alert.type().name()).tag("state", alert.state().name())
            .description("Alert records published, by type and lifecycle state").register(registry)).increment();
        if (alert.state() == Alert.State.OPEN) {
            lag.record(Math.max(0, wallClockMs - alert.lastSeen()) / 1000.0);
        }
    }

    void showOpen(final List<Alert> open) {
        final List<String> ids = open.stream().map(a -> a.id() + "/" + a.rootCause() + "/" + a.severity()).toList();
        if (ids.equals(shownIds)) {
            return;
        }
        shownIds = ids;
        final Map<Tags, Integer> byType = new HashMap<>();
        final List<MultiGauge.Row<?>> alertRows = new ArrayList<>();
        for (final Alert a : open) {
            byType.merge(Tags.of("type", a.type().name(), "severity", a.severity().name()), 1, Integer::sum);
            alertRows.add(MultiGauge.Row.of(Tags.of("id", a.id(), "type", a.type().name(), "entity", a.entity().key(),
                "root", String.valueOf(a.rootCause())), 1));
        }
        openByType.register(byType.entrySet().stream().map(e -> MultiGauge.Row.of(e.getKey(), e.getValue())).toList(), true);
        openAlerts.register(alertRows, true);
    }
}
