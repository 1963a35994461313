package dev.fabrictwin.contract.sample;

import org.apache.kafka.common.errors.SerializationException;

import dev.fabrictwin.twin.telemetry.SampleFormatException;

/** A {@code telemetry.samples} record that is not one canonical sample; its cause says why (reason and message). */
public final class InvalidSampleException extends SerializationException {

    private static final long serialVersionUID = 1L;

    public InvalidSampleException(final SampleFormatException cause) {
        super(cause.describe(), cause);
    }

    /** Why the record was rejected: the reason code and message a dead letter carries. */
    public SampleFormatException reason() {
        return (SampleFormatException) getCause();
    }
}
