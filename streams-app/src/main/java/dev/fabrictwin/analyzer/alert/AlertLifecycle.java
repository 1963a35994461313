package dev.fabrictwin.analyzer.alert;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.contract.alert.Alert;

/**
 * OPEN after {@code k} consecutive ticks with a finding, UPDATE at most every {@code m} ticks while it lasts
 * (and when it changes from victim to root cause or back), RESOLVED after {@code r} consecutive clean ticks.
 * A victim opens only while the alert it is caused by is open. Times are event time and claim no more than the
 * telemetry shows: {@code firstSeen} is the start of the first tick of the streak that opened it, or the start of the
 * earliest interval behind the finding in that tick when later (ticks are labelled on a grid, polls come at each
 * device's own phase: an interval can start well after its tick's label); {@code lastSeen} likewise the end of the
 * last tick it was seen, or the end of the latest interval behind it when earlier.
 */
final class AlertLifecycle implements Serializable {

    private final int openAfter;
    private final int updateEvery;
    private final int resolveAfter;
    private final Map<String, Track> tracks = new LinkedHashMap<>();

    /** One alert's progress (public for the state store's codec). */
    public static final class Track implements Serializable {
        Correlated latest;
        long firstSeen;
        long lastSeen;
        int streak;
        int clean;
        boolean open;
        long lastPublishedTick;
    }

    public AlertLifecycle(final int openAfter, final int updateEvery, final int resolveAfter) {
        this.openAfter = openAfter;
        this.updateEvery = updateEvery;
        this.resolveAfter = resolveAfter;
    }

    /**
     * Re-opens an alert published before a restart (from the processor's state store), so it is neither opened
     * twice nor left unresolved.
     */
    public void restore(final Alert alert, final long tick) {
        final Track t = tracks.computeIfAbsent(alert.id(), id -> new Track());
        final Finding f = new Finding(alert.type(), alert.entity(),
            alert.rootCause(), null, alert.metric(), alert.observed(), alert.expected(),
            alert.severity(), alert.summary(), null);
        t.latest = new Correlated(alert.id(), f, alert.rootCause(), alert.causedBy(), alert.affectedJobs());
        t.firstSeen = alert.firstSeen();
        t.lastSeen = alert.lastSeen();
        t.open = true;
        t.lastPublishedTick = tick;
    }

    /** Root-cause alerts open now, by id (the correlator attaches victims to them). */
    public Map<String, Finding> openRoots() {
        final Map<String, Finding> out = new LinkedHashMap<>();
        tracks.forEach((id, t) -> {
            if (t.open && t.latest.rootCause()) {
                out.put(id, t.latest.finding());
            }
        });
        return out;
    }

    /** Every open alert's latest form. */
    public List<Alert> openAlerts() {
        final List<Alert> out = new ArrayList<>();
        tracks.values().stream().filter(t -> t.open).forEach(t -> out.add(alert(t, Alert.State.UPDATE)));
        return out;
    }

    /** Advances one tick with its correlated findings; returns the alert records to publish. */
    public List<Alert> onTick(final long tick, final long startMs, final long endMs, final List<Correlated> findings) {
        final List<Alert> out = new ArrayList<>();
        final Set<String> seen = new HashSet<>();
        final Set<String> openIds = new HashSet<>();
        tracks.forEach((id, t) -> {
            if (t.open) {
                openIds.add(id);
            }
        });
        for (final Correlated c : findings) {
            seen.add(c.id());
            final Track t = tracks.computeIfAbsent(c.id(), id -> new Track());
            final boolean roleChanged = t.latest != null && t.latest.rootCause() != c.rootCause();
            final Finding.Evidence evidence = c.finding().evidence();
            if (t.streak == 0 && !t.open) {
                t.firstSeen = evidence == null ? startMs : Math.max(startMs, Math.min(evidence.fromMs(), endMs));
            }
            t.latest = c;
            t.lastSeen = evidence == null ? endMs : Math.max(t.firstSeen, Math.min(endMs, evidence.toMs()));
            t.streak++;
            t.clean = 0;
            // roots come first in a tick's findings, so a cause opened this tick is already in openIds
            final boolean causeOpen = c.rootCause() || openIds.contains(c.causedBy());
            if (!t.open && t.streak >= openAfter && causeOpen) {
                t.open = true;
                t.lastPublishedTick = tick;
                openIds.add(c.id());
                out.add(alert(t, Alert.State.OPEN));
            } else if (t.open && (roleChanged || tick - t.lastPublishedTick >= updateEvery)) {
                t.lastPublishedTick = tick;
                out.add(alert(t, Alert.State.UPDATE));
            }
        }
        for (final Iterator<Map.Entry<String, Track>> it = tracks.entrySet().iterator(); it.hasNext();) {
            final Map.Entry<String, Track> e = it.next();
            final Track t = e.getValue();
            if (seen.contains(e.getKey())) {
                continue;
            }
            t.streak = 0;
            if (!t.open) {
                it.remove();
                continue;
            }
            if (++t.clean >= resolveAfter) {
                out.add(alert(t, Alert.State.RESOLVED));
                it.remove();
            }
        }
        return out;
    }

    private static Alert alert(final Track t, final Alert.State state) {
        final Finding f = t.latest.finding();
        return new Alert(t.latest.id(), f.type(), state, f.severity(), f.entity(), t.latest.rootCause(),
            t.latest.causedBy(), t.firstSeen, t.lastSeen, f.observed(), f.expected(), f.metric(),
            t.latest.affectedJobs(), f.summary());
    }

    /** Snapshot for tests and metrics: id → open. */
    public Map<String, Boolean> states() {
        final Map<String, Boolean> out = new HashMap<>();
        tracks.forEach((id, t) -> out.put(id, t.open));
        return out;
    }
}
