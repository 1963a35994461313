package dev.fabrictwin.ingest.format;

import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.telemetry.RejectReason;
import dev.fabrictwin.twin.telemetry.Sample;
import dev.fabrictwin.twin.telemetry.SampleFormatException;

/**
 * Checks every adapter's output the same way before it is produced: time window, at least one value, and no
 * canonical gauge below zero (a negative queue depth or latency is a broken reading, not a measurement).
 */
public final class SampleValidator {

    private SampleValidator() {
    }

    public static void validate(final Sample s, final ParseContext ctx) throws SampleFormatException {
        final long now = ctx.clock().millis();
        if (s.ts() > now + ctx.maxFuture().toMillis()) {
            throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE,
                "timestamp " + s.ts() + " is more than " + ctx.maxFuture() + " in the future");
        }
        if (s.ts() < now - ctx.maxPast().toMillis()) {
            throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE,
                "timestamp " + s.ts() + " is more than " + ctx.maxPast() + " in the past");
        }
        if (s.counters().isEmpty() && s.gauges().isEmpty()) {
            throw new SampleFormatException(RejectReason.NO_COUNTERS, "sample for " + s.device() + "/" + s.port()
                + " carries no counters or gauges");
        }
        final String negative = CounterNames.negativeGauge(s.gauges());
        if (negative != null) {
            throw new SampleFormatException(RejectReason.NEGATIVE_GAUGE, "gauge " + negative + " of " + s.device() + "/"
                + s.port() + " is " + s.gauges().get(negative) + ": it cannot be below zero");
        }
    }
}
