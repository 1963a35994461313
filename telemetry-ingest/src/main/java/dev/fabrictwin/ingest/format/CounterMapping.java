package dev.fabrictwin.ingest.format;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.fabrictwin.contract.sample.SampleNames;


/**
 * Source counter name → canonical name, read from a data file {@code /mappings/<format>.tsv} (never code).
 * Each non-comment line is {@code source<TAB>canonical[<TAB>scale]}: {@code source} is an exact name or, when
 * it starts with {@code ~}, a Java regex matched against the whole name whose groups {@code $1..} may appear in
 * {@code canonical}; {@code scale} multiplies the value (e.g. 4 for counters in 4-byte words). A canonical
 * name of {@code -} drops the counter on purpose (an attribute such as veth's {@code peer_ifindex}); {@code -per-queue}
 * drops it too and the adapter counts it (per-queue statistics that would multiply a sample's names by the CPU count).
 * First matching line wins; names no line matches are kept as they are.
 *
 * <p>A canonical name may end in markers that settle what happens when several source counters of one sample
 * map to the same name. This class does not read them: {@link #map} returns them as part of the name, and the
 * accumulator in {@code format.support} that the adapter fills interprets them:
 * <ul>
 *   <li>{@code ?} fallback: used only if no other value of the sample maps to that name, else the value stays
 *       under its source name (unicast packets standing in for total packets). Read by
 *       {@code support.SampleValues}: gnmic, gnmi-protojson, influx.</li>
 *   <li>{@code !} preferred: wins over every source mapped to the same name without {@code !} (a NIC's
 *       physical-port counter over its software one). Read by {@code support.CounterAccumulator}: prometheus,
 *       ethtool, sysfs, sonic.</li>
 *   <li>{@code +} summed: sources of equal rank marked {@code +} are added (unicast + multicast + broadcast =
 *       packets). Read by {@code support.CounterAccumulator}, as {@code !}.</li>
 * </ul>
 * Without markers the two break ties differently: {@code SampleValues} gives the name to the first value in input
 * order, {@code CounterAccumulator} to the source whose name sorts first (so the result does not depend on input
 * order); both keep the other value under its source name. A marker an adapter does not read stays part of the
 * name, so a mapping file uses only its own adapter's markers.
 */
public final class CounterMapping {

    /**
     * Result of mapping one name: canonical (or source) name and scale; {@code name == null} means drop, and
     * {@code dropped} then names why when the mapping file counts the drop ({@code -per-queue} gives
     * {@value #PER_QUEUE_STAT}), else is null.
     */
    public record Mapped(String name, long scale, String dropped) {

        public Mapped(final String name, final long scale) {
            this(name, scale, null);
        }
    }

    /** The reason a per-queue statistic without canonical name is counted under ({@code -per-queue}). */
    public static final String PER_QUEUE_STAT = "per-queue-stat";

    private record Rule(String exact, Pattern regex, String canonical, long scale) {
    }

    private final String resource;
    private final Map<String, Rule> exact = new HashMap<>();
    private final List<Rule> patterns = new ArrayList<>();
    private final Map<String, Mapped> cache = new ConcurrentHashMap<>();

    private CounterMapping(final String resource) {
        this.resource = resource;
    }

    /** Loads {@code /mappings/<format>.tsv} from the classpath; a missing or malformed file fails fast. */
    public static CounterMapping forFormat(final String format) {
        final String resource = "/mappings/" + format + ".tsv";
        final CounterMapping m = new CounterMapping(resource);
        try (InputStream in = CounterMapping.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no counter mapping file " + resource + " on the classpath");
            }
            final BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                final String[] cols = line.split("\t");
                if (cols.length < 2 || cols.length > 3) {
                    throw new IllegalStateException(resource + ":" + n + ": expected source<TAB>canonical[<TAB>scale]");
                }
                final long scale = cols.length == 3 ? Long.parseLong(cols[2].trim()) : 1;
                final String canonical = cols[1].trim();
                if (cols[0].startsWith("~")) {
                    m.patterns.add(new Rule(null, Pattern.compile(cols[0].substring(1)), canonical, scale));
                } else {
                    m.exact.putIfAbsent(cols[0], new Rule(cols[0], null, canonical, scale));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
        return m;
    }

    public Mapped map(final String source) {
        // a name past the sample limit is refused with its sample (NAME_TOO_LONG): not worth keeping in the cache
        return source.length() > SampleNames.MAX_LENGTH ? resolve(source) : cache.computeIfAbsent(source, this::resolve);
    }

    private Mapped resolve(final String source) {
        final Rule r = exact.get(source);
        if (r != null) {
            return result(r.canonical(), r.scale());
        }
        for (final Rule p : patterns) {
            final Matcher matcher = p.regex().matcher(source);
            if (matcher.matches()) {
                return result(matcher.replaceAll(p.canonical()), p.scale());
            }
        }
        return new Mapped(source, 1);
    }

    private static Mapped result(final String canonical, final long scale) {
        if (canonical.equals("-per-queue")) {
            return new Mapped(null, scale, PER_QUEUE_STAT);
        }
        return new Mapped(canonical.equals("-") ? null : canonical, scale);
    }

    @Override
    public String toString() {
        return "CounterMapping[" + resource + "]";
    }
}
