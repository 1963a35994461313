package dev.fabrictwin.ingest.format;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleContent;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.contract.sample.SampleNames;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * Checks every adapter's output the same way before it is produced, so that no format can give the same input
 * another verdict (docs/ingest.md, "Bad input"): names within {@link SampleNames#MAX_LENGTH}, a timestamp in epoch
 * milliseconds (not before {@link SampleContent#EARLIEST}) and in the time window, at least one value, and no canonical
 * gauge below zero (a negative queue depth or latency is a broken reading, not a measurement). The checks that need no
 * time window are {@link SampleContent}'s, which the analyzer applies to {@code telemetry.samples} too.
 */
public final class SampleValidator {

    private SampleValidator() {
    }

    public static void validate(final Sample s, final ParseContext ctx) throws SampleFormatException {
        SampleNames.check(s);
        SampleContent.requireEpochMillis(s);
        final long now = ctx.clock().millis();
        if (s.ts() > now + ctx.maxFuture().toMillis()) {
            throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE,
                "timestamp " + s.ts() + " is more than " + ctx.maxFuture() + " in the future");
        }
        if (s.ts() < now - ctx.maxPast().toMillis()) {
            throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE,
                "timestamp " + s.ts() + " is more than " + ctx.maxPast() + " in the past");
        }
        SampleContent.requireValues(s);
        SampleContent.requireFewValues(s);
        SampleContent.requireNonNegativeGauges(s);
    }
}
