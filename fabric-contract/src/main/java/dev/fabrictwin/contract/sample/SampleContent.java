package dev.fabrictwin.contract.sample;

import java.time.Instant;

import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * What a sample must carry to be telemetry, whoever reads it: ingest's validator (every format) and the analyzer,
 * which reads {@code telemetry.samples} as any producer wrote it. One rule, one reason and one message each, so the
 * same sample gets the same verdict on either side: a timestamp in epoch milliseconds, at least
 * one counter or gauge, at most {@link #MAX_VALUES} of each, and no canonical gauge below zero.
 */
public final class SampleContent {

    /**
     * No telemetry is older than this, whatever the time window (a capture replayed without one included): a
     * timestamp before it is seconds, a counter or garbage where epoch milliseconds belong ({@code ts} 1 or 1000).
     */
    public static final Instant EARLIEST = Instant.parse("2000-01-01T00:00:00Z");
    private static final long EARLIEST_MS = EARLIEST.toEpochMilli();
    /**
     * Counters, and gauges, one sample may carry: far above any device's (a switch port's per-queue and per-priority
     * statistics run to hundreds) and below what the analyzer's binary forms count in 16 bits; a 1 MiB record of short
     * names could otherwise carry 150,000.
     */
    public static final int MAX_VALUES = 16_384;

    private SampleContent() {
    }

    /** TIMESTAMP_OUT_OF_RANGE for a timestamp before {@link #EARLIEST}: not epoch milliseconds. */
    public static void requireEpochMillis(final Sample s) throws SampleFormatException {
        if (s.ts() < EARLIEST_MS) {
            throw new SampleFormatException(RejectReason.TIMESTAMP_OUT_OF_RANGE, "timestamp " + s.ts() + " ("
                + Instant.ofEpochMilli(s.ts()) + ") is before " + EARLIEST + ": not epoch milliseconds");
        }
    }

    /** NO_COUNTERS for a sample with neither counters nor gauges (a port's state only: nothing to measure). */
    public static void requireValues(final Sample s) throws SampleFormatException {
        if (s.counters().isEmpty() && s.gauges().isEmpty()) {
            throw new SampleFormatException(RejectReason.NO_COUNTERS, "sample for " + s.device() + "/" + s.port()
                + " carries no counters or gauges");
        }
    }

    /** OVERSIZED for a sample of more than {@link #MAX_VALUES} counters, or gauges. */
    public static void requireFewValues(final Sample s) throws SampleFormatException {
        final int most = Math.max(s.counters().size(), s.gauges().size());
        if (most > MAX_VALUES) {
            throw new SampleFormatException(RejectReason.OVERSIZED, "sample for " + s.device() + "/" + s.port()
                + " carries " + s.counters().size() + " counters and " + s.gauges().size() + " gauges: more than the "
                + MAX_VALUES + " of each a sample may carry");
        }
    }

    /** NEGATIVE_GAUGE for a canonical gauge below zero: a broken reading, not a queue or a latency. */
    public static void requireNonNegativeGauges(final Sample s) throws SampleFormatException {
        final String negative = CounterNames.negativeGauge(s.gauges());
        if (negative != null) {
            throw new SampleFormatException(RejectReason.NEGATIVE_GAUGE, "gauge " + negative + " of " + s.device() + "/"
                + s.port() + " is " + s.gauges().get(negative) + ": it cannot be below zero");
        }
    }
}
