package dev.fabrictwin.kafka.common;

import java.util.Optional;

import org.apache.kafka.common.errors.AuthorizationException;

/**
 * Causes that retrying cannot cure, found anywhere in a failure's cause chain however Kafka, Kafka Streams or RocksDB
 * wrapped them: a refusal by the broker's ACLs, a full disk. A command says them in one line and stops instead of
 * replacing threads that fail the same way.
 */
public final class FailureCauses {

    /** What the JDK (strerror of ENOSPC) and RocksDB ("IO error: No space left on device…") say of a full disk. */
    static final String NO_SPACE = "No space left on device";

    private FailureCauses() {
    }

    /** The first refusal by the broker's ACLs in {@code e}'s cause chain. */
    public static Optional<AuthorizationException> authorization(final Throwable e) {
        for (Throwable t = e; t != null; t = next(t)) {
            if (t instanceof AuthorizationException a) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    /**
     * One line when {@code e}'s cause chain says the disk is full: naming {@code where} (the state directory, or the
     * file written) and the innermost message that says so, which names the file.
     */
    public static Optional<String> diskFull(final Throwable e, final String where) {
        String said = null;
        for (Throwable t = e; t != null; t = next(t)) {
            if (t.getMessage() != null && t.getMessage().contains(NO_SPACE)) {
                said = t.getMessage();
            }
        }
        return Optional.ofNullable(said).map(m -> "disk full: " + where + " has no space left (" + m.strip()
            + "): free space there or move it to a larger disk");
    }

    private static Throwable next(final Throwable t) {
        return t.getCause() == t ? null : t.getCause();
    }
}
