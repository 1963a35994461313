package dev.fabrictwin.cluster.topology;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * InfiniBand {@code ibnetdiscover} output. A node line ({@code Switch 36 "S-<guid>" # "<description>" ...} or
 * {@code Ca 2 "H-<guid>" # "<description>"}) is followed by its ports' lines ({@code [1](portguid) "S-<guid>"[7] #
 * ... 4xHDR}). A device is named by its description: a CA by its first word (the host name; {@code "node01 mlx5_0"}),
 * its port as {@code <hca>/<n>} when the second word names the HCA, else its number; a switch by its whole
 * description, ports by number. Descriptions left at the vendor's default ({@code "MT25408 ConnectX Mellanox
 * Technologies"} on every HCA of a fabric) name nobody: when two nodes would get the same name, each is named by its
 * GUID instead ({@code S-0008f10500200b50}), so distinct devices never merge. Link speed is width × lane rate (SDR
 * 2.5, DDR 5, QDR 10, FDR10 10, FDR 14, EDR 25, HDR 50, NDR 100, XDR 200 Gb/s).
 */
public final class Ibnetdiscover {

    private static final Pattern NODE = Pattern.compile("^(Switch|Ca|Rt)\\s+\\d+\\s+\"([SHR]-[0-9a-fA-F]+)\".*?#\\s*\"([^\"]*)\"");
    private static final Pattern PORT = Pattern.compile(
        "^\\[(\\d+)\\](?:\\([0-9a-fA-F]+\\))?\\s+\"([SHR]-[0-9a-fA-F]+)\"\\[(\\d+)\\](?:\\([0-9a-fA-F]+\\))?.*?(\\d+)x([A-Z]+\\d*)\\s*$");
    private static final Map<String, Double> LANE_GBPS = Map.of("SDR", 2.5, "DDR", 5.0, "QDR", 10.0, "FDR10", 10.0,
        "FDR", 14.0, "EDR", 25.0, "HDR", 50.0, "NDR", 100.0, "XDR", 200.0);

    private Ibnetdiscover() {
    }

    public static Observations read(final String text) {
        // first pass: every node's name (a port line may name a peer described further down)
        final Map<String, String[]> names = new java.util.HashMap<>();
        final Map<String, Integer> guidsPerName = new java.util.HashMap<>();
        for (final String line : text.split("\\R")) {
            final Matcher m = NODE.matcher(line.strip());
            if (m.find() && !names.containsKey(m.group(2))) {
                final String[] name = name(m.group(1), m.group(3), m.group(2));
                names.put(m.group(2), name);
                guidsPerName.merge(name[0] + "\u0000" + name[1], 1, Integer::sum);
            }
        }
        names.replaceAll((guid, name) -> guidsPerName.get(name[0] + "\u0000" + name[1]) > 1 ? new String[] {guid, ""} : name);
        final Observations out = new Observations();
        String[] current = null;
        int n = 0;
        for (final String raw : text.split("\\R")) {
            n++;
            final String line = raw.strip();
            final Matcher node = NODE.matcher(line);
            if (node.find()) {
                current = names.get(node.group(2));
                out.reported(current[0]);
                out.kind(current[0], node.group(1).equals("Ca") ? Observations.Kind.HOST : Observations.Kind.SWITCH);
                continue;
            }
            if (!line.startsWith("[")) {
                continue;
            }
            final Matcher port = PORT.matcher(line);
            if (current == null || !port.find()) {
                throw new IllegalArgumentException("line " + n + ": not an ibnetdiscover port line: " + line);
            }
            final String[] peer = names.get(port.group(2));
            if (peer == null) {
                throw new IllegalArgumentException("line " + n + ": peer " + port.group(2) + " is not described in the output");
            }
            final Double lane = LANE_GBPS.get(port.group(5));
            final double speed = lane == null ? Double.NaN : Integer.parseInt(port.group(4)) * lane * 1e9;
            out.add(new Neighbor(current[0], current[1] + port.group(1), peer[0], peer[1] + port.group(3), speed));
        }
        return out;
    }

    /** {device, port prefix}: a CA is its host (first word) and its HCA (second word, if any); a switch its description. */
    private static String[] name(final String type, final String description, final String guid) {
        final String d = description.isBlank() ? guid : description.strip();
        if (!type.equals("Ca")) {
            return new String[] {d.replaceAll("\\s+", "_"), ""};
        }
        final String[] words = d.split("\\s+");
        return new String[] {words[0], words.length > 1 && words[1].matches("[A-Za-z][\\w-]*") ? words[1] + "/" : ""};
    }
}
