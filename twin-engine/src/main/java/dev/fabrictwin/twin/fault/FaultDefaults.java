package dev.fabrictwin.twin.fault;

import java.util.Map;

/**
 * Parameters of each fault type and their defaults (docs/twin.md explains each effect):
 * <ul>
 * <li>LINK_DEGRADED {@code capacity} fraction left (0.5 = a 400G link running as 200G), {@code fecErrorRate}
 *     corrected FEC codewords per bit, {@code crcErrorRate} FCS errors per packet;</li>
 * <li>LINK_DOWN {@code flapPeriod} seconds between state changes (0 = stays down);</li>
 * <li>LINK_FLAP: the link goes down for {@code downSeconds} every {@code period} seconds, from the fault's start;</li>
 * <li>PFC_STORM {@code pauseFraction} of time the stuck port asserts pause, {@code priority} traffic class;</li>
 * <li>ECMP_IMBALANCE {@code skew}: share of the group's flows forced onto its first member;</li>
 * <li>SILENT_DROP {@code dropRate} fraction of packets lost without error counters;</li>
 * <li>STRAGGLER {@code rateFactor}: the host port's rate cap as a fraction of its line rate;</li>
 * <li>UNEXPECTED_TRAFFIC {@code load} fraction of line rate sent by each rogue sender (the target: a NIC, or up to
 * {@code senders} NICs under a switch), all to one host elsewhere;</li>
 * <li>ECN_MISCONFIG: marking disabled on the device ({@code markingFactor} 0 = none);</li>
 * <li>LATENCY_SLO {@code addedLatencyUs} extra one-way latency on the target;</li>
 * <li>JOB_BOTTLENECK: an impact, not a cause; injecting it caps the job's NICs ({@code rateFactor}).</li>
 * </ul>
 */
public final class FaultDefaults {

    private static final Map<FaultType, Map<String, Double>> DEFAULTS = Map.ofEntries(
        Map.entry(FaultType.LINK_FLAP, Map.of("period", 10.0, "downSeconds", 0.2)),
        Map.entry(FaultType.LINK_DEGRADED, Map.of("capacity", 0.5, "fecErrorRate", 1e-6, "crcErrorRate", 1e-7)),
        Map.entry(FaultType.LINK_DOWN, Map.of("flapPeriod", 0.0)),
        Map.entry(FaultType.PFC_STORM, Map.of("pauseFraction", 0.9, "priority", 3.0)),
        Map.entry(FaultType.ECMP_IMBALANCE, Map.of("skew", 0.8)),
        Map.entry(FaultType.SILENT_DROP, Map.of("dropRate", 0.01)),
        Map.entry(FaultType.STRAGGLER, Map.of("rateFactor", 0.3)),
        Map.entry(FaultType.UNEXPECTED_TRAFFIC, Map.of("load", 0.9, "senders", 4.0)),
        Map.entry(FaultType.ECN_MISCONFIG, Map.of("markingFactor", 0.0)),
        Map.entry(FaultType.LATENCY_SLO, Map.of("addedLatencyUs", 50.0)),
        Map.entry(FaultType.JOB_BOTTLENECK, Map.of("rateFactor", 0.5)));

    private FaultDefaults() {
    }

    public static Map<String, Double> of(final FaultType type) {
        return DEFAULTS.get(type);
    }
}
