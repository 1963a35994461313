package dev.fabrictwin.contract.sample;

import java.util.Locale;

/**
 * Why a record was rejected or not analyzed: the one spelling of a reason in dead-letter headers (the {@code error}
 * header of a sample starts with its code), the {@code reason} metric tag and the ingest summary.
 */
public enum RejectReason {
    MALFORMED, MISSING_DEVICE, MISSING_PORT, MISSING_TIMESTAMP, NEGATIVE_COUNTER, NEGATIVE_GAUGE, NON_NUMERIC,
    NOT_FINITE, TIMESTAMP_OUT_OF_RANGE, OVERSIZED, NO_COUNTERS,
    /** A device, port, source, counter or gauge name longer than {@link SampleNames#MAX_LENGTH} characters. */
    NAME_TOO_LONG,
    /** An interval arrived before any usable topology: not analyzed. */
    NO_TOPOLOGY,
    /** A topology or jobs document that cannot be read (or refers to what the topology lacks): refused. */
    BAD_DOCUMENT,
    /** An interval ending no later than its port's last, delivered again by an upstream retry: dropped. */
    DUPLICATE_INTERVAL,
    /** A sample whose device meets no topology device, even through the topology's names: counted, not analyzed. */
    UNKNOWN_DEVICE,
    /** A sample whose port meets no port of its topology device: counted, not analyzed. */
    UNKNOWN_PORT,
    /** A record some other serde could not read (an alert, a job health, …). */
    DESERIALIZATION,
    /** A processor threw on a record. */
    PROCESSING;

    /** Lower-case, dash-separated code used in headers, metrics and summaries: {@code negative-counter}. */
    public String code() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
