package dev.fabrictwin.cluster.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.fabric.Tier;

/** The readers on hand-written outputs (src/test/resources/handmade/README.md) and the merger on hand-built neighbours. */
class TopologyImportTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static String resource(final String name) throws IOException {
        try (InputStream in = TopologyImportTest.class.getResourceAsStream("/handmade/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static TopologyMerger.Result merge(final Observations o, final TopologyMerger.Role... roles) {
        return TopologyMerger.merge(o, List.of(roles), 400e9, "lab", Technology.ROCE_V2, JSON);
    }

    private static Fabric load(final TopologyMerger.Result r) {
        return FabricJson.fromJson(r.document(), "lab", Technology.ROCE_V2);
    }

    @Test
    void ibnetdiscoverGivesHostsByNameSwitchesByDescriptionAndSpeedsFromWidthAndRate() throws IOException {
        final Observations o = Ibnetdiscover.read(resource("ibnetdiscover-2-switch.txt"));
        final TopologyMerger.Result r = TopologyMerger.merge(o, List.of(), 400e9, "ib", Technology.INFINIBAND, JSON);
        final Fabric f = FabricJson.fromJson(r.document(), "ib", Technology.INFINIBAND);

        assertThat(r.report().tiers()).containsExactly(Map.entry("host", 2), Map.entry("leaf", 1),
            Map.entry("spine", 1));
        assertThat(r.report().confirmed()).isEqualTo(3);
        assertThat(r.report().halfSeen()).isEmpty();
        assertThat(f.linkAt(new PortRef("node01", "mlx5_0/1")).orElseThrow().upper()).isEqualTo(new PortRef("ibleaf01", "1"));
        assertThat(f.linkAt(new PortRef("node01", "mlx5_0/1")).orElseThrow().capacityBps()).isEqualTo(200e9);
        assertThat(f.linkAt(new PortRef("ibleaf01", "33")).orElseThrow().capacityBps()).isEqualTo(400e9);
        assertThat(f.requireNode("ibspine01").tier()).isEqualTo(Tier.SPINE);
        assertThatThrownBy(() -> Ibnetdiscover.read("Switch 2 \"S-01\" # \"sw\"\n[1] garbage"))
            .hasMessage("line 2: not an ibnetdiscover port line: [1] garbage");
    }

    @Test
    void sonicRowsNameTheRemotePortByIdOrByDescriptionWhenTheIdIsAMac() throws IOException {
        final Observations o = SonicLldp.read("leaf07", JSON.readTree(resource("appl_db-lldp.json")));

        assertThat(o.neighbors()).containsExactly(
            new Neighbor("leaf07", "Ethernet0", "gpu09", "ens1f0np0", Double.NaN),
            new Neighbor("leaf07", "Ethernet248", "spine03", "Ethernet8", Double.NaN));
        assertThat(o.kinds()).containsEntry("gpu09", Observations.Kind.HOST).containsEntry("spine03", Observations.Kind.SWITCH);
        final TopologyMerger.Result r = merge(o);
        assertThat(r.report().halfSeen()).hasSize(2);
        assertThat(r.report().warnings()).isEmpty(); // neither gpu09 nor spine03 gave a table of its own
        assertThat(load(r).requireNode("spine03").tier()).isEqualTo(Tier.SPINE);
    }

    @Test
    void lldpctlReadsBothTheObjectAndTheListFormOfItsInterfaces() throws IOException {
        final JsonNode list = JSON.readTree("""
            {"lldp": {"interface": [
              {"swp1": {"chassis": {"gpu01": {"capability": [{"type": "Station", "enabled": true}]}},
                        "port": {"id": {"type": "mac", "value": "0c:42:a1:00:00:01"}, "descr": "eth0"}}},
              {"swp51": {"chassis": {"spine1": {"capability": [{"type": "Bridge", "enabled": true}]}},
                         "port": {"id": {"type": "ifname", "value": "swp1"}, "descr": "to leaf1"}}}]}}
            """);
        final Observations o = LldpctlJson.read("leaf1", list);

        assertThat(o.neighbors()).containsExactly(new Neighbor("leaf1", "swp1", "gpu01", "eth0", Double.NaN),
            new Neighbor("leaf1", "swp51", "spine1", "swp1", Double.NaN));
        assertThat(LldpctlJson.read("gpu01", JSON.readTree("""
            {"lldp": {"interface": {"eth0": {"chassis": {"leaf1": {}}, "port": {"id": {"type": "ifname", "value": "swp1"}}}}}}
            """)).neighbors()).containsExactly(new Neighbor("gpu01", "eth0", "leaf1", "swp1", Double.NaN));
        assertThatThrownBy(() -> LldpctlJson.read("x", JSON.readTree("{}"))).hasMessage("not lldpctl -f json or json0 output: expected an object with key 'lldp', found an object with keys []");
    }

    @Test
    void confirmedClaimsWinAsymmetricOnesAreListedAndHalfSeenOnesKept() {
        final Observations o = new Observations();
        o.reported("leaf1");
        o.reported("leaf2");
        o.reported("spine1");
        // confirmed: leaf1 Ethernet48 — spine1 Ethernet0
        o.add(new Neighbor("leaf1", "Ethernet48", "spine1", "Ethernet0", Double.NaN));
        o.add(new Neighbor("spine1", "Ethernet0", "leaf1", "Ethernet48", Double.NaN));
        // asymmetric: leaf2 says spine1 Ethernet0 (which spine1 gives to leaf1)
        o.add(new Neighbor("leaf2", "Ethernet48", "spine1", "Ethernet0", Double.NaN));
        // half-seen hosts (no LLDP agent) and a half-seen link the reporting spine does not list
        o.add(new Neighbor("leaf1", "Ethernet0", "gpu1", "eth0", 100e9));
        o.add(new Neighbor("leaf2", "Ethernet0", "gpu2", "eth0", Double.NaN));
        o.add(new Neighbor("leaf2", "Ethernet52", "spine1", "Ethernet4", Double.NaN));
        // a port claimed twice and a self-link
        o.add(new Neighbor("leaf1", "Ethernet0", "gpu9", "eth0", Double.NaN));
        o.add(new Neighbor("leaf2", "Ethernet60", "leaf2", "Ethernet61", Double.NaN));

        final TopologyMerger.Result r = merge(o);
        final Fabric f = load(r);

        assertThat(r.report().confirmed()).isEqualTo(1);
        assertThat(r.report().links()).isEqualTo(4);
        assertThat(r.report().asymmetric()).containsExactly("leaf2/Ethernet48 says spine1/Ethernet0, but spine1/Ethernet0 "
            + "says leaf1/Ethernet48 (not kept)");
        assertThat(r.report().halfSeen()).hasSize(3);
        assertThat(r.report().warnings()).containsExactly("spine1 reported a table without Ethernet4 → leaf2/Ethernet52");
        assertThat(r.report().dropped()).hasSize(2);
        assertThat(f.linkAt(new PortRef("gpu1", "eth0")).orElseThrow().capacityBps()).isEqualTo(100e9);
        assertThat(f.linkAt(new PortRef("gpu2", "eth0")).orElseThrow().capacityBps()).isEqualTo(400e9);
        assertThat(f.linkAt(new PortRef("gpu1", "eth0")).orElseThrow().lower().device()).isEqualTo("gpu1");
        assertThat(f.requireNode("spine1").tier()).isEqualTo(Tier.SPINE);
        assertThat(r.report().lines().get(0)).isEqualTo("topology import: 5 nodes (2 host, 2 leaf, 1 spine), 4 links: "
            + "1 confirmed by both ends, 3 half-seen, 1 asymmetric, 2 dropped");
    }

    @Test
    void aLinksFileNeedsNicNamedPortsOrARoleToFindItsHosts() {
        final Observations csv = LinksCsv.read("""
            a_device,a_port,b_device,b_port,speed
            # the plan
            n1,p1,sw1,1,200G
            sw1,49,sw2,1
            """);

        assertThatThrownBy(() -> merge(csv)).hasMessageContaining("cannot tell hosts from switches");
        final TopologyMerger.Result r = merge(csv, new TopologyMerger.Role(Pattern.compile("^n\\d"), Tier.HOST));
        assertThat(load(r).requireNode("sw2").tier()).isEqualTo(Tier.SPINE);
        assertThat(r.report().confirmed()).isEqualTo(2);
        assertThat(merge(LinksCsv.read("gpu1,eth0,sw1,1\n")).report().tiers()).containsEntry("host", 1);
        assertThatThrownBy(() -> LinksCsv.read("a,b,c\n")).hasMessageStartingWith("line 1: expected a_device,a_port");
    }

    @Test
    void gnmicLldpStateInJsonAndEventFormGivesNeighboursOfTheMessagesSource() throws IOException {
        final Observations o = GnmicLldp.read(null, JSON.readTree(resource("gnmic-lldp.json")));

        assertThat(o.neighbors()).containsExactly(new Neighbor("leaf1", "Ethernet1", "spine1", "Ethernet3", Double.NaN),
            new Neighbor("leaf2", "ethernet-1/2", "gpu07", "ens1f0np0", Double.NaN));
        assertThat(o.reporters()).containsExactlyInAnyOrder("leaf1", "leaf2");
        assertThat(GnmicLldp.read("leaf9", JSON.readTree(resource("gnmic-lldp.json"))).neighbors())
            .allMatch(n -> n.localDevice().equals("leaf9"));
    }
}
