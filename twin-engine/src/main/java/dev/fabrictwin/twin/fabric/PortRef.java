package dev.fabrictwin.twin.fabric;

import java.io.Serializable;
import java.util.Objects;

/** A port named as telemetry names it: device and port name, e.g. {@code leaf-2/eth5} or {@code host-3/nic0}. */
public record PortRef(String device, String port) implements Comparable<PortRef>, Serializable {
    public PortRef {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(port, "port");
    }

    @Override
    public int compareTo(final PortRef o) {
        final int d = NaturalOrder.compare(device, o.device);
        return d != 0 ? d : NaturalOrder.compare(port, o.port);
    }

    @Override
    public String toString() {
        return device + "/" + port;
    }
}
