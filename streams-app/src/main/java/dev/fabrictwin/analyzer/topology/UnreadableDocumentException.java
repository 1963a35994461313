package dev.fabrictwin.analyzer.topology;

/**
 * A topology or jobs document that is not one JSON object: the global store keeps the previous document for its key
 * and the processing handler counts and logs this one under {@link #REASON} (a global store's processor cannot
 * dead-letter: Kafka Streams refuses it).
 */
final class UnreadableDocumentException extends RuntimeException {

    /** The reason code in the dead letter's {@code error} header and the {@code fabric_records_rejected_total} tag. */
    static final String REASON = "bad_document";

    UnreadableDocumentException(final String storeName, final String detail) {
        super(storeName + ": " + detail, null, false, false);
    }
}
