package dev.fabrictwin.analyzer.rates;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Judges a sample's timestamp before it can move anything: one device with a wrong clock must not drag a
 * partition's event time hours ahead (every other device would then be late, and Kafka refuses records stamped
 * more than an hour past its clock, so forwarding one would stop the application). A sample is refused when it is
 * stamped more than {@code maxAheadOfWallMs} past the wall clock, or more than {@code maxJumpMs} past the newest
 * event time accepted so far, unless {@value #CONFIRMING_DEVICES} devices agree on the jump (telemetry resuming
 * after an outage, a replay skipping ahead). Behind is never refused here: per-port ordering handles late samples.
 * Memory: the devices waiting to confirm a jump, at most {@value #MAX_CANDIDATES}.
 */
public final class TimeGate {

    static final int CONFIRMING_DEVICES = 3;
    static final int MAX_CANDIDATES = 1_000;

    private final long maxAheadOfWallMs;
    private final long maxJumpMs;
    private long accepted = Long.MIN_VALUE;
    /** Devices stamped far past {@link #accepted}: device → its newest such timestamp. */
    private final Map<String, Long> candidates = new LinkedHashMap<>();

    public TimeGate(final long maxAheadOfWallMs, final long maxJumpMs) {
        this.maxAheadOfWallMs = maxAheadOfWallMs;
        this.maxJumpMs = maxJumpMs;
    }

    /** Empty when the sample may pass; else why not (for its dead letter). */
    public Optional<String> judge(final String device, final long ts, final long wallClockMs) {
        if (ts > wallClockMs + maxAheadOfWallMs) {
            return Optional.of(String.format("device %s stamped its sample %.0f s ahead of the wall clock (at most %d s "
                + "accepted): its clock is wrong", device, (ts - wallClockMs) / 1000.0, maxAheadOfWallMs / 1000));
        }
        if (accepted == Long.MIN_VALUE || ts <= accepted + maxJumpMs) {
            accepted = Math.max(accepted, ts);
            return Optional.empty();
        }
        if (candidates.size() >= MAX_CANDIDATES) {
            candidates.remove(candidates.keySet().iterator().next());
        }
        candidates.put(device, ts);
        final long agreeing = candidates.values().stream().filter(t -> Math.abs(t - ts) <= maxJumpMs).count();
        if (agreeing >= CONFIRMING_DEVICES) {
            accepted = ts;
            candidates.clear();
            return Optional.empty();
        }
        return Optional.of(String.format("device %s stamped its sample %.0f s ahead of the newest event time of its "
                + "partition (at most %d s accepted unless %d devices agree): its clock is wrong", device,
            (ts - accepted) / 1000.0, maxJumpMs / 1000, CONFIRMING_DEVICES));
    }
}
