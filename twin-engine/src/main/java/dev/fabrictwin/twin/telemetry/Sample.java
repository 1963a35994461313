package dev.fabrictwin.twin.telemetry;

import java.util.Map;
import java.util.Objects;

/**
 * The canonical sample (docs/contracts.md, a contract): one port of one device at one time.
 * {@code {"ts": <epoch ms>, "device": "leaf-2", "port": "eth5", "source": "gnmic",
 * "counters": {"tx_bytes": 123, ...}, "gauges": {"oper_up": 1, ...}}}.
 *
 * <p>Counters are cumulative and may wrap at 32 or 64 bits; they are held in a {@code long} read as
 * <em>unsigned</em> 64-bit (values in [2^63, 2^64) look negative to Java; use {@link Long#compareUnsigned}
 * and {@link Long#toUnsignedString}). Gauges are instant values. Unknown counters keep their source names.
 * Schema: {@code twin-engine/src/main/resources/schema/canonical-sample.schema.json}.
 */
public record Sample(long ts, String device, String port, String source, Map<String, Long> counters,
                     Map<String, Double> gauges) {

    public Sample {
        if (device == null || device.isBlank()) {
            throw new IllegalArgumentException("sample needs a device");
        }
        if (port == null || port.isBlank()) {
            throw new IllegalArgumentException("sample needs a port");
        }
        if (ts <= 0) {
            throw new IllegalArgumentException("sample needs a positive epoch-ms timestamp, was " + ts);
        }
        source = source == null ? "" : source;
        final boolean trusted = counters instanceof FrozenMap && gauges instanceof FrozenMap; // checked when built
        counters = FrozenMap.copyOf(Objects.requireNonNull(counters, "counters"));
        gauges = FrozenMap.copyOf(Objects.requireNonNull(gauges, "gauges"));
        if (!trusted) {
            for (final var e : gauges.entrySet()) {
                if (e.getKey() == null || e.getValue() == null || !Double.isFinite(e.getValue())) {
                    throw new IllegalArgumentException("gauge " + e.getKey() + " is not a finite number");
                }
            }
            for (final var e : counters.entrySet()) {
                if (e.getKey() == null || e.getValue() == null) {
                    throw new IllegalArgumentException("counter " + e.getKey() + " has no value");
                }
            }
        }
    }

    /** A counter's value, or {@code fallback} if the sample does not carry it. */
    public long counter(final String name, final long fallback) {
        final Long v = counters.get(name);
        return v == null ? fallback : v;
    }

    public boolean hasCounter(final String name) {
        return counters.containsKey(name);
    }

    /** Kafka key of {@code telemetry.samples}: the device, so a device's samples stay in order. */
    public String key() {
        return device;
    }
}
