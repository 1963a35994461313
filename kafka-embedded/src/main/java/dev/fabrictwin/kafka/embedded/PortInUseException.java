package dev.fabrictwin.kafka.embedded;

/** The port asked for is already bound on 127.0.0.1; the message is one line a CLI can print as is. */
public final class PortInUseException extends IllegalStateException {

    private final int port;

    public PortInUseException(final int port) {
        super("port " + port + " on 127.0.0.1 is already in use; choose another port, or 0 for any free port");
        this.port = port;
    }

    public int port() {
        return port;
    }
}
