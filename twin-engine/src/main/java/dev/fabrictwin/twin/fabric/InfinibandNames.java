package dev.fabrictwin.twin.fabric;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How an InfiniBand node is named, by every source that knows its GUID and node description, so a fabric's topology
 * ({@code ibnetdiscover}) and its counters (infiniband_exporter) name the same ports: a CA is its host (the first
 * word of its description) with ports {@code <hca>/<n>} when the second word names the HCA ({@code "node01 mlx5_0"}
 * → {@code node01}, {@code mlx5_0/1}), else numbered; a switch is its whole description (blanks as {@code _}) with
 * numbered ports. A node without description, or whose name another node of the same source shares (descriptions
 * left at the vendor's default), is named by its GUID instead ({@code S-0008f10500200b50}, {@code H-...}).
 */
public final class InfinibandNames {

    /** A node's device name and the prefix of its port numbers ({@code "mlx5_0/"} or empty). */
    public record Name(String device, String portPrefix) {

        public String port(final String number) {
            return portPrefix + number;
        }
    }

    private InfinibandNames() {
    }

    /** The topology file's node name for a GUID: {@code S-}, {@code H-} or {@code R-} and the lower-case hex digits. */
    public static String guidName(final boolean ca, final boolean router, final String hex) {
        final String digits = hex.startsWith("0x") || hex.startsWith("0X") ? hex.substring(2) : hex;
        return (ca ? "H-" : router ? "R-" : "S-") + digits.toLowerCase(Locale.ROOT);
    }

    /** The name its description gives a node ({@code guidName} when the description is blank). */
    public static Name of(final boolean ca, final String description, final String guidName) {
        final String d = description == null || description.isBlank() ? guidName : description.strip();
        if (!ca) {
            return new Name(d.replaceAll("\\s+", "_"), "");
        }
        final String[] words = d.split("\\s+");
        return new Name(words[0], words.length > 1 && words[1].matches("[A-Za-z][\\w-]*") ? words[1] + "/" : "");
    }

    /** The names by GUID name, each name two GUIDs would share replaced by the GUID name (so devices never merge). */
    public static Map<String, Name> unique(final Map<String, Name> byGuidName) {
        final Map<Name, Integer> guidsPerName = new HashMap<>();
        byGuidName.values().forEach(n -> guidsPerName.merge(n, 1, Integer::sum));
        final Map<String, Name> out = new HashMap<>();
        byGuidName.forEach((guid, n) -> out.put(guid, guidsPerName.get(n) > 1 ? new Name(guid, "") : n));
        return out;
    }
}
