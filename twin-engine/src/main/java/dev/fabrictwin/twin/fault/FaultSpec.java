package dev.fabrictwin.twin.fault;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * An injected fault: type, target, window [start, end) in scenario time, and type-specific parameters.
 * Every parameter has a default ({@link FaultDefaults}), so type, target, start and end are enough.
 */
public record FaultSpec(String id, FaultType type, FaultTarget target, Duration start, Duration end,
                        Map<String, Double> params) {
    public FaultSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        params = Map.copyOf(params == null ? Map.of() : params);
        if (start.isNegative()) {
            throw new IllegalArgumentException("fault " + id + ": start must be >= 0");
        }
        if (end.compareTo(start) <= 0) {
            throw new IllegalArgumentException("fault " + id + ": end (" + end + ") must be after start (" + start + ")");
        }
        for (final String key : params.keySet()) {
            if (!FaultDefaults.of(type).containsKey(key)) {
                throw new IllegalArgumentException("fault " + id + " (" + type + "): unknown parameter '" + key
                    + "' (known: " + FaultDefaults.of(type).keySet() + ")");
            }
        }
        if (type == FaultType.LINK_FLAP) {
            final double period = params.getOrDefault("period", FaultDefaults.of(type).get("period"));
            final double down = params.getOrDefault("downSeconds", FaultDefaults.of(type).get("downSeconds"));
            if (!(down > 0 && down < period)) {
                throw new IllegalArgumentException("fault " + id + " (LINK_FLAP): downSeconds must be > 0 and under period ("
                    + period + "), was " + down);
            }
        }
    }

    /** The parameter's value, or its documented default. */
    public double param(final String name) {
        final Double v = params.get(name);
        if (v != null) {
            return v;
        }
        final Double d = FaultDefaults.of(type).get(name);
        if (d == null) {
            throw new IllegalArgumentException(type + " has no parameter '" + name + "'");
        }
        return d;
    }

    public boolean activeAt(final double seconds) {
        return seconds >= start.toNanos() / 1e9 && seconds < end.toNanos() / 1e9;
    }

    public double startSeconds() {
        return start.toNanos() / 1e9;
    }

    public double endSeconds() {
        return end.toNanos() / 1e9;
    }
}
