package dev.fabrictwin.evaluation.baseline;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fault.FaultType;

/**
 * One rule broken by one port in one interval: what the alert it feeds will say.
 *
 * @param metric   short name of what was measured, e.g. {@code tx_pfc_pause/s}
 * @param observed the measured value
 * @param expected the threshold it crossed
 */
record Breach(FaultType type, Entity entity, String metric, double observed, double expected, Severity severity,
              String summary) {

    String id() {
        return Alert.id(type, entity);
    }

    /** Whether the rule reads counter increases (so a reset interval, whose increases mean nothing, cannot judge it). */
    static boolean countsBased(final FaultType type) {
        return type != FaultType.LINK_DOWN && type != FaultType.LATENCY_SLO;
    }
}
