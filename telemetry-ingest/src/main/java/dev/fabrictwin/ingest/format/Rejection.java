package dev.fabrictwin.ingest.format;

import java.util.Objects;

import dev.fabrictwin.contract.sample.RejectReason;


/**
 * An input unit that could not become samples: its raw bytes as received (capped for oversized input), the
 * reason, a one-line message, and where it was (byte offset or line number, as {@code location}).
 */
public record Rejection(byte[] raw, RejectReason reason, String message, String format, String location) {
    public Rejection {
        Objects.requireNonNull(raw, "raw");
        Objects.requireNonNull(reason, "reason");
        message = message == null ? "" : message.replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }

    /** The dead letter's {@code error} header: {@code reason-code: message}. */
    public String error() {
        return reason.code() + ": " + message;
    }
}
