package dev.fabrictwin.analyzer.alert;

import java.util.List;

import dev.fabrictwin.analyzer.detect.Entity;

/**
 * An alert as {@code fabric.alerts} carries it (DESIGN §3, every field a contract). {@code id} is stable for
 * a type and entity, so OPEN, its UPDATEs and RESOLVED share one key.
 */
public record Alert(String id, String type, State state, String severity, Entity entity, boolean rootCause,
                    String causedBy, long firstSeen, long lastSeen, double observed, double expected, String metric,
                    List<String> affectedJobs, String summary) {

    public enum State { OPEN, UPDATE, RESOLVED }

    public Alert {
        affectedJobs = List.copyOf(affectedJobs);
    }

    public static String id(final String type, final Entity entity) {
        return type + ":" + entity.key();
    }
}
