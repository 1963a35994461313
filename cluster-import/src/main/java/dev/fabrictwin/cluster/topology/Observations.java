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
    private final List<String> skipped = new ArrayList<>();

    public void add(final Neighbor n) {
        neighbors.add(n);
    }

    public void reported(final String device) {
        reporters.add(device);
    }

    public void kind(final String device, final Kind kind) {
        kinds.putIfAbsent(device, kind);
    }

    /** What a source held and the import did not use, with why: listed in the report, never dropped silently. */
    public void skipped(final String what) {
        skipped.add(what);
    }

    public void addAll(final Observations other) {
        neighbors.addAll(other.neighbors);
        skipped.addAll(other.skipped);
        reporters.addAll(other.reporters);
        other.kinds.forEach(kinds::putIfAbsent);
    }

    public List<Neighbor> neighbors() {
        return List.copyOf(neighbors);
    }

    public Set<String> reporters() {
        return Set.copyOf(reporters);
    }

    public List<String> skipped() {
        return List.copyOf(skipped);
    }

    public Map<String, Kind> kinds() {
        return Map.copyOf(kinds);
    }
}
