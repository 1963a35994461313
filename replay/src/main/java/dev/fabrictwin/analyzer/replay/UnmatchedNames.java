package dev.fabrictwin.analyzer.replay;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.fabrictwin.twin.fabric.PortNames;

/**
 * The sampled ports of a capture whose names meet no topology port, by reason, as {@code analyze} counts them
 * ({@code fabric.names.unmatched}): each distinct name resolved once, the first few kept to show. Memory is bounded
 * ({@value #MAX_NAMES} distinct names remembered; past that, new names are still resolved and counted per sample
 * rather than per port, which can only overstate).
 */
final class UnmatchedNames {

    static final int MAX_NAMES = 100_000;
    static final int EXAMPLES = 5;

    private final PortNames.Resolver resolver;
    private final Set<String> seen = new HashSet<>();
    private final Map<String, Long> counts = new TreeMap<>();
    private final List<String> examples = new ArrayList<>();

    UnmatchedNames(final PortNames.Resolver resolver) {
        this.resolver = resolver;
    }

    /** A sample of {@code device}/{@code port}; either null is a malformed sample the analyzer dead-letters, not a name. */
    void see(final String device, final String port) {
        if (device == null || port == null) {
            return;
        }
        final String name = device + "/" + port;
        if (seen.size() < MAX_NAMES ? !seen.add(name) : seen.contains(name)) {
            return;
        }
        final PortNames.Resolution r = resolver.resolve(device, port);
        if (!r.matched()) {
            counts.merge(r.reason(), 1L, Long::sum);
            if (examples.size() < EXAMPLES) {
                examples.add(name + " (" + r.reason() + ")");
            }
        }
    }

    Map<String, Long> counts() {
        return counts;
    }

    List<String> examples() {
        return examples;
    }
}
