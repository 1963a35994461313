package dev.fabrictwin.twin.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class PortNamesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Real interface names: SONiC leaf, Junos spine, hosts named by lldpd. */
    private static final String TOPOLOGY = """
        {"id": "lab",
         "nodes": [{"name": "gpu01", "tier": "host"}, {"name": "gpu02", "tier": "host"},
                   {"name": "leaf01", "tier": "leaf"}, {"name": "spine01", "tier": "spine"}],
         "links": [{"lower": "gpu01/eth0", "upper": "leaf01/Ethernet0", "speed": "400G"},
                   {"lower": "gpu02/eth0", "upper": "leaf01/Ethernet4", "speed": "400G"},
                   {"lower": "leaf01/Ethernet64", "upper": "spine01/et-0/0/1", "speed": "400G"}],
         "names": {"ports": {"gpu02/mlx5_0/1": "gpu02/eth0", "gpu02/mlx5_9/1": "gpu02/eth9"},
                   "devices": {"leaf01-mgmt": "leaf01"},
                   "rules": [{"match": "^(gpu\\\\d+)/mlx5_0/1$", "to": "$1/eth0"}]}}
        """;

    private static PortNames.Resolver resolver() throws Exception {
        final JsonNode doc = JSON.readTree(TOPOLOGY);
        return PortNames.fromJson(doc.get("names")).bind(FabricJson.fromJson(doc, "lab", Technology.ROCE_V2));
    }

    @Test
    void portNamesWithSlashesKeepTheirDeviceWhole() throws Exception {
        final Fabric fabric = FabricJson.fromJson(JSON.readTree(TOPOLOGY), "lab", Technology.ROCE_V2);
        assertThat(fabric.linkAt(new PortRef("spine01", "et-0/0/1"))).isPresent();
    }

    @Test
    void theTopologysOwnNamesMeetThemselves() throws Exception {
        assertThat(resolver().resolve("leaf01", "Ethernet4").port()).isEqualTo(new PortRef("leaf01", "Ethernet4"));
    }

    @Test
    void theExplicitTableWinsAndAnEntryToNoPortIsUnknownPort() throws Exception {
        final PortNames.Resolver r = resolver();
        assertThat(r.resolve("gpu02", "mlx5_0/1").port()).isEqualTo(new PortRef("gpu02", "eth0"));
        assertThat(r.resolve("gpu02", "mlx5_9/1").reason()).isEqualTo("unknown-port");
    }

    @Test
    void rulesRewriteTheDevicePortName() throws Exception {
        assertThat(resolver().resolve("gpu01", "mlx5_0/1").port()).isEqualTo(new PortRef("gpu01", "eth0"));
    }

    @Test
    void aRenamedDeviceKeepsItsPortNames() throws Exception {
        assertThat(resolver().resolve("leaf01-mgmt", "Ethernet64").port()).isEqualTo(new PortRef("leaf01", "Ethernet64"));
    }

    @Test
    void builtInSpellingsDomainCaseLogicalUnitAndQuotes() throws Exception {
        final PortNames.Resolver r = resolver();
        assertThat(r.resolve("leaf01.dc1.example.com", "ethernet0").port()).isEqualTo(new PortRef("leaf01", "Ethernet0"));
        assertThat(r.resolve("spine01", "et-0/0/1.0").port()).isEqualTo(new PortRef("spine01", "et-0/0/1"));
        assertThat(r.resolve("\"spine01\"", "\"et-0/0/1\"").port()).isEqualTo(new PortRef("spine01", "et-0/0/1"));
    }

    /** IOS-XR and NX-OS: CDP/LLDP tables spell interfaces long, telemetry and show output short. */
    private static final String VENDOR_TOPOLOGY = """
        {"id": "lab",
         "nodes": [{"name": "ixia", "tier": "host"}, {"name": "leaf1", "tier": "leaf"}, {"name": "spine1", "tier": "spine"},
                   {"name": "sonic1", "tier": "spine"}],
         "links": [{"lower": "ixia/p1", "upper": "leaf1/HundredGigE0/0/0/0", "speed": "100G"},
                   {"lower": "leaf1/HundredGigE0/0/0/4", "upper": "spine1/Ethernet1/41", "speed": "100G"},
                   {"lower": "leaf1/HundredGigE0/0/0/5", "upper": "sonic1/Ethernet0", "speed": "100G"},
                   {"lower": "leaf1/FourHundredGigE0/0/0/8", "upper": "sonic1/Ethernet8", "speed": "400G"}]}
        """;

    @Test
    void shouldMeetAVendorsShortAndLongInterfaceNames() throws Exception {
        final JsonNode doc = JSON.readTree(VENDOR_TOPOLOGY);
        final PortNames.Resolver r = PortNames.NONE.bind(FabricJson.fromJson(doc, "lab", Technology.ROCE_V2));
        assertThat(r.resolve("leaf1", "Hu0/0/0/4").port()).isEqualTo(new PortRef("leaf1", "HundredGigE0/0/0/4"));
        assertThat(r.resolve("leaf1", "hundredgigabitethernet0/0/0/5").port()).isEqualTo(new PortRef("leaf1", "HundredGigE0/0/0/5"));
        assertThat(r.resolve("leaf1", "FH0/0/0/8").port()).isEqualTo(new PortRef("leaf1", "FourHundredGigE0/0/0/8"));
        assertThat(r.resolve("spine1", "Eth1/41").port()).isEqualTo(new PortRef("spine1", "Ethernet1/41"));
        assertThat(r.resolve("spine1", "Et1/41").port()).isEqualTo(new PortRef("spine1", "Ethernet1/41"));
        assertThat(r.resolve("sonic1", "Et8").port()).isEqualTo(new PortRef("sonic1", "Ethernet8"));
        // the family is part of the key: a 100G name never meets a 400G port with the same numbers
        assertThat(r.resolve("leaf1", "Hu0/0/0/8").reason()).isEqualTo("unknown-port");
        // a SONiC switch's eth0 is its management port, not front-panel Ethernet0
        assertThat(r.resolve("sonic1", "eth0").reason()).isEqualTo("unknown-port");
    }

    @Test
    void shouldNotGuessWhenTwoPortsShareAnInterfaceKey() throws Exception {
        final JsonNode doc = JSON.readTree("""
            {"id": "lab", "nodes": [{"name": "h", "tier": "host"}, {"name": "l", "tier": "leaf"}, {"name": "s", "tier": "spine"}],
             "links": [{"lower": "h/eth0", "upper": "l/Hu0/0", "speed": "100G"},
                       {"lower": "l/Te0/1", "upper": "s/p1", "speed": "10G"},
                       {"lower": "l/TenGigE0/1", "upper": "s/p2", "speed": "10G"}]}
            """);
        final PortNames.Resolver r = PortNames.NONE.bind(FabricJson.fromJson(doc, "lab", Technology.ROCE_V2));
        assertThat(r.resolve("l", "TenGigabitEthernet0/1").reason()).isEqualTo("unknown-port");
        assertThat(r.resolve("l", "Te0/1").port()).isEqualTo(new PortRef("l", "Te0/1"));
    }

    @Test
    void namesThatMeetNothingSayWhy() throws Exception {
        final PortNames.Resolver r = resolver();
        assertThat(r.resolve("printer-7", "eth0")).isEqualTo(PortNames.Resolution.unknownDevice());
        assertThat(r.resolve("leaf01", "Ethernet999")).isEqualTo(PortNames.Resolution.unknownPort());
        assertThat(r.resolve("gpu01", "mlx5_1/1").matched()).isFalse();
    }

    @Test
    void shouldKeepAFloodOfMadeUpNamesToTheSmallCapOfUnknownNames() throws Exception {
        final PortNames.Resolver r = resolver();
        for (int i = 0; i < PortNames.UNKNOWN_CACHE_LIMIT + 1_000; i++) {
            r.resolve("rogue-" + i, "eth0");
        }
        assertThat(r.cachedUnknown()).isEqualTo(PortNames.UNKNOWN_CACHE_LIMIT);
        assertThat(r.cached()).isZero();
        assertThat(r.resolve("rogue-" + (PortNames.UNKNOWN_CACHE_LIMIT + 999), "eth0").reason()).isEqualTo("unknown-device");
        assertThat(r.resolve("gpu01", "eth0").matched()).isTrue();
        assertThat(r.cached()).isEqualTo(1);
    }

    @Test
    void aBadNamesSectionIsRefusedNamingTheEntry() {
        assertThatThrownBy(() -> PortNames.fromJson(JSON.readTree("{\"rules\": [{\"match\": \"(\", \"to\": \"x\"}]}")))
            .hasMessageContaining("names.rules' #0 has a bad regex");
        assertThatThrownBy(() -> PortNames.fromJson(JSON.readTree("{\"ports\": {\"gpu01\": \"gpu01/eth0\"}}")))
            .hasMessageContaining("names.ports key must be device/port, was 'gpu01'");
        assertThatThrownBy(() -> PortNames.fromJson(JSON.readTree("[1]"))).hasMessageContaining("'names' must be an object");
    }

    @Test
    void writesWhatItReads() throws Exception {
        final PortNames names = PortNames.fromJson(JSON.readTree(TOPOLOGY).get("names"));
        final PortNames again = PortNames.fromJson(names.toJson(JSON));
        assertThat(again.ports()).isEqualTo(names.ports());
        assertThat(again.devices()).isEqualTo(names.devices());
        assertThat(again.rules()).extracting(rule -> rule.match().pattern() + " -> " + rule.to())
            .containsExactly("^(gpu\\d+)/mlx5_0/1$ -> $1/eth0");
    }
}
