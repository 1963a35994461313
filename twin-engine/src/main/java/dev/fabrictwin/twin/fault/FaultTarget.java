package dev.fabrictwin.twin.fault;

/**
 * What a fault hits, as docs/contracts.md names targets: a port {@code {device, port}}, a link {@code {device, peer}}
 * (every parallel link between the two unless a port is also given), a device or its ECMP group
 * {@code {device}}, or a job {@code {job}}. Unused fields are null.
 */
public record FaultTarget(String device, String port, String peer, String job) {

    public enum Kind { PORT, LINK, DEVICE, JOB }

    public FaultTarget {
        if (job == null && device == null) {
            throw new IllegalArgumentException("fault target needs 'device' (with 'port' or 'peer') or 'job'");
        }
    }

    public static FaultTarget port(final String device, final String port) {
        return new FaultTarget(device, port, null, null);
    }

    public static FaultTarget link(final String device, final String peer) {
        return new FaultTarget(device, null, peer, null);
    }

    public static FaultTarget device(final String device) {
        return new FaultTarget(device, null, null, null);
    }

    public Kind kind() {
        if (job != null) {
            return Kind.JOB;
        }
        if (peer != null) {
            return Kind.LINK;
        }
        return port != null ? Kind.PORT : Kind.DEVICE;
    }

    @Override
    public String toString() {
        return switch (kind()) {
            case JOB -> "job " + job;
            case LINK -> device + "~" + peer + (port == null ? "" : " (" + port + ")");
            case PORT -> device + "/" + port;
            case DEVICE -> device;
        };
    }
}
