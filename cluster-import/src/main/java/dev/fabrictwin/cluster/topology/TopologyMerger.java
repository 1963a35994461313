package dev.fabrictwin.cluster.topology;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.fabric.Tier;
import dev.fabrictwin.twin.units.Units;

/**
 * Builds one fabric from every source's neighbours, and says what it could not settle.
 *
 * <p><b>Links.</b> A link both ends report is <em>confirmed</em>. One only one end reports is <em>half-seen</em>:
 * kept (hosts often run no LLDP agent), and a warning when the silent end did report a table. Ends that disagree
 * (A says B, B says C) are <em>asymmetric</em>: a claim its other end confirms wins; an unconfirmed claim is kept only
 * if neither of its ports is taken, first in input order, and every such claim is listed. A port claimed twice, or a
 * device linked to itself, is listed and the later claim dropped.
 *
 * <p><b>Roles</b>, first that applies: {@code --role REGEX=TIER}; what a source says (an InfiniBand CA, an LLDP
 * chassis whose only capability is Station, are hosts; Bridge or Router, switches); a device with no table of its
 * own next to one that has, or whose ports all have NIC names ({@code eth0}, {@code ens1f0}, {@code mlx5_0},
 * {@code ib0}, {@code nic0}), is a host. Then switches by distance from the hosts: next to a host a leaf, next to a
 * leaf a spine, above that core. {@code lower} is the end nearer the hosts.
 */
public final class TopologyMerger {

    /** Linux and RDMA NIC names; switch names such as {@code Ethernet0} or {@code swp1} are not. */
    private static final Pattern NIC_PORT = Pattern.compile("^(eth\\d|ens\\d|enp\\d|eno\\d|ib\\d|mlx\\d|mlx5_|nic\\d|hca|bond\\d)\\S*");

    private TopologyMerger() {
    }

    /** What the import could not settle, for the report. */
    public record Report(Map<String, Integer> tiers, int links, int confirmed, List<String> halfSeen,
                         List<String> asymmetric, List<String> dropped, List<String> warnings, List<String> skipped) {

        public List<String> lines() {
            final List<String> out = new ArrayList<>();
            out.add(String.format(Locale.ROOT, "topology import: %d nodes (%s), %d links: %d confirmed by both ends, "
                    + "%d half-seen, %d asymmetric, %d dropped", tiers.values().stream().mapToInt(Integer::intValue).sum(),
                tiers.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).reduce((a, b) -> a + ", " + b)
                    .orElse("none"), links, confirmed, halfSeen.size(), asymmetric.size(), dropped.size())
                + (skipped.isEmpty() ? "" : "; " + skipped.size() + " source entries skipped"));
            halfSeen.forEach(l -> out.add("  half-seen: " + l));
            asymmetric.forEach(l -> out.add("  asymmetric: " + l));
            dropped.forEach(l -> out.add("  dropped: " + l));
            warnings.forEach(l -> out.add("  warning: " + l));
            skipped.forEach(l -> out.add("  skipped: " + l));
            return out;
        }
    }

    /** The topology document and its report. */
    public record Result(ObjectNode document, Report report) {
    }

    /** A role override: devices whose name the regex finds get the tier. */
    public record Role(Pattern match, Tier tier) {
    }

    public static Result merge(final Observations all, final List<Role> roles, final double defaultSpeedBps, final String id,
                               final Technology technology, final ObjectMapper mapper) {
        final Map<String, Neighbor> claims = new LinkedHashMap<>();
        final List<String> dropped = new ArrayList<>();
        for (final Neighbor n : all.neighbors()) {
            if (n.localDevice().equals(n.remoteDevice())) {
                dropped.add(n.local() + " → " + n.remote() + " (a device linked to itself)");
                continue;
            }
            final Neighbor before = claims.putIfAbsent(n.local(), n);
            if (before != null && !before.remote().equals(n.remote())) {
                dropped.add(n.local() + " → " + n.remote() + " (the port was already seen with " + before.remote() + ")");
            }
        }
        final Set<String> taken = new HashSet<>();
        final Map<String, Neighbor> links = new LinkedHashMap<>();
        final List<String> halfSeen = new ArrayList<>();
        final List<String> asymmetric = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        int confirmed = 0;
        for (final Neighbor c : claims.values()) { // confirmed first: they win every conflict
            final Neighbor back = claims.get(c.remote());
            if (back != null && back.remote().equals(c.local()) && !taken.contains(c.local())) {
                take(links, taken, c);
                confirmed++;
            }
        }
        for (final Neighbor c : claims.values()) {
            if (taken.contains(c.local()) && taken.contains(c.remote())) {
                continue;
            }
            final Neighbor back = claims.get(c.remote());
            if (back == null) {
                if (!taken.contains(c.local()) && !taken.contains(c.remote())) {
                    take(links, taken, c);
                    halfSeen.add(c.local() + " — " + c.remote() + " (only " + c.localDevice() + " reports it)");
                    if (all.reporters().contains(c.remoteDevice())) {
                        warnings.add(c.remoteDevice() + " reported a table without " + c.remotePort() + " → " + c.local());
                    }
                } else {
                    dropped.add(c.local() + " → " + c.remote() + " (a port already linked elsewhere)");
                }
            } else {
                final boolean kept = !taken.contains(c.local()) && !taken.contains(c.remote());
                if (kept) {
                    take(links, taken, c);
                }
                asymmetric.add(c.local() + " says " + c.remote() + ", but " + c.remote() + " says " + back.remote()
                    + (kept ? " (kept " + c.local() + " — " + c.remote() + ")" : " (not kept)"));
            }
        }
        final Map<String, Tier> tiers = roles(all, links.values(), roles);
        return new Result(document(links.values(), tiers, defaultSpeedBps, id, technology, mapper),
            new Report(counts(tiers), links.size(), confirmed, halfSeen, asymmetric, dropped, warnings,
                all.skipped()));
    }

    private static void take(final Map<String, Neighbor> links, final Set<String> taken, final Neighbor c) {
        links.put(c.local(), c);
        taken.add(c.local());
        taken.add(c.remote());
    }

    private static Map<String, Tier> roles(final Observations all, final Collection<Neighbor> links,
                                           final List<Role> overrides) {
        final Map<String, Set<String>> adjacent = new TreeMap<>();
        final Map<String, Set<String>> ports = new HashMap<>();
        for (final Neighbor l : links) {
            adjacent.computeIfAbsent(l.localDevice(), d -> new LinkedHashSet<>()).add(l.remoteDevice());
            adjacent.computeIfAbsent(l.remoteDevice(), d -> new LinkedHashSet<>()).add(l.localDevice());
            ports.computeIfAbsent(l.localDevice(), d -> new HashSet<>()).add(l.localPort());
            ports.computeIfAbsent(l.remoteDevice(), d -> new HashSet<>()).add(l.remotePort());
        }
        final Map<String, Tier> tiers = new TreeMap<>();
        final boolean someReported = !all.reporters().isEmpty();
        for (final String d : adjacent.keySet()) {
            final Tier override = overrides.stream().filter(r -> r.match().matcher(d).find()).map(Role::tier).findFirst()
                .orElse(null);
            final Observations.Kind kind = all.kinds().get(d);
            if (override != null) {
                tiers.put(d, override);
            } else if (kind == Observations.Kind.HOST
                || kind == null && (someReported && !all.reporters().contains(d)
                    || ports.get(d).stream().allMatch(p -> NIC_PORT.matcher(p).matches()))) {
                tiers.put(d, Tier.HOST);
            }
        }
        if (!tiers.containsValue(Tier.HOST)) {
            throw new IllegalArgumentException("cannot tell hosts from switches in these sources: name them with "
                + "--role 'REGEX=host' (for example --role '^gpu=host')");
        }
        // switches by distance from the hosts
        for (final Tier next : List.of(Tier.LEAF, Tier.SPINE, Tier.CORE)) {
            final Tier below = Tier.values()[next.ordinal() - 1];
            for (final String d : adjacent.keySet()) {
                if (!tiers.containsKey(d) && adjacent.get(d).stream().anyMatch(n -> tiers.get(n) == below)) {
                    tiers.put(d, next);
                }
            }
        }
        adjacent.keySet().forEach(d -> tiers.putIfAbsent(d, Tier.CORE));
        return tiers;
    }

    private static ObjectNode document(final Collection<Neighbor> links, final Map<String, Tier> tiers,
                                       final double defaultSpeedBps, final String id, final Technology technology,
                                       final ObjectMapper mapper) {
        final ObjectNode root = mapper.createObjectNode();
        root.put("id", id);
        root.put("technology", technology.label());
        final ArrayNode nodes = root.putArray("nodes");
        tiers.entrySet().stream().sorted(Map.Entry.<String, Tier>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
            .forEach(e -> nodes.addObject().put("name", e.getKey()).put("tier", e.getValue().label()));
        final ArrayNode out = root.putArray("links");
        for (final Neighbor l : links) {
            final boolean localLower = tiers.get(l.localDevice()).ordinal() < tiers.get(l.remoteDevice()).ordinal()
                || tiers.get(l.localDevice()) == tiers.get(l.remoteDevice()) && l.localDevice().compareTo(l.remoteDevice()) < 0;
            out.addObject().put("lower", localLower ? l.local() : l.remote()).put("upper", localLower ? l.remote() : l.local())
                .put("speed", Units.formatBitRate(Double.isNaN(l.speedBps()) ? defaultSpeedBps : l.speedBps()));
        }
        return root;
    }

    private static Map<String, Integer> counts(final Map<String, Tier> tiers) {
        final Map<String, Integer> counts = new LinkedHashMap<>();
        for (final Tier t : Tier.values()) {
            final int n = (int) tiers.values().stream().filter(t::equals).count();
            if (n > 0) {
                counts.put(t.label(), n);
            }
        }
        return counts;
    }
}
