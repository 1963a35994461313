package dev.fabrictwin.contract.alert;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

import dev.fabrictwin.twin.fault.FaultType;

/**
 * An alert as {@code fabric.alerts} carries it (docs/contracts.md, every field a contract). {@code id} is stable
 * for a type and entity, so OPEN, its UPDATEs and RESOLVED share one key.
 */
public record Alert(String id, FaultType type, State state, Severity severity, Entity entity, boolean rootCause,
                    String causedBy, long firstSeen, long lastSeen, double observed, double expected, String metric,
                    List<String> affectedJobs, String summary) implements Serializable {

    public enum State { OPEN, UPDATE, RESOLVED }

    public Alert {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(entity, "entity");
        affectedJobs = List.copyOf(affectedJobs);
    }

    public static String id(final FaultType type, final Entity entity) {
        return type.name() + ":" + entity.key();
    }
}
