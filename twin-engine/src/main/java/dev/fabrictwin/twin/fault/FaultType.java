package dev.fabrictwin.twin.fault;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The anomaly catalog of docs/contracts.md (type names are a contract). */
public enum FaultType {
    LINK_DEGRADED, LINK_DOWN, PFC_STORM, ECMP_IMBALANCE, SILENT_DROP, STRAGGLER, UNEXPECTED_TRAFFIC,
    ECN_MISCONFIG, LATENCY_SLO, JOB_BOTTLENECK, LINK_FLAP;

    public static FaultType parse(final String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown fault type '" + text + "' (expected "
                + Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", ")) + ")", e);
        }
    }
}
