package dev.fabrictwin.cli.eval.baseline;

import dev.fabrictwin.analyzer.alert.Alert;
import dev.fabrictwin.analyzer.detect.Entity;
import dev.fabrictwin.twin.fault.FaultType;

/**
 * One rule broken by one port in one interval: what the alert it feeds will say.
 *
 * @param metric   short name of what was measured, e.g. {@code tx_pfc_pause/s}
 * @param observed the measured value
 * @param expected the threshold it crossed
 */
record Breach(FaultType type, Entity entity, String metric, double observed, double expected, String severity,
              String summary) {

    static final String WARNING = "WARNING";
    static final String CRITICAL = "CRITICAL";

    String id() {
        return Alert.id(type.name(), entity);
    }

    /** Whether the rule reads counter increases (so a reset interval, whose increases mean nothing, cannot judge it). */
    static boolean countsBased(final FaultType type) {
        return type != FaultType.LINK_DOWN && type != FaultType.LATENCY_SLO;
    }
}
