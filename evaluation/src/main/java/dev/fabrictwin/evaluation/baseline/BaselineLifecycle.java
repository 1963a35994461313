package dev.fabrictwin.evaluation.baseline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;

/**
 * OPEN / RESOLVED per alert id, counted in each port's own intervals (the baseline has no ticks: a rule sees
 * one port at a time, as a Prometheus rule sees one series). An alert opens when one port that feeds it
 * breaks its rule for {@code openAfter} consecutive intervals (a link alert: either end), and resolves when
 * every port that fed it has had {@code resolveAfter} consecutive clean intervals.
 * {@code firstSeen} is t0 of the first interval of the opening streak, {@code lastSeen} t1 of the last
 * interval that broke the rule (as the analyzer's lifecycle keeps it).
 */
final class BaselineLifecycle {

    private final int openAfter;
    private final int resolveAfter;
    private final Map<String, Track> tracks = new LinkedHashMap<>();
    /** Alert ids each port feeds, so a clean interval only visits its own tracks. */
    private final Map<PortRef, Set<String>> idsByPort = new HashMap<>();

    private static final class Track {
        Breach latest;
        boolean open;
        long firstSeen;
        long lastSeen;
        final Map<PortRef, End> ends = new LinkedHashMap<>();
    }

    /** One port's streak within one alert. */
    private static final class End {
        int streak;
        int clean;
        long streakStart;
    }

    BaselineLifecycle(final int openAfter, final int resolveAfter) {
        this.openAfter = openAfter;
        this.resolveAfter = resolveAfter;
    }

    /**
     * One interval [t0, t1] of {@code port}: the rules it broke ({@code breaches}, by alert id) and which rule
     * types the interval could judge at all ({@code judged}; a reset interval cannot judge counter rules, so
     * it neither extends nor breaks their streaks). Returns the alert records this produces.
     */
    List<Alert> onInterval(final PortRef port, final long t0, final long t1, final Map<String, Breach> breaches,
                           final Predicate<FaultType> judged) {
        final List<Alert> out = new ArrayList<>();
        for (final Breach b : breaches.values()) {
            final String id = b.id();
            final Track t = tracks.computeIfAbsent(id, k -> new Track());
            final End e = t.ends.computeIfAbsent(port, k -> new End());
            idsByPort.computeIfAbsent(port, k -> new LinkedHashSet<>()).add(id);
            if (e.streak == 0) {
                e.streakStart = t0;
            }
            e.streak++;
            e.clean = 0;
            t.latest = b;
            t.lastSeen = Math.max(t.lastSeen, t1);
            if (!t.open && e.streak >= openAfter) {
                t.open = true;
                t.firstSeen = e.streakStart;
                out.add(alert(id, t, Alert.State.OPEN));
            }
        }
        final Set<String> fed = idsByPort.get(port);
        if (fed == null) {
            return out;
        }
        for (final String id : List.copyOf(fed)) {
            final Track t = tracks.get(id);
            if (breaches.containsKey(id) || !judged.test(t.latest.type())) {
                continue;
            }
            final End e = t.ends.get(port);
            e.streak = 0;
            e.clean++;
            if (!t.open) {
                forget(id, t, port); // a streak that never opened leaves nothing behind
            } else if (t.ends.values().stream().allMatch(x -> x.clean >= resolveAfter)) {
                out.add(alert(id, t, Alert.State.RESOLVED));
                t.ends.keySet().forEach(p -> unindex(p, id));
                tracks.remove(id);
            }
        }
        return out;
    }

    private void forget(final String id, final Track t, final PortRef port) {
        t.ends.remove(port);
        unindex(port, id);
        if (t.ends.isEmpty()) {
            tracks.remove(id);
        }
    }

    private void unindex(final PortRef port, final String id) {
        final Set<String> ids = idsByPort.get(port);
        if (ids != null && ids.remove(id) && ids.isEmpty()) {
            idsByPort.remove(port);
        }
    }

    /** Ids of the alerts open now. */
    List<String> openIds() {
        return tracks.entrySet().stream().filter(e -> e.getValue().open).map(Map.Entry::getKey).toList();
    }

    private static Alert alert(final String id, final Track t, final Alert.State state) {
        final Breach b = t.latest;
        // static rules have no correlation: every alert is its own root cause, and no job is attributed
        return new Alert(id, b.type(), state, b.severity(), b.entity(), true, null, t.firstSeen, t.lastSeen,
            b.observed(), b.expected(), b.metric(), List.of(), b.summary());
    }
}
