package dev.fabrictwin.contract.sample;

import org.apache.kafka.common.errors.SerializationException;

/**
 * Input that cannot become a sample, with the reason class and a one-line explanation: the one exception of the codec,
 * the ingest formats' validation and {@code telemetry.samples}' serde. A Kafka {@link SerializationException}, so the
 * serde's deserializer can throw it to the analyzer's dead-letter handler, which reads its reason.
 */
public final class SampleFormatException extends SerializationException {

    private static final long serialVersionUID = 1L;

    private final RejectReason reason;

    public SampleFormatException(final RejectReason reason, final String message) {
        super(message);
        this.reason = reason;
    }

    public RejectReason reason() {
        return reason;
    }

    /** {@code code: message}, the form of the dead letter's {@code error} header. */
    public String describe() {
        return reason.code() + ": " + getMessage();
    }
}
