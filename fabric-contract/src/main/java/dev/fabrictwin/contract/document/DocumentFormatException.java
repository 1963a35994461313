package dev.fabrictwin.contract.document;

import dev.fabrictwin.contract.sample.RejectReason;

/** A topology or jobs document that is not one JSON object: refused, under {@link RejectReason#BAD_DOCUMENT}. */
public final class DocumentFormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    DocumentFormatException(final String detail) {
        super(detail);
    }

    public RejectReason reason() {
        return RejectReason.BAD_DOCUMENT;
    }
}
