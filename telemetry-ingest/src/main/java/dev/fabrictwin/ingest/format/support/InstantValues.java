package dev.fabrictwin.ingest.format.support;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Tells instant values (gauges) from cumulative counters by name, for the names no mapping file settles: a
 * watermark, a peak or maximum, an occupancy, a threshold, a current queue depth or fill level is a reading of
 * now, not a count since boot, and stored as a counter it would look to the analyzer like a counter that resets
 * all the time. A name that also counts events ({@code rx_threshold_hit}, {@code tx_pause_storm_warning_events},
 * {@code mbuf_lwm_thresh_hit}) stays a counter.
 */
public final class InstantValues {

    /** Words (between {@code _ - . / space}) that make a name an instant value. */
    private static final Set<String> INSTANT = Set.of("watermark", "watermarks", "wm", "peak", "max", "maximum", "min",
        "minimum", "avg", "average", "occupancy", "occupied", "threshold", "thresh", "current", "curr", "depth", "level",
        "utilization", "util", "percent", "pct", "temperature", "temp", "instant", "usage", "headroom");

    /** Words that make a name count events even though it mentions an instant quantity. */
    private static final Set<String> EVENTS = Set.of("hit", "hits", "event", "events", "crossed", "crossing", "exceeded",
        "exceeds", "exceed", "cnt", "count", "transitions", "violations", "errors", "err");

    private InstantValues() {
    }

    /** Whether a (source or mapped) name denotes an instant value. */
    public static boolean isInstant(final String name) {
        boolean instant = false;
        for (final String word : name.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
            if (EVENTS.contains(word)) {
                return false;
            }
            instant |= INSTANT.contains(word);
        }
        return instant;
    }

    /** A sample's values split into counters and gauges. */
    public record Split(Map<String, Long> counters, Map<String, Double> gauges) {
    }

    /**
     * Splits the values of an untyped format (every value read as an unsigned integer) by name: canonical gauges and
     * instant names that are no canonical counter become gauges (queue suffixes included: {@code
     * buffer_watermark_bytes.q3}).
     */
    public static Split split(final Map<String, Long> values) {
        final Map<String, Long> counters = new LinkedHashMap<>();
        final Map<String, Double> gauges = new LinkedHashMap<>();
        for (final Map.Entry<String, Long> e : values.entrySet()) {
            if (isGaugeName(e.getKey())) {
                gauges.put(e.getKey(), unsignedToDouble(e.getValue()));
            } else {
                counters.put(e.getKey(), e.getValue());
            }
        }
        return new Split(counters, gauges);
    }

    /** A canonical gauge (with or without a queue suffix), or an instant name that is no canonical counter. */
    public static boolean isGaugeName(final String name) {
        final String base = QueueDimension.base(name);
        return Canonical.isGauge(base) || !Canonical.isCounter(base) && isInstant(name);
    }

    static double unsignedToDouble(final long v) {
        return v >= 0 ? v : (v >>> 1) * 2.0 + (v & 1);
    }
}
