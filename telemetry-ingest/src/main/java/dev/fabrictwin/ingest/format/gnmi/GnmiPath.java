package dev.fabrictwin.ingest.format.gnmi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.fabrictwin.ingest.format.support.ListKeys;

/**
 * gNMI paths as gnmic prints them ({@code state/port[port-id=1/1/c1/1]/statistics},
 * {@code /srl_nokia-interfaces:interface[name=ethernet-1/1]/statistics/in-octets},
 * {@code openconfig-interfaces:/interfaces/interface/state/counters}) and the {@link Scope} a path puts its
 * leaves in: which port they belong to, and a qualifier for lists below the port (queues).
 */
final class GnmiPath {

    /**
     * One path element: its name without module prefix, and its list keys (empty for containers and leaves).
     * {@code bareKey}: the keys came in an element of their own, without a name, as Junos sends
     * {@code qmon-sw, {key: {name: xe-0/0/0:0}}}; they belong to the element before.
     */
    record Elem(String name, Map<String, String> keys, boolean bareKey) {
        Elem(final String name, final Map<String, String> keys) {
            this(name, keys, false);
        }
    }

    /** Keys that name a queue whatever the list is called (Junos {@code egress[queue-number=3]}). */
    private static final List<String> QUEUE_KEYS = List.of("queue-number", "queue-id", "queue-name", "queue", "queue_number");
    /** The key of IOS-XR's interface lists, whatever the list is called ({@code interface-brief}). */
    static final String INTERFACE_NAME_KEY = "interface-name";
    /** Keys that name an interface in a vendor's own sensor path. */
    private static final List<String> INTERFACE_KEYS = List.of("name", INTERFACE_NAME_KEY, "if-name", "interface");

    private GnmiPath() {
    }

    /**
     * Paths already parsed: a collector repeats the same few hundred path strings in every message, and parsing
     * them again was an eighth of ingest --from-topic's time. Bounded: past {@value #CACHED_PATHS} paths, or for a
     * path longer than {@value #CACHED_PATH_LENGTH} characters, parsing is done each time.
     */
    private static final Map<String, List<Elem>> PARSED = new ConcurrentHashMap<>();
    private static final int CACHED_PATHS = 4096;
    private static final int CACHED_PATH_LENGTH = 512;

    /** Parses a path string; tolerant: unbalanced brackets end the key at the end of the string. Unmodifiable. */
    static List<Elem> parse(final String path) {
        if (path == null || path.isEmpty()) {
            return List.of();
        }
        final List<Elem> cached = PARSED.get(path);
        if (cached != null) {
            return cached;
        }
        final List<Elem> parsed = Collections.unmodifiableList(parseUncached(path));
        if (path.length() <= CACHED_PATH_LENGTH && PARSED.size() < CACHED_PATHS) {
            PARSED.putIfAbsent(path, parsed);
        }
        return parsed;
    }

    private static List<Elem> parseUncached(final String path) {
        String p = path.strip();
        final int originEnd = p.indexOf(":/");
        if (originEnd > 0 && p.substring(0, originEnd).indexOf('/') < 0 && p.substring(0, originEnd).indexOf('[') < 0) {
            p = p.substring(originEnd + 1); // "openconfig-interfaces:/interfaces/..." names an origin
        }
        final List<Elem> out = new ArrayList<>();
        final StringBuilder name = new StringBuilder();
        Map<String, String> keys = new LinkedHashMap<>();
        int i = 0;
        while (i < p.length()) {
            final char c = p.charAt(i);
            if (c == '/') {
                add(out, name, keys);
                name.setLength(0);
                keys = new LinkedHashMap<>();
                i++;
            } else if (c == '[') {
                final StringBuilder key = new StringBuilder();
                i++;
                while (i < p.length() && p.charAt(i) != ']') {
                    if (p.charAt(i) == '\\' && i + 1 < p.length()) {
                        i++;
                    }
                    key.append(p.charAt(i));
                    i++;
                }
                i++; // the ']'
                final int eq = key.indexOf("=");
                if (eq > 0) {
                    keys.put(stripModule(key.substring(0, eq)), key.substring(eq + 1));
                }
            } else {
                name.append(c);
                i++;
            }
        }
        add(out, name, keys);
        return out;
    }

    private static void add(final List<Elem> out, final StringBuilder name, final Map<String, String> keys) {
        final String n = stripModule(name.toString().strip());
        if (!n.isEmpty()) {
            out.add(new Elem(n, keys.isEmpty() ? Map.of() : Collections.unmodifiableMap(keys)));
        }
    }

    /** {@code srl_nokia-interfaces:interface} → {@code interface}; {@code oc-if:counters} → {@code counters}. */
    static String stripModule(final String name) {
        final int colon = name.lastIndexOf(':');
        return colon < 0 ? name : name.substring(colon + 1);
    }

    /** The last element's name (the leaf), or the whole text without module prefix if it has no elements. */
    static String leafName(final List<Elem> elems, final String fallback) {
        return elems.isEmpty() ? stripModule(fallback) : elems.get(elems.size() - 1).name();
    }

    /**
     * Where a leaf sits: its port (null if no interface/port list key was seen), whether an interface or port
     * list was crossed at all (so an interface {@code name} leaf may name the port), a qualifier prefixed to leaf
     * names for lists below the port ({@code subinterface.0.}, Junos {@code egress.}), and the queue the leaf
     * belongs to (null for a port value), which {@code SampleValues} appends as {@code <name>.q<N>}.
     */
    record Scope(String port, boolean portListSeen, String qualifier, String queue) {

        static final Scope ROOT = new Scope(null, false, "", null);

        /** Enters every list element of a path. */
        Scope enterAll(final List<Elem> elems) {
            Scope s = this;
            for (final Elem e : elems) {
                s = e.bareKey() && s.port == null && pickOrNull(e.keys(), INTERFACE_KEYS) != null
                    ? new Scope(ListKeys.unquote(pickOrNull(e.keys(), INTERFACE_KEYS)), true, "", null)
                    : s.enter(e.name(), e.keys());
            }
            return s;
        }

        /**
         * Enters one path element. Interface and port lists set the port ({@code interface[name=X]},
         * {@code port[port-id=X]}, qos {@code interface[interface-id=X]}); a subinterface appends
         * {@code .index} as SR Linux names subinterfaces; a queue list, or any list keyed by a queue number, sets
         * the queue; any other list keyed by {@code interface-name} names the port when none is set yet (IOS-XR's
         * {@code interface-brief[interface-name=X]}); any other keyed list below a port adds {@code <list>.<key>.} so
         * its leaves cannot overwrite the port's; keyed lists above any port (network-instance, ...) are ignored.
         */
        Scope enter(final String list, final Map<String, String> keys) {
            switch (list) {
                case "interface", "port" -> {
                    if (keys.isEmpty()) {
                        return new Scope(port, true, qualifier, queue);
                    }
                    final String id = pick(keys, "name", "interface-id", "port-id", "id");
                    return new Scope(ListKeys.unquote(id), true, "", null);
                }
                case "subinterface" -> {
                    if (keys.isEmpty()) {
                        return this;
                    }
                    final String index = pick(keys, "index", "name", "id");
                    return port != null ? new Scope(port + "." + index, portListSeen, qualifier, queue)
                        : new Scope(null, portListSeen, qualifier + "subinterface." + index + ".", queue);
                }
                case "queue" -> {
                    if (keys.isEmpty()) {
                        return this;
                    }
                    return new Scope(port, portListSeen, qualifier, pick(keys, "name", "queue-name", "id"));
                }
                default -> {
                    final String queueKey = pickOrNull(keys, QUEUE_KEYS);
                    if (queueKey != null) {
                        return new Scope(port, portListSeen, qualifier + list + ".", queueKey);
                    }
                    final String interfaceName = keys.get(INTERFACE_NAME_KEY);
                    if (port == null && interfaceName != null) {
                        return new Scope(ListKeys.unquote(interfaceName), true, "", null);
                    }
                    if (keys.isEmpty() || port == null) {
                        return this;
                    }
                    return new Scope(port, portListSeen, qualifier + list + "." + pick(keys, "name", "id", "index") + ".",
                        queue);
                }
            }
        }

        private static String pick(final Map<String, String> keys, final String... preferred) {
            final String v = pickOrNull(keys, List.of(preferred));
            return v != null ? v : keys.values().iterator().next();
        }

        private static String pickOrNull(final Map<String, String> keys, final List<String> preferred) {
            for (final String k : preferred) {
                final String v = keys.get(k);
                if (v != null) {
                    return v;
                }
            }
            return null;
        }
    }
}
