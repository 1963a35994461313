package dev.fabrictwin.cli;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Pieces of the live status lines that {@code demo} and {@code analyze} share. */
final class StatusText {

    private StatusText() {
    }

    /** {@code "  unmatched names: 12 (unknown-device 10, unknown-port 2)"}, or nothing when every name met the topology. */
    static String unmatched(final Map<String, Long> byReason) {
        final long total = byReason.values().stream().mapToLong(Long::longValue).sum();
        if (total == 0) {
            return "";
        }
        return String.format(Locale.ROOT, "  unmatched names: %,d (%s)", total, byReason.entrySet().stream()
            .map(e -> String.format(Locale.ROOT, "%s %,d", e.getKey(), e.getValue())).collect(Collectors.joining(", ")));
    }
}
