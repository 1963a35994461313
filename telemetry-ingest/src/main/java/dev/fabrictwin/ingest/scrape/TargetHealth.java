package dev.fabrictwin.ingest.scrape;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Whether each target answered its last scrape, and how often it failed. A target's state change (first failure,
 * recovery) yields one message to log; repeated failures of a target already down yield none, so one dead exporter
 * cannot flood the log.
 */
final class TargetHealth {

    private final Map<ScrapeTarget, Boolean> up = new LinkedHashMap<>();
    private final Map<ScrapeTarget, Long> failures = new LinkedHashMap<>();

    /** A successful scrape; a message if the target was down. */
    public synchronized Optional<String> succeeded(final ScrapeTarget t) {
        final Boolean was = up.put(t, true);
        return Boolean.FALSE.equals(was) ? Optional.of("target " + t.url() + " (" + t.device() + ") is up again") : Optional.empty();
    }

    /** A failed scrape (no answer, timeout, non-200); a message if the target was not already down. */
    public synchronized Optional<String> failed(final ScrapeTarget t, final String problem) {
        failures.merge(t, 1L, Long::sum);
        final Boolean was = up.put(t, false);
        return Boolean.FALSE.equals(was) ? Optional.empty()
            : Optional.of("target " + t.url() + " (" + t.device() + ") is down: " + problem + " (logged again when it recovers)");
    }

    public synchronized long failures() {
        return failures.values().stream().mapToLong(Long::longValue).sum();
    }

    public synchronized Map<ScrapeTarget, Long> failuresByTarget() {
        return Map.copyOf(failures);
    }
}
