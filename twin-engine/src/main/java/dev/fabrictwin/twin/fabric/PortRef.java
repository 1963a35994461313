package dev.fabrictwin.twin.fabric;

import java.io.Serializable;
import java.util.Objects;

/** A port named as telemetry names it: device and port name, e.g. {@code leaf-2/eth5} or {@code host-3/nic0}. */
public record PortRef(String device, String port) implements Comparable<PortRef>, Serializable {
    public PortRef {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(port, "port");
    }

    /**
     * Both names' hashes, mixed: the record's default {@code 31·h(device) + h(port)} collides across names like
     * {@code leaf-12/eth3} and {@code host-7/nic0}, so large fabrics' port maps fall into long, treeified bins.
     * The strings cache their hashes, so this costs a few multiplications.
     */
    @Override
    public int hashCode() {
        long h = device.hashCode() * 0x9E3779B97F4A7C15L + port.hashCode();
        h = (h ^ (h >>> 32)) * 0xD6E8FEB86659FD93L;
        return (int) (h ^ (h >>> 32));
    }

    /**
     * The names' hash as a record computes it by default ({@code 31·h(device) + h(port)}): what ECMP flow keys are
     * drawn from, so flows keep the paths they always had whatever {@link #hashCode} does.
     */
    public int nameHash() {
        return 31 * device.hashCode() + port.hashCode();
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
