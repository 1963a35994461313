package dev.fabrictwin.cluster.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.fabrictwin.twin.fabric.InfinibandNames;
import dev.fabrictwin.twin.fabric.InfinibandNames.Name;

/**
 * InfiniBand {@code ibnetdiscover} output. A node line ({@code Switch 36 "S-<guid>" # "<description>" ...} or
 * {@code Ca 2 "H-<guid>" # "<description>"}) is followed by its ports' lines ({@code [1](portguid) "S-<guid>"[7] #
 * ... 4xHDR}). A device is named by its description: a CA by its first word (the host name; {@code "node01 mlx5_0"}),
 * its port as {@code <hca>/<n>} when the second word names the HCA, else its number; a switch by its whole
 * description, ports by number. Descriptions left at the vendor's default ({@code "MT25408 ConnectX Mellanox
 * Technologies"} on every HCA of a fabric) name nobody: when two nodes would get the same name, each is named by its
 * GUID instead ({@code S-0008f10500200b50}), so distinct devices never merge. Link speed is width × lane rate (SDR
 * 2.5, DDR 5, QDR 10, FDR10 10, FDR 14, EDR 25, HDR 50, NDR 100, XDR 200 Gb/s).
 *
 * <p>{@code ibnetdiscover -p} (the ports report infiniband_exporter runs) is read too: one line per port with both
 * ends, {@code CA 134 1 0x7cfe9003003b4bde 4x EDR - SW 1719 10 0x7cfe9003009ce5b0 ( 'o0001 HCA-1' - 'ib-i1l1s01' )},
 * the node type, LID, port and GUID of each end and both descriptions; a port with no peer ({@code SW 2052 37 0x...
 * 4x ??? 'ib-i4l1s01'}) is no link and is counted. Names follow the same rules, the GUID standing in as above.
 */
public final class Ibnetdiscover {

    private static final Pattern NODE = Pattern.compile("^(Switch|Ca|Rt)\\s+\\d+\\s+\"([SHR]-[0-9a-fA-F]+)\".*?#\\s*\"([^\"]*)\"");
    private static final Pattern PORT = Pattern.compile(
        "^\\[(\\d+)\\](?:\\([0-9a-fA-F]+\\))?\\s+\"([SHR]-[0-9a-fA-F]+)\"\\[(\\d+)\\](?:\\([0-9a-fA-F]+\\))?.*?(\\d+)x([A-Z]+\\d*)\\s*$");
    private static final Map<String, Double> LANE_GBPS = Map.of("SDR", 2.5, "DDR", 5.0, "QDR", 10.0, "FDR10", 10.0,
        "FDR", 14.0, "EDR", 25.0, "HDR", 50.0, "NDR", 100.0, "XDR", 200.0);

    private Ibnetdiscover() {
    }

    private static final Pattern PORTS_LINE = Pattern.compile("^(CA|SW|RT)\\s+\\d+\\s+(\\d+)\\s+0x([0-9a-fA-F]+)\\s+(\\d+)x\\s*(\\S+)"
        + "\\s+-\\s+(CA|SW|RT)\\s+\\d+\\s+(\\d+)\\s+0x([0-9a-fA-F]+)\\s+\\(\\s*'(.*)'\\s+-\\s+'(.*)'\\s*\\)\\s*$");
    private static final Pattern PORTS_UNLINKED = Pattern.compile("^(CA|SW|RT)\\s+\\d+\\s+\\d+\\s+0x([0-9a-fA-F]+)\\s+\\d+x\\s*\\S+\\s+'(.*)'\\s*$");

    public static Observations read(final String text) {
        final boolean ports = text.lines().map(String::strip).anyMatch(l -> PORTS_LINE.matcher(l).matches());
        final Observations out = ports ? readPorts(text) : readTopology(text);
        if (out.neighbors().isEmpty() && out.reporters().isEmpty()) {
            throw new IllegalArgumentException("not ibnetdiscover output: expected 'Switch'/'Ca' node lines (ibnetdiscover) "
                + "or port lines like 'SW 12 1 0x... 4x EDR - CA 7 1 0x... ( 'sw' - 'host mlx5_0' )' (ibnetdiscover -p), "
                + "found: " + text.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).findFirst()
                    .map(l -> l.length() > 80 ? l.substring(0, 80) + "..." : l).orElse("no text"));
        }
        return out;
    }

    /** {@code ibnetdiscover -p}: every line one port, both ends and both descriptions on it. */
    private static Observations readPorts(final String text) {
        final Map<String, String[]> described = new LinkedHashMap<>(); // guid -> {type, description}
        final List<Matcher> links = new ArrayList<>();
        final Set<String> local = new LinkedHashSet<>(); // nodes whose own ports are listed
        int unlinked = 0;
        int n = 0;
        for (final String raw : text.split("\\R")) {
            n++;
            final String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            final Matcher m = PORTS_LINE.matcher(line);
            final Matcher alone = PORTS_UNLINKED.matcher(line);
            if (m.matches()) {
                described.putIfAbsent(guid(m.group(1), m.group(3)), new String[] {m.group(1), m.group(9)});
                described.putIfAbsent(guid(m.group(6), m.group(8)), new String[] {m.group(6), m.group(10)});
                local.add(guid(m.group(1), m.group(3)));
                links.add(m);
            } else if (alone.matches()) {
                described.putIfAbsent(guid(alone.group(1), alone.group(2)), new String[] {alone.group(1), alone.group(3)});
                local.add(guid(alone.group(1), alone.group(2)));
                unlinked++;
            } else {
                throw new IllegalArgumentException("line " + n + ": not an ibnetdiscover -p port line: " + line);
            }
        }
        final Map<String, Name> named = new HashMap<>();
        described.forEach((guid, td) -> named.put(guid, InfinibandNames.of(td[0].equals("CA"), td[1], guid)));
        final Map<String, Name> names = InfinibandNames.unique(named);
        final Observations out = new Observations();
        for (final Map.Entry<String, String[]> e : described.entrySet()) {
            final String device = names.get(e.getKey()).device();
            if (local.contains(e.getKey())) {
                out.reported(device);
            }
            out.kind(device, e.getValue()[0].equals("CA") ? Observations.Kind.HOST : Observations.Kind.SWITCH);
        }
        for (final Matcher m : links) {
            final Name self = names.get(guid(m.group(1), m.group(3)));
            final Name peer = names.get(guid(m.group(6), m.group(8)));
            out.add(new Neighbor(self.device(), self.port(m.group(2)), peer.device(), peer.port(m.group(7)),
                speed(m.group(4), m.group(5))));
        }
        if (unlinked > 0) {
            out.skipped(unlinked + " ibnetdiscover -p port lines with no peer (ports without a link)");
        }
        return out;
    }

    /** The topology file's node name for a GUID: {@code S-}, {@code H-} or {@code R-} and the hex digits. */
    private static String guid(final String type, final String hex) {
        return InfinibandNames.guidName(type.equals("CA"), type.equals("RT"), hex);
    }

    private static double speed(final String width, final String rate) {
        final Double lane = LANE_GBPS.get(rate);
        return lane == null ? Double.NaN : Integer.parseInt(width) * lane * 1e9;
    }

    private static Observations readTopology(final String text) {
        // first pass: every node's name (a port line may name a peer described further down)
        final Map<String, Name> named = new HashMap<>();
        for (final String line : text.split("\\R")) {
            final Matcher m = NODE.matcher(line.strip());
            if (m.find() && !named.containsKey(m.group(2))) {
                named.put(m.group(2), InfinibandNames.of(m.group(1).equals("Ca"), m.group(3), m.group(2)));
            }
        }
        final Map<String, Name> names = InfinibandNames.unique(named);
        final Observations out = new Observations();
        Name current = null;
        int n = 0;
        for (final String raw : text.split("\\R")) {
            n++;
            final String line = raw.strip();
            final Matcher node = NODE.matcher(line);
            if (node.find()) {
                current = names.get(node.group(2));
                out.reported(current.device());
                out.kind(current.device(), node.group(1).equals("Ca") ? Observations.Kind.HOST : Observations.Kind.SWITCH);
                continue;
            }
            if (!line.startsWith("[")) {
                continue;
            }
            final Matcher port = PORT.matcher(line);
            if (current == null || !port.find()) {
                throw new IllegalArgumentException("line " + n + ": not an ibnetdiscover port line: " + line);
            }
            final Name peer = names.get(port.group(2));
            if (peer == null) {
                throw new IllegalArgumentException("line " + n + ": peer " + port.group(2) + " is not described in the output");
            }
            out.add(new Neighbor(current.device(), current.port(port.group(1)), peer.device(), peer.port(port.group(3)),
                speed(port.group(4), port.group(5))));
        }
        return out;
    }
}
