package dev.fabrictwin.twin.scenario;

/** A scenario file the user must fix; the message is one line naming the field. */
public final class ScenarioException extends IllegalArgumentException {

    public ScenarioException(final String message) {
        super(message);
    }
}
