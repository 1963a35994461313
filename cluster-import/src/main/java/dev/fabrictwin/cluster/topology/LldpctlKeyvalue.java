package dev.fabrictwin.cluster.topology;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * lldpd's {@code lldpctl -f keyvalue} output of one device: a line per value, the key the path of its element, an
 * interface's and a capability's name standing for the element ({@code lldp.swp1.chassis.name=gpu01},
 * {@code lldp.swp1.chassis.Station.enabled=on}, {@code lldp.swp1.port.mac=ce:d6:…}, {@code lldp.swp1.port.descr=eth0}).
 * The port id's type is its key ({@code port.ifname}, {@code port.local}, {@code port.mac}, …). Each neighbour starts
 * with its {@code via} line, so an interface with two neighbours repeats its keys. A value lldpd prints with newlines in
 * it (a multi-line system description) goes on over lines without a key. A device with no neighbour prints nothing: an
 * empty table, listed as json's {@code {"lldp": {}}} is. Read into the same neighbours as {@link LldpctlJson}.
 */
public final class LldpctlKeyvalue {

    /** The elements lldpctl prints under an interface: what ends an interface name that may hold dots ({@code eth0.100}). */
    private static final Pattern KEY = Pattern.compile(
        "lldp\\.(.+?)\\.(via|rid|age|chassis|port|vlan|ppvid|pi|lldp-med|unknown-tlvs|ttl)((?:\\..*)?)");
    /** The port id subtypes lldpd names ({@code lldpctl_map} of port id subtypes). */
    private static final Set<String> PORT_ID_TYPES = Set.of("ifalias", "mac", "ip", "ifname", "local", "unhandled");

    private LldpctlKeyvalue() {
    }

    /** What the lines of one neighbour said so far. */
    private static final class Block {
        final String localPort;
        String system;
        final Set<String> enabled = new LinkedHashSet<>();
        String portIdType = "";
        String portId = "";
        String portDescr = "";

        Block(final String localPort) {
            this.localPort = localPort;
        }

        LldpctlJson.Entry entry() {
            return new LldpctlJson.Entry(localPort, system, LldpctlJson.kind(enabled), portIdType, portId, portDescr);
        }
    }

    public static Observations read(final String device, final String text) {
        final List<Block> blocks = new ArrayList<>();
        final String[] lines = text.split("\\R", -1);
        boolean keyed = false;
        for (int i = 0; i < lines.length; i++) {
            final String line = lines[i];
            final int eq = line.indexOf('='); // the key ends at the first '=', a value may hold more
            final Matcher m = KEY.matcher(eq < 0 ? "" : line.substring(0, eq));
            if (!m.matches()) {
                if (!keyed && !line.isBlank()) {
                    throw new IllegalArgumentException("not lldpctl -f json, json0 or keyvalue output: expected a JSON object or "
                        + "lines 'lldp.<interface>.<key>=<value>', found line " + (i + 1) + ": " + shortened(line));
                }
                continue; // the rest of a value printed with newlines in it, or other keys (lldp.<interface>.<unknown>)
            }
            keyed = true;
            final String port = m.group(1);
            final String element = m.group(2);
            Block b = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
            if (b == null || !b.localPort.equals(port) || element.equals("via")) {
                b = new Block(port);
                blocks.add(b);
            }
            final String path = m.group(3);
            final String value = line.substring(eq + 1);
            if (element.equals("chassis")) {
                if (b.system == null) {
                    b.system = ""; // a chassis, named or not, is a neighbour
                }
                if (path.equals(".name")) {
                    b.system = value;
                } else if (path.endsWith(".enabled") && value.equals("on")) {
                    b.enabled.add(path.substring(1, path.length() - ".enabled".length()));
                }
            } else if (element.equals("port")) {
                final String key = path.isEmpty() ? "" : path.substring(1);
                if (key.equals("descr")) {
                    b.portDescr = value;
                } else if (PORT_ID_TYPES.contains(key) && b.portIdType.isEmpty()) {
                    b.portIdType = key;
                    b.portId = value;
                }
            }
        }
        return LldpctlJson.observations(device, blocks.stream().map(Block::entry).toList());
    }

    private static String shortened(final String line) {
        final String s = line.strip();
        return "'" + (s.length() > 60 ? s.substring(0, 60) + "..." : s) + "'";
    }

    /** True when {@code text} is no JSON document (its first character is not '{' or '['): lldpctl's keyvalue form. */
    public static boolean isKeyvalue(final String text) {
        final String s = text.stripLeading();
        return s.isEmpty() || !(s.startsWith("{") || s.startsWith("["));
    }
}
