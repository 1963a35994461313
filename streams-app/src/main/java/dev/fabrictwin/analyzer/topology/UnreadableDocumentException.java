package dev.fabrictwin.analyzer.topology;

/**
 * A topology or jobs document that is not one JSON object: the global store keeps the previous document for its key
 * and the processing handler counts and logs this one under {@code RejectReason.BAD_DOCUMENT} (a global store's processor cannot
 * dead-letter: Kafka Streams refuses it).
 */
final class UnreadableDocumentException extends RuntimeException {

    UnreadableDocumentException(final String storeName, final String detail) {
        super(storeName + ": " + detail, null, false, false);
    }
}
