package dev.fabrictwin.ingest.sim;

import java.util.Map;

import dev.fabrictwin.twin.fault.FaultTarget;
import dev.fabrictwin.twin.fault.FaultType;

/** One injected fault as {@code truth.jsonl} and {@code sim.truth} carry it: times in epoch ms, every parameter filled in. */
public record TruthRecord(String id, FaultType type, FaultTarget target, long start, long end, Map<String, Double> params) {
}
