package dev.fabrictwin.cli;

/** Input the user can fix (a bad file, an impossible value): reported in one line, exit code 2. */
public final class UsageException extends RuntimeException {

    public UsageException(final String message) {
        super(message);
    }
}
