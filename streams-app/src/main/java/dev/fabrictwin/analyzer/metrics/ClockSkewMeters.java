package dev.fabrictwin.analyzer.metrics;

import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

/** The devices whose clocks run ahead of the fabric's event time, the furthest first, bounded. */
final class ClockSkewMeters implements MeterBinder {

    /** Devices listed at most in {@code fabric_device_clock_ahead_seconds}: the furthest ahead. */
    static final int MAX_CLOCK_SERIES = 50;

    private MultiGauge clocksAhead;

    @Override
    public void bindTo(final MeterRegistry registry) {
        this.clocksAhead = MultiGauge.builder("fabric.device.clock.ahead.seconds")
            .description("Devices whose clocks run ahead of the fabric's event time (their samples are analyzed in "
                + "their own ticks, nothing waits for them), seconds ahead; the " + MAX_CLOCK_SERIES + " furthest")
            .register(registry);
    }

    /** Shows these devices' lead in milliseconds; a device no longer ahead loses its series. */
    void show(final Map<String, Long> aheadMsByDevice) {
        final List<MultiGauge.Row<?>> rows = aheadMsByDevice.entrySet().stream()
            .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
            .limit(MAX_CLOCK_SERIES)
            .<MultiGauge.Row<?>>map(e -> MultiGauge.Row.of(Tags.of("device", e.getKey()), e.getValue() / 1000.0))
            .toList();
        clocksAhead.register(rows, true);
    }
}
