package dev.fabrictwin.twin.sim;

import java.io.Serializable;

/** An event of the simulation: its time, its order among events of the same time, what it does and on what. */
record Event(double time, long sequence, EventKind kind, int ref) implements Comparable<Event>, Serializable {
    @Override
    public int compareTo(final Event o) {
        final int c = Double.compare(time, o.time);
        return c != 0 ? c : Long.compare(sequence, o.sequence);
    }
}
