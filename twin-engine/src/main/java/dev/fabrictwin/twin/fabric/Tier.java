package dev.fabrictwin.twin.fabric;

import java.util.Locale;

/** Where a node sits in the Clos: hosts at the bottom, then leaf (edge/ToR), spine (aggregation), core. */
public enum Tier {
    HOST, LEAF, SPINE, CORE;

    /** Lower-case name used in metrics tags and files. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
