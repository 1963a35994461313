package dev.fabrictwin.twin.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;

class FabricBuildersTest {

    private static final double G400 = 400e9;

    @Test
    void shouldNumberSpineLeafPortsAsTheDesignContractSays() {
        // leaves of 2 hosts x 2 NICs: eth0..eth3 face host NICs in host then NIC order, eth4.. face spines
        final Fabric f = new SpineLeaf(3, 4, 2, 2, G400, 100e9, Technology.ROCE_V2).build("t");

        assertThat(f.hosts()).extracting(Node::name).containsExactly(
            "host-0", "host-1", "host-2", "host-3", "host-4", "host-5", "host-6", "host-7");
        assertThat(peer(f, "leaf-1", "eth0")).isEqualTo(new PortRef("host-2", "nic0"));
        assertThat(peer(f, "leaf-1", "eth1")).isEqualTo(new PortRef("host-2", "nic1"));
        assertThat(peer(f, "leaf-1", "eth3")).isEqualTo(new PortRef("host-3", "nic1"));
        assertThat(peer(f, "leaf-1", "eth4")).isEqualTo(new PortRef("spine-0", "eth1"));
        assertThat(peer(f, "leaf-1", "eth6")).isEqualTo(new PortRef("spine-2", "eth1"));
        assertThat(peer(f, "spine-2", "eth3")).isEqualTo(new PortRef("leaf-3", "eth6"));
        assertThat(f.requireLinkAt(new PortRef("host-0", "nic0")).capacityBps()).isEqualTo(100e9);
        assertThat(f.requireLinkAt(new PortRef("spine-0", "eth0")).capacityBps()).isEqualTo(G400);
        assertThat(f.links()).hasSize(8 * 2 + 4 * 3);
        assertThat(f.nicCount()).isEqualTo(16);
    }

    @Test
    void shouldBuildTheClassicKAryFatTree() {
        final Fabric f = FatTree.kAry(4, 1, G400, G400, Technology.ROCE_V2).build("ft");

        assertThat(f.hosts()).hasSize(16);
        assertThat(f.nodes().stream().filter(n -> n.tier() == Tier.LEAF)).hasSize(8);
        assertThat(f.nodes().stream().filter(n -> n.tier() == Tier.SPINE)).hasSize(8);
        assertThat(f.nodes().stream().filter(n -> n.tier() == Tier.CORE)).hasSize(4);
        // leaf-3 is pod 1's second leaf: eth0..1 hosts, eth2..3 its pod's spines 2 and 3
        assertThat(peer(f, "leaf-3", "eth0")).isEqualTo(new PortRef("host-6", "nic0"));
        assertThat(peer(f, "leaf-3", "eth3")).isEqualTo(new PortRef("spine-3", "eth1"));
        // spine-3 (pod 1, local 1) reaches cores 2 and 3 on eth2, eth3; cores face pod p on eth<p>
        assertThat(peer(f, "spine-3", "eth2")).isEqualTo(new PortRef("core-2", "eth1"));
        assertThat(peer(f, "core-0", "eth3")).isEqualTo(new PortRef("spine-6", "eth2"));
        assertThat(f.requireNode("spine-3").pod()).isEqualTo(1);
    }

    @Test
    void shouldCableNicKOfEveryHostToItsGroupsRailLeafK() {
        final Fabric f = new RailOptimized(6, 4, 3, 2, G400, G400, Technology.INFINIBAND).build("rail");

        // group 1 = hosts 3..5, rail leaves 4..7; NIC 2 of host-4 -> leaf-6, port eth1 (second host of its group)
        assertThat(peer(f, "host-4", "nic2")).isEqualTo(new PortRef("leaf-6", "eth1"));
        assertThat(peer(f, "leaf-6", "eth3")).isEqualTo(new PortRef("spine-0", "eth6"));
        assertThat(f.nicCount()).isEqualTo(24);
        assertThat(f.technology()).isEqualTo(Technology.INFINIBAND);
        assertThat(f.linksBetween("leaf-6", "spine-1")).hasSize(1);
    }

    @Test
    void shouldRoundTripThroughItsJsonForm() {
        final Fabric f = new SpineLeaf(2, 2, 2, 1, G400, 100e9, Technology.ETHERNET).build("rt");
        final ObjectMapper mapper = new ObjectMapper();

        final Fabric back = FabricJson.fromJson(FabricJson.toJson(f, mapper), "x", Technology.ROCE_V2);

        assertThat(back.id()).isEqualTo("rt");
        assertThat(back.technology()).isEqualTo(Technology.ETHERNET);
        assertThat(back.ports()).isEqualTo(f.ports());
        assertThat(back.links()).extracting(Link::capacityBps).isEqualTo(f.links().stream().map(Link::capacityBps).toList());
    }

    @Test
    void shouldRejectABrokenFabricFileWithTheReason() {
        final ObjectMapper mapper = new ObjectMapper();
        assertThatThrownBy(() -> FabricJson.fromJson(mapper.readTree("""
            {"nodes": [{"name": "h", "tier": "host"}, {"name": "l", "tier": "leaf"}],
             "links": [{"lower": "h/nic0", "upper": "l/eth0", "speed": "400G"},
                       {"lower": "h/nic0", "upper": "l/eth1", "speed": "400G"}]}
            """), "bad", Technology.ROCE_V2)).hasMessage("port h/nic0 is cabled twice");
        assertThatThrownBy(() -> FabricJson.fromJson(mapper.readTree("""
            {"nodes": [{"name": "h", "tier": "router"}], "links": []}
            """), "bad", Technology.ROCE_V2)).hasMessageContaining("needs 'tier'");
    }

    private static PortRef peer(final Fabric f, final String device, final String port) {
        final PortRef p = new PortRef(device, port);
        final Link l = f.requireLinkAt(p);
        return l.lower().equals(p) ? l.upper() : l.lower();
    }

    @Test
    void shouldKnowItsLinkCountBeforeBuilding() {
        for (final FabricSpec spec : List.<FabricSpec>of(
            new SpineLeaf(3, 4, 2, 2, G400, 100e9, Technology.ROCE_V2),
            new RailOptimized(7, 4, 3, 2, G400, G400, Technology.INFINIBAND),
            new FatTree(2, 2, 2, 4, 2, 2, G400, G400, G400, Technology.ROCE_V2))) {
            assertThat(spec.linkCount()).as(spec.toString()).isEqualTo(spec.build("n").links().size());
        }
    }

    @Test
    void theTopologyDocumentCarriesTheTransportAndRefusesABadOne() throws Exception {
        final Fabric f = new SpineLeaf(2, 2, 2, 1, G400, G400, Technology.ROCE_V2).build("t");
        final ObjectMapper mapper = new ObjectMapper();
        final var pfc = FabricJson.toJson(f, Transport.PFC, mapper);
        assertThat(pfc.get("transport").asText()).isEqualTo("pfc");
        assertThat(FabricJson.transport(mapper.readTree(mapper.writeValueAsString(pfc)))).isEqualTo(Transport.PFC);
        assertThat(FabricJson.transport(FabricJson.toJson(f, Transport.ECN, mapper))).isEqualTo(Transport.ECN);
        assertThat(FabricJson.toJson(f, mapper).has("transport")).isFalse();
        assertThat(FabricJson.transport(FabricJson.toJson(f, mapper))).isEqualTo(Transport.ECN); // absent: ecn

        pfc.put("transport", "credit");
        assertThatThrownBy(() -> FabricJson.fromJson(pfc, "x", Technology.ROCE_V2)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("transport: unknown transport 'credit' (expected ecn or pfc)");
        pfc.put("transport", 3);
        assertThatThrownBy(() -> FabricJson.transport(pfc)).hasMessage("transport: expected ecn or pfc, was 3");
    }
}
