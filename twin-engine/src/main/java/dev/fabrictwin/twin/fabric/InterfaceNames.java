package dev.fabrictwin.twin.fabric;

import java.util.Locale;
import java.util.Map;

/**
 * One key for the long and short spellings vendors give the same interface: a CDP or LLDP table says
 * {@code HundredGigE0/0/0/4} where the router's telemetry says {@code Hu0/0/0/4}, NX-OS's {@code show} output
 * {@code Eth1/41} where its LLDP says {@code Ethernet1/41}, Arista {@code Et1} for {@code Ethernet1}. The key is the
 * interface family and the numbers after it. A Linux {@code eth0} is not {@code Ethernet0}: on a SONiC switch that is
 * the management port beside front-panel {@code Ethernet0}, so {@code eth} counts as Ethernet only with a slot
 * ({@code Eth1/41}).
 */
final class InterfaceNames {

    /** Every spelling, lower case, to its family. */
    private static final Map<String, String> FAMILIES = Map.ofEntries(
        Map.entry("ethernet", "ethernet"), Map.entry("et", "ethernet"),
        Map.entry("gigabitethernet", "1g"), Map.entry("gige", "1g"), Map.entry("gi", "1g"),
        Map.entry("tengige", "10g"), Map.entry("tengigabitethernet", "10g"), Map.entry("te", "10g"),
        Map.entry("twentyfivegige", "25g"), Map.entry("twentyfivegigabitethernet", "25g"), Map.entry("twe", "25g"),
        Map.entry("tf", "25g"),
        Map.entry("fortygige", "40g"), Map.entry("fortygigabitethernet", "40g"), Map.entry("fo", "40g"),
        Map.entry("fiftygige", "50g"), Map.entry("fiftygigabitethernet", "50g"), Map.entry("fi", "50g"),
        Map.entry("hundredgige", "100g"), Map.entry("hundredgigabitethernet", "100g"), Map.entry("hu", "100g"),
        Map.entry("twohundredgige", "200g"), Map.entry("twohundredgigabitethernet", "200g"),
        Map.entry("fourhundredgige", "400g"), Map.entry("fourhundredgigabitethernet", "400g"), Map.entry("fh", "400g"),
        Map.entry("bundle-ether", "bundle"), Map.entry("be", "bundle"),
        Map.entry("port-channel", "port-channel"), Map.entry("po", "port-channel"));

    private InterfaceNames() {
    }

    /** The family and numbers of a vendor interface name ({@code 100g:0/0/0/4}), or null when it is not one. */
    static String key(final String port) {
        int digit = 0;
        while (digit < port.length() && !Character.isDigit(port.charAt(digit))) {
            digit++;
        }
        if (digit == 0 || digit == port.length()) {
            return null;
        }
        final String prefix = port.substring(0, digit).strip().toLowerCase(Locale.ROOT);
        final String numbers = port.substring(digit);
        final String family = "eth".equals(prefix) && numbers.indexOf('/') > 0 ? "ethernet" : FAMILIES.get(prefix);
        return family == null ? null : family + ":" + numbers;
    }
}
