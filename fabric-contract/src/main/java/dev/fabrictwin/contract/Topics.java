package dev.fabrictwin.contract;

import java.util.List;
import java.util.Objects;

/**
 * The Kafka topic names (DESIGN §3, a contract) under an optional prefix ({@code --topic-prefix lab.} gives
 * {@code lab.telemetry.samples}). One place for every name, so no module spells a topic itself.
 */
public record Topics(String prefix) {

    public static final Topics DEFAULT = new Topics("");

    public Topics {
        Objects.requireNonNull(prefix, "prefix");
        if (!prefix.matches("[A-Za-z0-9._-]*")) {
            throw new IllegalArgumentException("topic prefix may use letters, digits, '.', '_' and '-' only, was '" + prefix + "'");
        }
    }

    public String topology() {
        return prefix + "fabric.topology";
    }

    public String jobs() {
        return prefix + "fabric.jobs";
    }

    public String samples() {
        return prefix + "telemetry.samples";
    }

    public String deadLetter() {
        return prefix + "telemetry.deadletter";
    }

    public String alerts() {
        return prefix + "fabric.alerts";
    }

    public String jobHealth() {
        return prefix + "fabric.job-health";
    }

    public String truth() {
        return prefix + "sim.truth";
    }

    /** Topics that hold the latest value per key (topology, jobs with tombstones). */
    public List<String> compacted() {
        return List.of(topology(), jobs());
    }

    public List<String> all() {
        return List.of(topology(), jobs(), samples(), deadLetter(), alerts(), jobHealth(), truth());
    }
}
