package dev.fabrictwin.contract.truth;

import java.util.Map;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.twin.fault.FaultTarget;
import dev.fabrictwin.twin.fault.FaultType;

/**
 * One injected fault as {@code truth.jsonl} and {@code sim.truth} carry it: times in epoch ms, every parameter filled
 * in. Also the scoring rules of docs/contracts.md that judge an alert against it, so every scorer applies the same.
 */
public record TruthRecord(String id, FaultType type, FaultTarget target, long start, long end, Map<String, Double> params) {

    /** The fault's scoring window starts one sampling interval before the fault... */
    public long windowStart(final long intervalMs) {
        return start - intervalMs;
    }

    /** ...and ends three intervals after it. */
    public long windowEnd(final long intervalMs) {
        return end + 3 * intervalMs;
    }

    /** An alert of this fault's type opening ({@code firstSeen}) inside its window: it detects the fault. */
    public boolean detectedBy(final Alert alert, final long intervalMs) {
        return alert.type() == type && alert.firstSeen() >= windowStart(intervalMs) && alert.firstSeen() <= windowEnd(intervalMs);
    }

    /** An alert that detects this fault and names exactly its target: a true alert, and the fault localized. */
    public boolean localizedBy(final Alert alert, final long intervalMs) {
        return detectedBy(alert, intervalMs) && alert.entity().names(target);
    }
}
