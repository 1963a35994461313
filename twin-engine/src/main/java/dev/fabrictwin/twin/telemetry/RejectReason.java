package dev.fabrictwin.twin.telemetry;

import java.util.Locale;

/** Why an input record was not turned into samples; the dead letter's {@code error} header starts with its code. */
public enum RejectReason {
    MALFORMED, MISSING_DEVICE, MISSING_PORT, MISSING_TIMESTAMP, NEGATIVE_COUNTER, NEGATIVE_GAUGE, NON_NUMERIC,
    NOT_FINITE, TIMESTAMP_OUT_OF_RANGE, OVERSIZED, NO_COUNTERS,
    /** A device, port, source, counter or gauge name longer than {@link SampleNames#MAX_LENGTH} characters. */
    NAME_TOO_LONG;

    /** Lower-case, dash-separated code used in headers, metrics and summaries: {@code negative-counter}. */
    public String code() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
