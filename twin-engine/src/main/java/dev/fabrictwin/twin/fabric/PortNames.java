package dev.fabrictwin.twin.fabric;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Where telemetry's names meet the topology's: real collectors name a port as the device sees it
 * ({@code gpu01.example.com} / {@code mlx5_0/1}, {@code leaf01} / {@code et-0/0/1.0}), the topology as its
 * source did. The topology document's optional {@code names} section says how they meet:
 *
 * <pre>
 * "names": {
 *   "ports":   {"gpu01/mlx5_0/1": "gpu01/eth0"},                      // explicit table, telemetry → topology
 *   "devices": {"gpu01-bmc": "gpu01"},                                // a device renamed, its ports kept
 *   "rules":   [{"match": "^(gpu\\d+)/mlx5_(\\d+)/1$", "to": "$1/eth$2"}]  // regex over "device/port", first hit wins
 * }
 * </pre>
 *
 * Resolution, first that names a port of the fabric: the ports table; the name itself (after the devices table);
 * each rule in order; then the built-in spellings every fabric has (device without its DNS domain, port name
 * case-insensitively, a Junos/Linux logical unit {@code .0} dropped, the quotes some vendors leave around list
 * keys, a vendor's long and short interface names: {@code HundredGigE0/0/0/4} = {@code Hu0/0/0/4},
 * {@code Ethernet1/41} = {@code Eth1/41} = {@code Et1/41}; {@link InterfaceNames}). A name that meets nothing is
 * {@link Resolution#unknownDevice()} or {@link Resolution#unknownPort()}, never
 * guessed. Names that meet a port are cached up to {@value #CACHE_LIMIT}, names that meet none up to
 * {@value #UNKNOWN_CACHE_LIMIT}: a flood of made-up names cannot grow memory, and costs a few kilobytes, not the
 * names' worth.
 */
public final class PortNames implements Serializable {

    /** Names that meet a port remembered; past it, names are resolved again each time (correct, just slower). */
    static final int CACHE_LIMIT = 200_000;
    /**
     * Names that meet no port remembered: the first ones, so a few strangers a fabric always has cost one lookup;
     * past it, an unknown name is resolved again each time (a flood of them costs time, not memory).
     */
    static final int UNKNOWN_CACHE_LIMIT = 10_000;

    /**
     * The outcome for one telemetry name: the topology port, or why there is none, as the code of fabric-contract's
     * {@code RejectReason} ({@code unknown-device}, {@code unknown-port}): the metric tag and status lines spell it so.
     */
    public record Resolution(PortRef port, String reason) implements Serializable {
        private static final Resolution UNKNOWN_DEVICE = new Resolution(null, "unknown-device");
        private static final Resolution UNKNOWN_PORT = new Resolution(null, "unknown-port");

        public Resolution {
            // a checkpoint's cache of unknown names, written when the reasons had underscores, reads back as today's
            reason = reason == null ? null : reason.replace('_', '-');
        }

        static Resolution of(final PortRef port) {
            return new Resolution(port, null);
        }

        public boolean matched() {
            return port != null;
        }

        public static Resolution unknownDevice() {
            return UNKNOWN_DEVICE;
        }

        public static Resolution unknownPort() {
            return UNKNOWN_PORT;
        }
    }

    /** A rule: a regex over {@code device/port} and its replacement (Java {@code $1} groups). */
    public record Rule(Pattern match, String to) {
        Optional<String> apply(final String name) {
            final Matcher m = match.matcher(name);
            return m.find() ? Optional.of(m.replaceFirst(to)) : Optional.empty();
        }
    }

    public static final PortNames NONE = new PortNames(Map.of(), Map.of(), List.of());

    private final Map<String, String> ports;
    private final Map<String, String> devices;
    private final List<Rule> rules;

    public PortNames(final Map<String, String> ports, final Map<String, String> devices, final List<Rule> rules) {
        this.ports = Map.copyOf(ports);
        this.devices = Map.copyOf(devices);
        this.rules = List.copyOf(rules);
    }

    public Map<String, String> ports() {
        return ports;
    }

    public Map<String, String> devices() {
        return devices;
    }

    public List<Rule> rules() {
        return rules;
    }

    public boolean isEmpty() {
        return ports.isEmpty() && devices.isEmpty() && rules.isEmpty();
    }

    /** The {@code names} section of a topology document; absent means {@link #NONE}. */
    public static PortNames fromJson(final JsonNode names) {
        if (names == null || names.isMissingNode() || names.isNull()) {
            return NONE;
        }
        if (!names.isObject()) {
            throw new IllegalArgumentException("topology 'names' must be an object with 'ports', 'devices' and/or 'rules'");
        }
        final Map<String, String> ports = table(names.path("ports"), "ports");
        for (final Map.Entry<String, String> e : ports.entrySet()) {
            requirePortName(e.getKey(), "names.ports key");
            requirePortName(e.getValue(), "names.ports value");
        }
        final Map<String, String> devices = table(names.path("devices"), "devices");
        final List<Rule> rules = new ArrayList<>();
        final JsonNode list = names.path("rules");
        if (!list.isMissingNode() && !list.isArray()) {
            throw new IllegalArgumentException("topology 'names.rules' must be a list of {match, to}");
        }
        int i = 0;
        for (final JsonNode r : list) {
            final String match = r.path("match").asText("");
            if (match.isEmpty() || !r.hasNonNull("to")) {
                throw new IllegalArgumentException("topology 'names.rules' #" + i + " needs 'match' and 'to'");
            }
            try {
                rules.add(new Rule(Pattern.compile(match), r.get("to").asText()));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("topology 'names.rules' #" + i + " has a bad regex: "
                    + e.getDescription() + " in '" + match + "'", e);
            }
            i++;
        }
        return new PortNames(ports, devices, rules);
    }

    public ObjectNode toJson(final ObjectMapper mapper) {
        final ObjectNode o = mapper.createObjectNode();
        if (!ports.isEmpty()) {
            final ObjectNode p = o.putObject("ports");
            new TreeMap<>(ports).forEach(p::put);
        }
        if (!devices.isEmpty()) {
            final ObjectNode d = o.putObject("devices");
            new TreeMap<>(devices).forEach(d::put);
        }
        if (!rules.isEmpty()) {
            final var a = o.putArray("rules");
            rules.forEach(r -> a.addObject().put("match", r.match().pattern()).put("to", r.to()));
        }
        return o;
    }

    /** Binds the names to a fabric: the object the analyzer asks, with its cache. */
    public Resolver bind(final Fabric fabric) {
        return new Resolver(this, fabric);
    }

    /** Resolves telemetry names against one fabric; not thread-safe (one per analysis task). */
    public static final class Resolver implements Serializable {
        private final PortNames names;
        private final Fabric fabric;
        /**
         * By device, its ports by lower-case name; filled at the first name that is no port's exact name (a fabric
         * has ports, so empty means not yet). A telemetry that spells every name as the topology does never needs it,
         * and it sorts every port of the fabric: at 32k GPUs two thirds of a replica's build.
         */
        private final Map<String, Map<String, String>> portsByLowerCase = new HashMap<>();
        /** By device, a port's {@link InterfaceNames#key}; a key two ports share maps to null (never guessed). */
        private final Map<String, Map<String, String>> portsByInterfaceKey = new HashMap<>();
        /** By device, then port: every sample is resolved, so no key string is built for it. */
        private final Map<String, Map<String, Resolution>> cache = new HashMap<>();
        private int cached;
        private int cachedUnknown;

        Resolver(final PortNames names, final Fabric fabric) {
            this.names = names;
            this.fabric = fabric;
        }

        private void indexSpellings() {
            if (!portsByLowerCase.isEmpty()) {
                return;
            }
            for (final PortRef p : fabric.ports()) {
                portsByLowerCase.computeIfAbsent(p.device(), d -> new HashMap<>())
                    .put(p.port().toLowerCase(Locale.ROOT), p.port());
                final String key = InterfaceNames.key(p.port());
                if (key != null) {
                    final Map<String, String> ofDevice = portsByInterfaceKey.computeIfAbsent(p.device(), d -> new HashMap<>());
                    ofDevice.put(key, ofDevice.containsKey(key) ? null : p.port());
                }
            }
        }

        public Resolution resolve(final String device, final String port) {
            final Map<String, Resolution> ofDevice = cache.get(device);
            final Resolution hit = ofDevice == null ? null : ofDevice.get(port);
            if (hit != null) {
                return hit;
            }
            final Resolution r = compute(device, port, device + "/" + port);
            if (r.matched() ? cached < CACHE_LIMIT : cachedUnknown < UNKNOWN_CACHE_LIMIT) {
                cache.computeIfAbsent(device, d -> new HashMap<>()).put(port, r);
                if (r.matched()) {
                    cached++;
                } else {
                    cachedUnknown++;
                }
            }
            return r;
        }

        private Resolution compute(final String device, final String port, final String key) {
            final String explicit = names.ports.get(key);
            if (explicit != null) {
                return exact(split(explicit)).map(Resolution::of).orElse(Resolution.unknownPort());
            }
            final String renamed = names.devices.getOrDefault(device, device);
            final Optional<PortRef> direct = exact(new PortRef(renamed, port));
            if (direct.isPresent()) {
                return Resolution.of(direct.get());
            }
            for (final Rule rule : names.rules) {
                final Optional<PortRef> hit = rule.apply(renamed + "/" + port).map(PortNames::split).flatMap(this::exact);
                if (hit.isPresent()) {
                    return Resolution.of(hit.get());
                }
            }
            return builtIn(renamed, port);
        }

        /** The spellings any fabric has: DNS domain, case, logical unit, quoted list keys. */
        private Resolution builtIn(final String device, final String port) {
            indexSpellings();
            String d = unquote(device);
            if (!portsByLowerCase.containsKey(d) && d.indexOf('.') > 0) {
                d = d.substring(0, d.indexOf('.'));
            }
            final Map<String, String> known = portsByLowerCase.get(d);
            if (known == null) {
                return Resolution.unknownDevice();
            }
            String p = unquote(port).toLowerCase(Locale.ROOT);
            String hit = known.get(p);
            if (hit == null && p.matches(".*\\.\\d+$")) {
                p = p.substring(0, p.lastIndexOf('.'));
                hit = known.get(p);
            }
            if (hit == null) {
                final String key = InterfaceNames.key(p);
                hit = key == null ? null : portsByInterfaceKey.getOrDefault(d, Map.of()).get(key);
            }
            return hit == null ? Resolution.unknownPort() : Resolution.of(new PortRef(d, hit));
        }

        private Optional<PortRef> exact(final PortRef p) {
            return p != null && fabric.linkAt(p).isPresent() ? Optional.of(p) : Optional.empty();
        }

        int cached() {
            return cached;
        }

        int cachedUnknown() {
            return cachedUnknown;
        }
    }

    private static String unquote(final String s) {
        return s.length() >= 2 && (s.charAt(0) == '"' || s.charAt(0) == '\'') && s.charAt(s.length() - 1) == s.charAt(0)
            ? s.substring(1, s.length() - 1) : s;
    }

    /** {@code device/port}, split at the first slash: port names may hold slashes ({@code et-0/0/1}), devices do not. */
    static PortRef split(final String name) {
        final int slash = name.indexOf('/');
        return slash <= 0 || slash == name.length() - 1 ? null
            : new PortRef(name.substring(0, slash), name.substring(slash + 1));
    }

    private static void requirePortName(final String name, final String what) {
        if (split(name) == null) {
            throw new IllegalArgumentException("topology " + what + " must be device/port, was " + Quoted.of(name));
        }
    }

    private static Map<String, String> table(final JsonNode node, final String field) {
        if (node.isMissingNode()) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("topology 'names." + field + "' must be an object of name → name");
        }
        final Map<String, String> map = new HashMap<>();
        node.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue().asText()));
        return map;
    }
}
