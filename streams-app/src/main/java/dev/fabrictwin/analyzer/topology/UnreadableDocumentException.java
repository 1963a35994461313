package dev.fabrictwin.analyzer.topology;

/**
 * A topology or jobs document that is not one JSON object: the global store keeps the previous document for its key
 * and the dead-letter handler sends this one to the dead letter topic under {@link #REASON}.
 */
final class UnreadableDocumentException extends RuntimeException {

    /** The reason code in the dead letter's {@code error} header and the {@code fabric_records_rejected_total} tag. */
    static final String REASON = "bad_document";

    UnreadableDocumentException(final String storeName, final String detail) {
        super(storeName + ": " + detail, null, false, false);
    }
}
