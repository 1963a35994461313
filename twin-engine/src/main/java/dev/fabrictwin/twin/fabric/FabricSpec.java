package dev.fabrictwin.twin.fabric;

import java.util.Locale;

/**
 * The scenario's {@code fabric:} block: parameters for one of the generated fabric kinds. Names and port
 * numbering are part of the contract (docs/contracts.md, docs/twin.md): hosts {@code host-<i>} with NIC ports
 * {@code nic<k>}, switches {@code leaf-<i>}, {@code spine-<i>}, {@code core-<i>} with ports {@code eth<n>}.
 */
public sealed interface FabricSpec permits SpineLeaf, FatTree, RailOptimized, FabricFileSpec,
    FabricDocumentSpec {

    Technology technology();

    /** Builds the fabric; {@code id} names it (the scenario name). */
    Fabric build(String id);

    /** Number of hosts the fabric will have. */
    int hostCount();

    /** Number of links the fabric will have, known before building it (so a fabric too large is refused first). */
    long linkCount();

    /** The most links a scenario's fabric may have: 4× a 100k-GPU fabric's. A larger spec is a typo, not a plan. */
    long MAX_LINKS = 1_000_000;

    /** Refuses a spec whose fabric would exceed {@link #MAX_LINKS}, before anything is built. */
    static void requireBuildable(final FabricSpec spec) {
        if (spec.linkCount() > MAX_LINKS) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                "fabric too large: %,d links (at most %,d, about a 400k-GPU fabric)", spec.linkCount(), MAX_LINKS));
        }
    }

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
