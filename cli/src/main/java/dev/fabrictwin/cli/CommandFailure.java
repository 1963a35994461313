package dev.fabrictwin.cli;

/** A failure the command has already said in one line (its cause and fix): printed as is, exit code 1. */
final class CommandFailure extends RuntimeException {

    CommandFailure(final String message, final Throwable cause) {
        super(message, cause);
    }
}
