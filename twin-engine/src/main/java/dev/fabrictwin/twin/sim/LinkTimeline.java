package dev.fabrictwin.twin.sim;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.fabrictwin.twin.model.LinkState;

/** Each directed link's piecewise-constant history: a new {@link LinkState} only when something changed. */
public final class LinkTimeline implements Serializable {

    private final List<List<LinkState>> states;

    LinkTimeline(final int directedLinks) {
        states = new ArrayList<>(directedLinks);
        for (int i = 0; i < directedLinks; i++) {
            states.add(new ArrayList<>());
        }
    }

    void append(final int directedLink, final LinkState state) {
        final List<LinkState> list = states.get(directedLink);
        if (!list.isEmpty()) {
            final LinkState last = list.get(list.size() - 1);
            if (last.sameAs(state)) {
                return;
            }
            if (last.start() == state.start()) {
                list.set(list.size() - 1, state);
                return;
            }
        }
        list.add(state);
    }

    /** Every state of a link, oldest first. */
    public List<LinkState> states(final int directedLink) {
        return Collections.unmodifiableList(states.get(directedLink));
    }

    /** The state in force at time t (the first state if t precedes it). */
    public LinkState at(final int directedLink, final double t) {
        final List<LinkState> list = states.get(directedLink);
        return list.get(indexIn(list, t));
    }

    /** Of the states in force during [t0, t1], the one with the most flows (the first if several tie). */
    public LinkState busiest(final int directedLink, final double t0, final double t1) {
        final List<LinkState> list = states.get(directedLink);
        LinkState best = list.get(indexIn(list, t0));
        for (int i = indexIn(list, t0) + 1; i < list.size() && list.get(i).start() < t1; i++) {
            if (list.get(i).flows() > best.flows()) {
                best = list.get(i);
            }
        }
        return best;
    }

    /** Index of the state in force at t. */
    int indexAt(final int directedLink, final double t) {
        return indexIn(states.get(directedLink), t);
    }

    private static int indexIn(final List<LinkState> list, final double t) {
        int lo = 0;
        int hi = list.size() - 1;
        while (lo < hi) {
            final int mid = (lo + hi + 1) >>> 1;
            if (list.get(mid).start() <= t) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * Drops states that ended before {@code t} (the one in force at t is kept), so a twin running in step
     * with telemetry for days holds only the recent past. Intervals before t can no longer be evaluated.
     */
    public void forgetBefore(final double t) {
        for (final List<LinkState> list : states) {
            final int keepFrom = list.isEmpty() ? 0 : indexIn(list, t);
            if (keepFrom > 0) {
                list.subList(0, keepFrom).clear();
            }
        }
    }

    public int linkCount() {
        return states.size();
    }
}
