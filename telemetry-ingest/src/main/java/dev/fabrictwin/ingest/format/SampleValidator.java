package dev.fabrictwin.ingest.format;

import java.time.Instant;

import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.telemetry.RejectReason;
import dev.fabrictwin.twin.telemetry.Sample;
import dev.fabrictwin.twin.telemetry.SampleFormatException;
import dev.fabrictwin.twin.telemetry.SampleNames;

/**
 * Checks every adapter's output the same way before it is produced, so that no format can give the same input
 * another verdict (docs/ingest.md, "Bad input"): names within {@link SampleNames#MAX_LENGTH}, a timestamp in epoch
 * milliseconds (not before {@link #EARLIEST}) and in the time window, at least one value, and no canonical gauge below
 * zero (a negative queue depth or latency is a broken reading, not a measurement).
 */
public final class SampleValidator {

    /**
     * No telemetry is older than this, whatever the time window (a capture replayed without one included): a
     * timestamp before it is seconds, a counter or garbage where epoch milliseconds belong ({@code ts} 1 or 1000).
     */
    public static final Instant EARLIEST = Instant.parse("2000-01-01T00:00:00Z");

    private SampleValidator() {
    }

    public static void validate(final Sample s, final ParseContext ctx) throws SampleFormatException {
        SampleNames.check(s);
        if (s.ts() < EARLIEST.toEpochMilli()) {
            throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE, "timestamp " + s.ts() + " ("
                + Instant.ofEpochMilli(s.ts()) + ") is before " + EARLIEST + ": not epoch milliseconds");
        }
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
