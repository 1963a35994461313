package dev.fabrictwin.ingest.format.support;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Collects one sample's counters after name mapping and settles what happens when several source counters
 * map to the same name. The mapping files ({@code mappings/<format>.tsv}) may end a canonical name with
 * markers that this class interprets:
 * <ul>
 *   <li>{@code !} — preferred: wins over every source mapped to the same name without {@code !} (e.g. a NIC's
 *       physical-port {@code rx_bytes_phy} over its software {@code rx_bytes});</li>
 *   <li>{@code +} — summed: all sources of the same rank marked {@code +} are added (e.g. unicast + multicast +
 *       broadcast frames = packets).</li>
 * </ul>
 * Otherwise, of two sources of equal rank the one whose source name sorts first wins, whatever the input
 * order. A losing source is not dropped: it is kept under its own source name, or, when its source name is
 * the contested name itself, under {@code <format>.<source>} (e.g. mlx5's software {@code rx_bytes} becomes
 * {@code ethtool.rx_bytes} when {@code rx_bytes_phy} provides {@code rx_bytes}).
 *
 * <p>The typed formats (gNMI, line protocol) fill {@link SampleValues} instead, which reads the fallback marker
 * {@code ?} and neither of these; {@link dev.fabrictwin.ingest.format.CounterMapping} lists all three.
 */
public final class CounterAccumulator {

    /** A mapping file's canonical column with its markers removed. */
    public record Target(String name, boolean preferred, boolean summed) {

        public static Target parse(final String mapped) {
            String name = mapped;
            boolean preferred = false;
            boolean summed = false;
            while (name.length() > 1) {
                final char last = name.charAt(name.length() - 1);
                if (last == '!') {
                    preferred = true;
                } else if (last == '+') {
                    summed = true;
                } else {
                    break;
                }
                name = name.substring(0, name.length() - 1);
            }
            return new Target(name, preferred, summed);
        }

        /**
         * This target with a per-queue name folded into the queue bound ({@code rx_bytes.q40} →
         * {@code rx_bytes.qrest}, see {@link QueueDimension}) and summed: the sources of one queue name (unicast +
         * multicast + broadcast, or the queues beyond the bound) add up.
         */
        public Target queueBounded() {
            final String bounded = QueueDimension.bound(name);
            return QueueDimension.isPerQueue(bounded) ? new Target(bounded, preferred, true) : this;
        }
    }

    private record Contribution(String source, long value) {
    }

    private static final class Entry {
        final boolean preferred;
        final boolean summed;
        final List<Contribution> parts = new ArrayList<>(1);

        Entry(final boolean preferred, final boolean summed, final Contribution first) {
            this.preferred = preferred;
            this.summed = summed;
            parts.add(first);
        }

        long value() {
            long v = 0;
            for (final Contribution c : parts) {
                v += c.value(); // unsigned 64-bit arithmetic wraps like the counters do
            }
            return v;
        }

        String firstSource() {
            return parts.get(0).source();
        }
    }

    private final String shadowPrefix;
    private final Map<String, Entry> byName = new LinkedHashMap<>();
    private final Map<String, Long> shadowed = new LinkedHashMap<>();
    private final Set<String> sources = new HashSet<>();

    /** @param format prefix for a shadowed counter whose source name is the contested canonical name */
    public CounterAccumulator(final String format) {
        this.shadowPrefix = format + ".";
    }

    /**
     * Adds one source counter under its mapped target. Returns false (and adds nothing) if this source name
     * was already added to this sample — the caller decides whether that is an error.
     */
    public boolean add(final Target target, final String source, final long value) {
        if (!sources.add(source)) {
            return false;
        }
        final Contribution c = new Contribution(source, value);
        final Entry current = byName.get(target.name());
        if (current == null) {
            byName.put(target.name(), new Entry(target.preferred(), target.summed(), c));
            return true;
        }
        if (current.preferred == target.preferred()) {
            if (current.summed && target.summed()) {
                current.parts.add(c);
            } else if (source.compareTo(current.firstSource()) < 0) {
                byName.put(target.name(), new Entry(target.preferred(), target.summed(), c));
                shadow(target.name(), current.parts);
            } else {
                shadow(target.name(), List.of(c));
            }
        } else if (target.preferred()) {
            byName.put(target.name(), new Entry(true, target.summed(), c));
            shadow(target.name(), current.parts);
        } else {
            shadow(target.name(), List.of(c));
        }
        return true;
    }

    /** Whether this source name was added to this sample (a second one is a repeated key: {@link RepeatedKeys}). */
    public boolean hasSource(final String source) {
        return sources.contains(source);
    }

    /** Whether a counter of this (mapped) name is present. */
    public boolean has(final String name) {
        return byName.containsKey(name);
    }

    /** Adds a derived counter (e.g. a roll-up of queues) unless the name is already present. */
    public void putIfAbsent(final String name, final long value) {
        byName.computeIfAbsent(name, n -> new Entry(false, false, new Contribution("derived:" + n, value)));
    }

    public boolean isEmpty() {
        return byName.isEmpty() && shadowed.isEmpty();
    }

    /** The counters: mapped names first, then shadowed sources. */
    public Map<String, Long> toMap() {
        final Map<String, Long> out = new LinkedHashMap<>();
        for (final var e : byName.entrySet()) {
            out.put(e.getKey(), e.getValue().value());
        }
        for (final var e : shadowed.entrySet()) {
            final String key = out.containsKey(e.getKey()) ? shadowPrefix + e.getKey() : e.getKey();
            out.putIfAbsent(key, e.getValue());
        }
        return out;
    }

    private void shadow(final String contested, final List<Contribution> parts) {
        for (final Contribution c : parts) {
            final String key = c.source().equals(contested) ? shadowPrefix + c.source() : c.source();
            shadowed.putIfAbsent(key, c.value());
        }
    }
}
