package dev.fabrictwin.twin.sim;

import java.io.Serializable;
import java.util.PriorityQueue;
import java.util.function.Predicate;

/** The simulation's pending events in time order; events of the same instant in the order they were scheduled. */
final class EventQueue implements Serializable {

    /** Events this close to now are due now. */
    static final double EPS_SECONDS = 1e-9;

    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private long sequence;

    /** Schedules an event; its sequence number (what a pin waiting for it is filed under). */
    long schedule(final double time, final EventKind kind, final int ref) {
        events.add(new Event(time, sequence, kind, ref));
        return sequence++;
    }

    /** When the next event is due (infinite: none is pending). */
    double nextTime() {
        return events.isEmpty() ? Double.POSITIVE_INFINITY : events.peek().time();
    }

    /** The next event due by now, taken off the queue, or null. */
    Event pollDue(final double now) {
        return !events.isEmpty() && events.peek().time() <= now + EPS_SECONDS ? events.poll() : null;
    }

    void cancel(final Predicate<Event> which) {
        events.removeIf(which);
    }

    /** When the earliest pending event of this kind on this ref is due, or NaN if none is pending. */
    double earliest(final EventKind kind, final int ref) {
        return events.stream().filter(e -> e.kind() == kind && e.ref() == ref)
            .mapToDouble(Event::time).min().orElse(Double.NaN);
    }
}
