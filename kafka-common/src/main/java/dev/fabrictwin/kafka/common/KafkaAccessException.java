package dev.fabrictwin.kafka.common;

/**
 * Kafka cannot be used as configured: unreachable, a security protocol or credential mismatch, or a missing ACL. The
 * message is one line naming the broker or resource and the likely fix, so a command prints it as is and exits 1.
 */
public final class KafkaAccessException extends IllegalStateException {

    public KafkaAccessException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
