package dev.fabrictwin.twin.sim;

import java.io.Serializable;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.solver.RateAllocator;

/**
 * The links as every per-solve part sees them: the fabric, each directed link's nominal capacity and the headers'
 * share of the wire, the conditions faults set, the allocator (and its bundles) that shares them, the routes on them.
 */
final class LinkModel implements Serializable {

    final Fabric fabric;
    final ModelParams params;
    final Conditions conditions;
    final RateAllocator allocator;
    /** The allocator's links past the fabric's: the layers flow classes spread over. */
    final Bundles bundles;
    final RouteTable table;
    /** Per directed link: its line rate (wire bits per second). */
    final double[] nominalCapacity;
    /** Wire bits per payload bit: the packets' headers (docs/twin.md). */
    final double wire;

    LinkModel(final Fabric fabric, final ModelParams params, final Conditions conditions, final RateAllocator allocator,
              final Bundles bundles, final RouteTable table, final double[] nominalCapacity, final double wire) {
        this.fabric = fabric;
        this.params = params;
        this.conditions = conditions;
        this.allocator = allocator;
        this.bundles = bundles;
        this.table = table;
        this.nominalCapacity = nominalCapacity;
        this.wire = wire;
    }
}
