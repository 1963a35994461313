package dev.fabrictwin.evaluation.clos;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.cluster.topology.LinksCsv;
import dev.fabrictwin.cluster.topology.TopologyMerger;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.fabric.Tier;

/**
 * A set's {@code cdp_map.json} (per router, per interface, the neighbour CDP or LLDP saw) as the links CSV a user
 * would hand {@code topology import --links}, and the topology document that import makes of it, with the roles a
 * user would give: the racks' switches ({@code rsw*}, {@code ssw*}) stand for the traffic generators behind them as
 * hosts, {@code leaf*}, {@code spine*}, and the {@code dr*} routers as core; plain Ethernet, 100G links.
 */
final class CdpTopology {

    static final String FABRIC_ID = "cisco-ie-clos";
    static final List<TopologyMerger.Role> ROLES = List.of(
        new TopologyMerger.Role(Pattern.compile("^(rsw|ssw)"), Tier.HOST),
        new TopologyMerger.Role(Pattern.compile("^leaf"), Tier.LEAF),
        new TopologyMerger.Role(Pattern.compile("^spine"), Tier.SPINE),
        new TopologyMerger.Role(Pattern.compile("^dr\\d"), Tier.CORE));
    private static final double SPEED_BPS = 100e9;

    private CdpTopology() {
    }

    /** {@code a_device,a_port,b_device,b_port}, one line per interface a router reported, in the map's order. */
    static String linksCsv(final JsonNode cdpMap) {
        final StringBuilder out = new StringBuilder("a_device,a_port,b_device,b_port\n");
        for (final Map.Entry<String, JsonNode> device : cdpMap.path("devices").properties()) {
            for (final Map.Entry<String, JsonNode> port : device.getValue().properties()) {
                out.append(device.getKey()).append(',').append(port.getKey()).append(',')
                    .append(port.getValue().path("target_device").asText()).append(',')
                    .append(port.getValue().path("target_port").asText()).append('\n');
            }
        }
        return out.toString();
    }

    /** The topology document and import report, as {@code topology import --links F --role ... --technology ethernet}. */
    static TopologyMerger.Result topology(final JsonNode cdpMap, final ObjectMapper json) {
        return TopologyMerger.merge(LinksCsv.read(linksCsv(cdpMap)), ROLES, SPEED_BPS, FABRIC_ID, Technology.ETHERNET, json);
    }
}
