package dev.fabrictwin.twin.fabric;

/**
 * The scenario's {@code fabric:} block: parameters for one of the generated fabric kinds. Names and port
 * numbering are part of the contract (docs/contracts.md, docs/twin.md): hosts {@code host-<i>} with NIC ports
 * {@code nic<k>}, switches {@code leaf-<i>}, {@code spine-<i>}, {@code core-<i>} with ports {@code eth<n>}.
 */
public sealed interface FabricSpec permits SpineLeaf, FatTree, RailOptimized, FabricFileSpec {

    Technology technology();

    /** Builds the fabric; {@code id} names it (the scenario name). */
    Fabric build(String id);

    /** Number of hosts the fabric will have. */
    int hostCount();

    static void requirePositive(final String what, final int value) {
        if (value <= 0) {
            throw new IllegalArgumentException("fabric " + what + " must be > 0, was " + value);
        }
    }

    static void requirePositive(final String what, final double value) {
        if (!(value > 0)) {
            throw new IllegalArgumentException("fabric " + what + " must be > 0, was " + value);
        }
    }
}
