package dev.fabrictwin.twin.sim;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.twin.solver.RateAllocator;

/**
 * The links a flow class spreads over, one layer of its paths at a time (its source NICs, each hop's equal-cost
 * links, its destination NICs: docs/twin.md, "Flow classes"). Each bundle is one extra link of the allocator whose
 * capacity is {@code members × the least member's}: a class sends the same share over every member, so its slowest
 * member binds it. What a bundle carries is spread evenly back over its members when the links are recorded.
 * Bounded by the fabric: one bundle per distinct set of links, and classes of one job reuse them.
 */
final class Bundles implements Serializable {

    private final Map<String, Integer> bySet = new HashMap<>();
    private final List<int[]> members = new ArrayList<>();
    private final int firstId;

    Bundles(final int firstId) {
        this.firstId = firstId;
    }

    /** The allocator link standing for these directed links (added on first use). */
    int of(final int[] directedLinks, final RateAllocator allocator) {
        final int[] sorted = directedLinks.clone();
        Arrays.sort(sorted);
        return bySet.computeIfAbsent(Arrays.toString(sorted), k -> {
            final int id = allocator.addLink(capacity(sorted, allocator));
            if (id != firstId + members.size()) {
                throw new IllegalStateException("bundles must be the allocator's last links");
            }
            members.add(sorted);
            return id;
        });
    }

    int[] members(final int bundle) {
        return members.get(bundle - firstId);
    }

    int count() {
        return members.size();
    }

    /** The allocator link of the {@code i}-th bundle made. */
    int id(final int i) {
        return firstId + i;
    }

    private static double capacity(final int[] links, final RateAllocator allocator) {
        double least = Double.POSITIVE_INFINITY;
        for (final int l : links) {
            least = Math.min(least, allocator.capacity(l));
        }
        return links.length * least;
    }

    /** Each bundle's capacity from its members' (set first): members × the least of them. */
    void pushCapacities(final RateAllocator allocator) {
        for (int i = 0; i < members.size(); i++) {
            final double cap = capacity(members.get(i), allocator);
            if (cap != allocator.capacity(id(i))) {
                allocator.setCapacity(id(i), cap);
            }
        }
    }
}
