package dev.fabrictwin.twin.telemetry;

/** Input that cannot become a sample, with the reason class and a one-line explanation. */
public final class SampleFormatException extends Exception {

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
