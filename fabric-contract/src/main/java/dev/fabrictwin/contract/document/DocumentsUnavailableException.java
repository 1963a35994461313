package dev.fabrictwin.contract.document;

/**
 * The published documents cannot be had: a topic the brokers do not have, one not read to its end in time, no
 * topology document (for that fabric), or one the twin cannot use. Its message is one line naming the topic and what
 * to do.
 */
public final class DocumentsUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    DocumentsUnavailableException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
