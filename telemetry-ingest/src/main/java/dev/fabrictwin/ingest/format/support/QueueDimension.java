package dev.fabrictwin.ingest.format.support;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.fabrictwin.twin.model.CounterNames;

/**
 * The one rule for per-queue detail, in every format (docs/ingest.md, "Queues and priorities"): a value of queue
 * {@code N} is kept under {@code <name>.q<N>} — the name first, the dimension last, as per-priority counters are
 * {@code rx_pfc_pause.<p>}. Queues 0 to {@value #MAX_QUEUES}−1 are kept one by one; higher-numbered queues (a
 * 64-channel NIC) are summed into {@code <name>.qrest}, so a sample holds at most {@value #MAX_QUEUES}+1 names per
 * counter. Named queues (a switch's {@code BE1}) keep their name, lower-cased, as {@code <name>.qbe1}.
 *
 * <p>{@link #withTotals} adds a port total summed from the queues when the unit gave none (virtio_net and ena
 * report only per-queue counters).
 */
public final class QueueDimension {

    /** Queues kept one by one; the rest are summed into {@code .qrest}. */
    public static final int MAX_QUEUES = 16;
    public static final String REST = "qrest";

    private static final Pattern NUMBERED = Pattern.compile("(.+)\\.q(\\d+)");
    private static final Pattern PER_QUEUE = Pattern.compile("(.+)\\.q[a-z0-9_-]+");
    private static final int MAX_NAME = 24;

    private QueueDimension() {
    }

    /** {@code rx_bytes} of queue {@code "3"} → {@code rx_bytes.q3}; of queue 40 → {@code rx_bytes.qrest}. */
    public static String name(final String name, final String queue) {
        return name + "." + suffix(queue);
    }

    /** The suffix of a queue key without its dot: {@code q3}, {@code qrest}, {@code qbe1}. */
    public static String suffix(final String queue) {
        final String key = ListKeys.unquote(queue).strip().toLowerCase(Locale.ROOT);
        if (!key.isEmpty() && key.chars().allMatch(Character::isDigit)) {
            return key.length() > 3 || Integer.parseInt(key) >= MAX_QUEUES ? REST : "q" + Integer.parseInt(key);
        }
        final String cleaned = key.replaceAll("[^a-z0-9_-]+", "_");
        return "q" + (cleaned.isEmpty() ? "_" : cleaned.substring(0, Math.min(MAX_NAME, cleaned.length())));
    }

    /** A name a mapping file produced with a queue number ({@code rx_bytes.q40}) folded into the bound. */
    public static String bound(final String name) {
        if (!name.contains(".q")) {
            return name; // most names carry no queue: no regex for them
        }
        final Matcher m = NUMBERED.matcher(name);
        return m.matches() ? m.group(1) + "." + suffix(m.group(2)) : name;
    }

    /** Whether the name is the sum of the queues beyond the bound ({@code .qrest}). */
    public static boolean isFolded(final String name) {
        return name.endsWith("." + REST);
    }

    /** Whether the name carries a queue suffix. */
    public static boolean isPerQueue(final String name) {
        return PER_QUEUE.matcher(name).matches();
    }

    /** The name without its queue suffix, or the name itself. */
    public static String base(final String name) {
        final Matcher m = PER_QUEUE.matcher(name);
        return m.matches() ? m.group(1) : name;
    }

    /**
     * The counters with a port total added for every canonical per-port counter ({@code rx_bytes}, {@code tx_drops},
     * ...) the unit reports only per queue. A total the unit gives is never replaced.
     */
    public static Map<String, Long> withTotals(final Map<String, Long> counters) {
        final Map<String, Long> totals = new LinkedHashMap<>();
        for (final Map.Entry<String, Long> e : counters.entrySet()) {
            final String base = base(e.getKey());
            if (!base.equals(e.getKey()) && Canonical.isPortCounter(base) && !counters.containsKey(base)) {
                totals.merge(base, e.getValue(), Long::sum); // unsigned 64-bit sum wraps like the counters do
            }
        }
        if (totals.isEmpty()) {
            return counters;
        }
        final Map<String, Long> out = new LinkedHashMap<>(totals);
        out.putAll(counters);
        return out;
    }

    /** Gauges with a port value added where only queues report one: queue depth summed, watermark the maximum. */
    public static Map<String, Double> withGaugeTotals(final Map<String, Double> gauges) {
        final Map<String, Double> totals = new LinkedHashMap<>();
        for (final Map.Entry<String, Double> e : gauges.entrySet()) {
            final String base = base(e.getKey());
            if (!base.equals(e.getKey()) && !gauges.containsKey(base)) {
                if (base.equals(CounterNames.QUEUE_DEPTH_BYTES)) {
                    totals.merge(base, e.getValue(), Double::sum);
                } else if (base.equals(CounterNames.BUFFER_WATERMARK_BYTES)) {
                    totals.merge(base, e.getValue(), Math::max);
                }
            }
        }
        if (totals.isEmpty()) {
            return gauges;
        }
        final Map<String, Double> out = new LinkedHashMap<>(totals);
        out.putAll(gauges);
        return out;
    }
}
