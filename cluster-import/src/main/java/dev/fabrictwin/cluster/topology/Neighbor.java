package dev.fabrictwin.cluster.topology;

/**
 * One end's view of a link: {@code localDevice}'s port {@code localPort} sees {@code remoteDevice}'s port
 * {@code remotePort}. {@code speedBps} is NaN when the source does not say.
 */
public record Neighbor(String localDevice, String localPort, String remoteDevice, String remotePort, double speedBps) {

    public Neighbor {
        if (localDevice.isBlank() || localPort.isBlank() || remoteDevice.isBlank() || remotePort.isBlank()) {
            throw new IllegalArgumentException("a neighbour needs both devices and both ports: " + localDevice + "/"
                + localPort + " → " + remoteDevice + "/" + remotePort);
        }
    }

    String local() {
        return localDevice + "/" + localPort;
    }

    String remote() {
        return remoteDevice + "/" + remotePort;
    }
}
