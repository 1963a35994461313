package dev.fabrictwin.analyzer.topology;

import dev.fabrictwin.twin.telemetry.Sample;

/**
 * A value of the rates stage's store ({@link RatesStage#LAST_SAMPLE_STORE}): a port's sample and the number of the
 * lane batch its interval went into, or waits in; or, without a sample, the number of the last batch sent (the
 * partition's mark). A restarted task tells an interval still to send from one sent by the two numbers.
 */
record HeldSample(Sample sample, long batch) {

    /** The batch of a sample stored before batches were numbered: judged by the older rule (its key and time). */
    static final long UNNUMBERED = Long.MIN_VALUE;

    /** The partition's mark: every batch up to {@code batch} was sent. */
    static HeldSample sentThrough(final long batch) {
        return new HeldSample(null, batch);
    }

    boolean isMark() {
        return sample == null;
    }
}
