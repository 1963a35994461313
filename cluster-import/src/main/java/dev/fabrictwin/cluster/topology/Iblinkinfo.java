package dev.fabrictwin.cluster.topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.fabrictwin.twin.fabric.InfinibandNames;
import dev.fabrictwin.twin.fabric.InfinibandNames.Name;

/**
 * InfiniBand {@code iblinkinfo} (infiniband-diags), its default output: a block per node, {@code CA: <description>:}
 * or {@code Switch: 0x<guid> <description>:}, then a line per port, {@code [0x<portguid>] <lid> <port>[  ] ==( 4X
 * 25.78125 Gbps Active/  LinkUp)==> <peer lid> <peer port>[  ] "<peer description>" ( )}. Peers are named only by
 * their description, so every peer must have its own block; nodes are named as {@code ibnetdiscover}'s are
 * ({@link InfinibandNames}: a CA {@code "gpu01 mlx5_0"} is host {@code gpu01}, port {@code mlx5_0/1}). Speed is width ×
 * the lane's data rate (the signalling rates iblinkinfo prints: 14.0625 FDR = 14, 25.78125 EDR = 25, 53.125 HDR = 50,
 * 106.25 NDR = 100 Gb/s). Ports that are down ({@code ==( Down/ Polling)==>}) are no link and are counted.
 */
public final class Iblinkinfo {

    private static final Pattern HEADER = Pattern.compile("^(CA|Switch):\\s+(?:(0x[0-9a-fA-F]+)\\s+)?(.*):$");
    private static final Pattern PORT = Pattern.compile("^(?:0x[0-9a-fA-F]+\\s+)?\\d+\\s+(\\d+)\\[[^\\]]*\\]\\s+==\\((.*?)\\)==>\\s*(.*)$");
    private static final Pattern LINK = Pattern.compile("^\\s*(\\d+)X\\s+([0-9.]+)\\s+Gbps.*");
    private static final Pattern PEER = Pattern.compile("^\\d+\\s+(\\d+)\\[[^\\]]*\\]\\s+\"(.*)\"\\s+\\(.*\\)\\s*$");
    private static final Pattern UNLINKED = Pattern.compile("^\\[[^\\]]*\\]\\s+\"\"\\s+\\(.*\\)\\s*$");
    private static final Map<String, Double> LANE_GBPS = Map.of("2.5", 2.5, "5.0", 5.0, "10.0", 10.0, "14.0625", 14.0,
        "25.78125", 25.0, "53.125", 50.0, "106.25", 100.0, "212.5", 200.0);

    private Iblinkinfo() {
    }

    private record Link(String node, String port, String peer, String peerPort, double speed) {
    }

    public static Observations read(final String text) {
        final Map<String, Boolean> nodes = new LinkedHashMap<>(); // description -> is a CA
        final List<Link> links = new ArrayList<>();
        String current = null;
        int down = 0;
        int n = 0;
        for (final String raw : text.split("\\R")) {
            n++;
            final String line = raw.strip();
            if (line.isEmpty()) {
                continue;
            }
            final Matcher header = HEADER.matcher(line);
            if (header.matches()) {
                current = header.group(3).strip();
                if (nodes.put(current, header.group(1).equals("CA")) != null) {
                    throw new IllegalArgumentException("line " + n + ": two nodes are described '" + current + "': iblinkinfo "
                        + "names peers by description only, so they cannot be told apart (ibnetdiscover names them by GUID)");
                }
                continue;
            }
            if (current == null && line.matches("0x[0-9a-fA-F]+\\s+\".*")) {
                throw new IllegalArgumentException("line " + n + ": iblinkinfo -l (one line per port, no node types) is not "
                    + "read: give iblinkinfo's default output, 'CA: <name>:' / 'Switch: 0x<guid> <name>:' blocks");
            }
            final Matcher port = PORT.matcher(line);
            if (current == null || !port.matches()) {
                throw new IllegalArgumentException("line " + n + ": not iblinkinfo output: expected 'CA: <name>:' or "
                    + "'Switch: 0x<guid> <name>:' blocks of port lines '<lid> <port>[ ] ==( 4X ... )==> <lid> <port>[ ] \"<peer>\"', "
                    + "found: " + (line.length() > 80 ? line.substring(0, 80) + "..." : line));
            }
            final Matcher peer = PEER.matcher(port.group(3).strip());
            if (!peer.matches()) {
                if (UNLINKED.matcher(port.group(3).strip()).matches()) {
                    down++;
                    continue;
                }
                throw new IllegalArgumentException("line " + n + ": not an iblinkinfo port line: " + line);
            }
            final Matcher rate = LINK.matcher(port.group(2));
            final double speed = rate.matches()
                ? Integer.parseInt(rate.group(1)) * LANE_GBPS.getOrDefault(rate.group(2), Double.parseDouble(rate.group(2))) * 1e9
                : Double.NaN;
            links.add(new Link(current, port.group(1), peer.group(2), peer.group(1), speed));
        }
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("not iblinkinfo output: expected 'CA: <name>:' or 'Switch: 0x<guid> <name>:' "
                + "blocks, found no text");
        }
        final Map<String, Name> names = new LinkedHashMap<>();
        nodes.forEach((d, ca) -> names.put(d, InfinibandNames.of(ca, d, d)));
        final Observations out = new Observations();
        nodes.forEach((d, ca) -> {
            out.reported(names.get(d).device());
            out.kind(names.get(d).device(), ca ? Observations.Kind.HOST : Observations.Kind.SWITCH);
        });
        for (final Link l : links) {
            final Name self = names.get(l.node());
            final Name peer = names.get(l.peer());
            if (peer == null) {
                throw new IllegalArgumentException("peer '" + l.peer() + "' of " + self.device() + "/" + self.port(l.port())
                    + " has no block of its own in the output (run iblinkinfo on the whole fabric)");
            }
            out.add(new Neighbor(self.device(), self.port(l.port()), peer.device(), peer.port(l.peerPort()), l.speed()));
        }
        if (down > 0) {
            out.skipped(down + " iblinkinfo ports that are down (no link)");
        }
        return out;
    }
}
