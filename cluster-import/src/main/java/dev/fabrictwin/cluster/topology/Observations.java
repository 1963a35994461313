package dev.fabrictwin.cluster.topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything the sources said: the neighbours, which devices reported a table of their own, and what the sources
 * know of a device's role (an InfiniBand CA is a host; an LLDP chassis advertising only the Station capability is a
 * host, one with Bridge or Router enabled a switch).
 */
public final class Observations {

    /** What a source says a device is. */
    public enum Kind { HOST, SWITCH }

    private final List<Neighbor> neighbors = new ArrayList<>();
    private final Set<String> reporters = new LinkedHashSet<>();
    private final Map<String, Kind> kinds = new LinkedHashMap<>();

    public void add(final Neighbor n) {
        neighbors.add(n);
    }

    public void reported(final String device) {
        reporters.add(device);
    }

    public void kind(final String device, final Kind kind) {
        kinds.putIfAbsent(device, kind);
    }

    public void addAll(final Observations other) {
        neighbors.addAll(other.neighbors);
        reporters.addAll(other.reporters);
        other.kinds.forEach(kinds::putIfAbsent);
    }

    public List<Neighbor> neighbors() {
        return List.copyOf(neighbors);
    }

    public Set<String> reporters() {
        return Set.copyOf(reporters);
    }

    public Map<String, Kind> kinds() {
        return Map.copyOf(kinds);
    }
}
