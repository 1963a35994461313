package dev.fabrictwin.analyzer;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.rates.PortRates;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * Test fixture: samples in delivery order turned into each port's intervals, as the rates stage does. A late sample
 * (not after the port's last) is dropped: taking it as the port's last would rewind the port, and its next interval
 * would count again what was already counted.
 */
public final class SampleIntervals {

    private final Map<String, Sample> last = new HashMap<>();
    private final long nominalIntervalMs;

    public SampleIntervals(final long nominalIntervalMs) {
        this.nominalIntervalMs = nominalIntervalMs;
    }

    public Optional<PortInterval> next(final Sample x) {
        final String key = x.device() + "/" + x.port();
        final PortRates.Step step = PortRates.next(last.get(key), x, nominalIntervalMs);
        if (!step.late()) {
            last.put(key, x);
        }
        return step.interval();
    }
}
