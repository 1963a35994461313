package dev.fabrictwin.cluster.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.fabric.Tier;

/** The topology readers on outputs captured from real fabrics by other projects (src/test/resources/refdata). */
class RealTopologyOutputsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static String refdata(final String path) throws IOException {
        try (InputStream in = RealTopologyOutputsTest.class.getResourceAsStream("/refdata/" + path)) {
            if (in == null) {
                throw new IOException("no fixture /refdata/" + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * A 2020 capture of a QDR cluster: 11 switches and 89 HCAs whose descriptions are the vendor defaults (every HCA
     * "MT25408 ConnectX Mellanox Technologies", several switches "Voltaire 4036 - 36 QDR ports switch"): each node
     * keeps its own name (its GUID), no two merge, and every cable is seen from both ends.
     */
    @Test
    void ibnetdiscoverOfARealQdrClusterKeepsDevicesWithDefaultDescriptionsApart() throws IOException {
        final Observations o = Ibnetdiscover.read(refdata("hpc-toolset-x5/X5.topofile"));
        final TopologyMerger.Result r = TopologyMerger.merge(o, List.of(), 40e9, "x5", Technology.INFINIBAND, JSON);
        final Fabric f = FabricJson.fromJson(r.document(), "x5", Technology.INFINIBAND);

        assertThat(f.hosts()).hasSize(89);
        assertThat(f.nodes().stream().filter(n -> !n.isHost()).count()).isEqualTo(11);
        assertThat(r.report().halfSeen()).isEmpty();
        assertThat(r.report().confirmed()).isEqualTo(r.report().links());
        assertThat(f.requireNode("H-003048c749cd0000").isHost()).isTrue();
        // the first switch's port 4 faces that HCA at 4x DDR (20 Gb/s); its port 1 a named switch at 4x QDR
        final var hca = f.linkAt(new PortRef("H-003048c749cd0000", "1")).orElseThrow();
        assertThat(hca.capacityBps()).isEqualTo(20e9);
        assertThat(hca.other(f.requireNode("H-003048c749cd0000").index()))
            .isEqualTo(f.requireNode("S-0008f10500200b50").index());
        assertThat(f.linkAt(new PortRef("S-0008f10500200b50", "1")).orElseThrow().capacityBps()).isEqualTo(40e9);
        assertThat(f.nodes().stream().map(Node::name)).contains("Voltaire_4036_#_4036-8C5C");
    }

    private static Observations lldpctl(final String device, final String file) throws IOException {
        return LldpctlJson.read(device, JSON.readTree(refdata("debian-lldpd/" + file)));
    }

    /**
     * lldpd 1.0.16 on a host whose link has no LLDP agent at its other end prints {@code {"lldp": {}}} ({@code -f json})
     * or {@code {"lldp": [{}]}} ({@code -f json0}): a table with no neighbour, listed in the report, not an error that
     * stops the import of the other devices.
     */
    @Test
    void lldpctlOfAHostWithNoNeighbourIsAnEmptyTableListedInTheReport() throws IOException {
        for (final String file : List.of("gpu02.lldpctl-json.json", "gpu02.lldpctl-json0.json")) {
            final Observations o = lldpctl("gpu02", file);
            assertThat(o.neighbors()).as(file).isEmpty();
            assertThat(o.reporters()).as(file).containsExactly("gpu02");
            assertThat(o.skipped()).as(file).containsExactly("gpu02: an LLDP table with no neighbour (agent just started, or links down)");
        }
        final Observations all = new Observations();
        for (final String device : List.of("leaf01", "spine01", "gpu01", "gpu02")) {
            all.addAll(lldpctl(device, device + ".lldpctl-json0.json"));
        }
        final TopologyMerger.Result r = TopologyMerger.merge(all, List.of(), 400e9, "lab", Technology.ROCE_V2, JSON);
        assertThat(r.report().confirmed()).isEqualTo(2);
        assertThat(r.report().lines()).contains("  skipped: gpu02: an LLDP table with no neighbour (agent just started, or links down)");
        assertThat(r.report().lines().get(0)).endsWith("; 1 source entries skipped");
    }

    /**
     * {@code lldpctl -f json0} (every value a list; Cumulus {@code net show lldp json} prints this shape) of three
     * devices joined by veth pairs under lldpd 1.0.16: the same neighbours as {@code -f json} of the same moment, and a
     * whole fabric from the json0 tables alone (gpu01 advertises Station only, the switches Router).
     */
    @Test
    void lldpctlJson0GivesTheSameNeighboursAsJsonAndAWholeFabric() throws IOException {
        final Observations json0 = lldpctl("leaf01", "leaf01.lldpctl-json0.json");
        assertThat(json0.neighbors()).containsExactly(
            new Neighbor("leaf01", "swp1", "gpu01", "eth0", Double.NaN),
            new Neighbor("leaf01", "swp51", "spine01", "swp1", Double.NaN));
        assertThat(json0.neighbors()).isEqualTo(lldpctl("leaf01", "leaf01.lldpctl-json.json").neighbors());
        assertThat(json0.kinds()).containsEntry("gpu01", Observations.Kind.HOST).containsEntry("spine01", Observations.Kind.SWITCH);

        final Observations all = new Observations();
        for (final String device : List.of("leaf01", "spine01", "gpu01")) {
            all.addAll(lldpctl(device, device + ".lldpctl-json0.json"));
        }
        final TopologyMerger.Result r = TopologyMerger.merge(all, List.of(), 400e9, "lab", Technology.ROCE_V2, JSON);
        final Fabric f = FabricJson.fromJson(r.document(), "lab", Technology.ROCE_V2);
        assertThat(r.report().confirmed()).isEqualTo(2);
        assertThat(r.report().halfSeen()).isEmpty();
        assertThat(f.requireNode("gpu01").isHost()).isTrue();
        assertThat(f.requireNode("leaf01").tier()).isEqualTo(Tier.LEAF);
        assertThat(f.requireNode("spine01").tier()).isEqualTo(Tier.SPINE);
        assertThat(f.linkAt(new PortRef("gpu01", "eth0")).orElseThrow().upper()).isEqualTo(new PortRef("leaf01", "swp1"));
    }

    /**
     * {@code lldpctl -f keyvalue} of the same four namespaces under lldpd 1.0.16 (a later run of the capture script: other
     * MACs, the same cables): each device's neighbours and their kinds as its json and json0 tables give them, gpu02's
     * empty output (lldpctl prints no line without a neighbour) an empty table as json's {@code {"lldp": {}}}, and the
     * same fabric document from the four keyvalue tables as from the four json0 tables.
     */
    @Test
    void lldpctlKeyvalueGivesTheSameNeighboursAndFabricAsJson() throws IOException {
        final Observations leaf = LldpctlKeyvalue.read("leaf01", refdata("debian-lldpd/leaf01.lldpctl-keyvalue.txt"));
        assertThat(leaf.neighbors()).containsExactly(
            new Neighbor("leaf01", "swp1", "gpu01", "eth0", Double.NaN),
            new Neighbor("leaf01", "swp51", "spine01", "swp1", Double.NaN));
        assertThat(leaf.neighbors()).isEqualTo(lldpctl("leaf01", "leaf01.lldpctl-json.json").neighbors());
        assertThat(leaf.kinds()).isEqualTo(lldpctl("leaf01", "leaf01.lldpctl-json.json").kinds())
            .containsEntry("gpu01", Observations.Kind.HOST).containsEntry("spine01", Observations.Kind.SWITCH);
        final Observations empty = LldpctlKeyvalue.read("gpu02", refdata("debian-lldpd/gpu02.lldpctl-keyvalue.txt"));
        assertThat(empty.neighbors()).isEmpty();
        assertThat(empty.reporters()).containsExactly("gpu02");
        assertThat(empty.skipped()).isEqualTo(lldpctl("gpu02", "gpu02.lldpctl-json.json").skipped());

        final Observations keyvalue = new Observations();
        final Observations json0 = new Observations();
        for (final String device : List.of("leaf01", "spine01", "gpu01", "gpu02")) {
            final Observations kv = LldpctlKeyvalue.read(device, refdata("debian-lldpd/" + device + ".lldpctl-keyvalue.txt"));
            final Observations j0 = lldpctl(device, device + ".lldpctl-json0.json");
            assertThat(kv.neighbors()).as(device).isEqualTo(j0.neighbors());
            assertThat(kv.kinds()).as(device).isEqualTo(j0.kinds());
            keyvalue.addAll(kv);
            json0.addAll(j0);
        }
        final TopologyMerger.Result r = TopologyMerger.merge(keyvalue, List.of(), 400e9, "lab", Technology.ROCE_V2, JSON);
        assertThat(r.document()).isEqualTo(TopologyMerger.merge(json0, List.of(), 400e9, "lab", Technology.ROCE_V2, JSON).document());
        assertThat(r.report().confirmed()).isEqualTo(2);
        final Fabric f = FabricJson.fromJson(r.document(), "lab", Technology.ROCE_V2);
        assertThat(f.requireNode("spine01").tier()).isEqualTo(Tier.SPINE);
        assertThat(f.linkAt(new PortRef("gpu01", "eth0")).orElseThrow().upper()).isEqualTo(new PortRef("leaf01", "swp1"));
    }

    /** A keyvalue line's interface may hold dots (a VLAN interface), a value may go on over lines, and other text is refused. */
    @Test
    void lldpctlKeyvalueReadsDottedInterfacesAndMultiLineValuesAndRefusesOtherText() throws IOException {
        // the real capture with its interfaces renamed as VLAN interfaces and a system description of three lines
        final String kv = refdata("debian-lldpd/leaf01.lldpctl-keyvalue.txt").replace("lldp.swp1.", "lldp.swp1.100.")
            .replace("chassis.descr=Debian GNU/Linux 12 (bookworm)", "chassis.descr=Debian\nport.descr=x=y\n");
        assertThat(LldpctlKeyvalue.read("leaf01", kv).neighbors()).containsExactly(
            new Neighbor("leaf01", "swp1.100", "gpu01", "eth0", Double.NaN),
            new Neighbor("leaf01", "swp51", "spine01", "swp1", Double.NaN));

        Assertions.assertThatThrownBy(() -> LldpctlKeyvalue.read("x", "\n-------\nLLDP neighbors:\n"))
            .hasMessage("not lldpctl -f json, json0 or keyvalue output: expected a JSON object or lines "
                + "'lldp.<interface>.<key>=<value>', found line 2: '-------'");
    }

    @Test
    void lldpctlRefusesOtherJsonNamingWhatItExpectedAndFound() {
        Assertions.assertThatThrownBy(() -> LldpctlJson.read("x", JSON.readTree("{\"jobs\": []}")))
            .hasMessage("not lldpctl -f json or json0 output: expected an object with key 'lldp', found an object with keys [jobs]");
    }

    /**
     * sonic-snmpagent's APPL_DB mock: 33 front-panel ports see switch13, and the management port {@code eth1} sees
     * the out-of-band switch14. The management row is no fabric link: skipped and listed.
     */
    @Test
    void sonicManagementPortRowsAreSkippedAndListedNotLinked() throws IOException {
        final Observations o = SonicLldp.read("sonic01", JSON.readTree(refdata("sonic-snmpagent/appl_db.json")));

        assertThat(o.neighbors()).hasSize(33).allSatisfy(n -> {
            assertThat(n.localPort()).startsWith("Ethernet");
            assertThat(n.remoteDevice()).isEqualTo("switch13");
        });
        assertThat(o.neighbors()).contains(new Neighbor("sonic01", "Ethernet0", "switch13", "Ethernet1", Double.NaN));
        assertThat(o.skipped()).containsExactly("sonic01/eth1 → switch14/Ethernet0: a SONiC management port, not a fabric link");
    }

    /**
     * infiniband_exporter's {@code ibnetdiscover -p} fixture (an EDR fabric): both ends, width, rate and both
     * descriptions on each line. The three HCAs are hosts ({@code o0001}, port {@code HCA-1/1}) on two leaves, the
     * switch-to-switch cable is seen from one end only, and the two ports with no peer are counted.
     */
    @Test
    void ibnetdiscoverPortsReportGivesHostsSwitchesAndSpeeds() throws IOException {
        final Observations o = Ibnetdiscover.read(refdata("treydock-ibnetdiscover/ibnetdiscover-p.test.out"));
        assertThat(o.neighbors()).contains(new Neighbor("o0001", "HCA-1/1", "ib-i1l1s01", "10", 100e9),
            new Neighbor("ib-i1l1s01", "1", "ib-i1l2s01", "1", 100e9));
        assertThat(o.skipped()).containsExactly("2 ibnetdiscover -p port lines with no peer (ports without a link)");

        final TopologyMerger.Result r = TopologyMerger.merge(o, List.of(), 200e9, "edr", Technology.INFINIBAND, JSON);
        final Fabric f = FabricJson.fromJson(r.document(), "edr", Technology.INFINIBAND);
        assertThat(r.report().tiers()).containsExactly(Map.entry("host", 3), Map.entry("leaf", 2),
            Map.entry("spine", 1));
        assertThat(r.report().confirmed()).isEqualTo(3);
        assertThat(r.report().halfSeen()).containsExactly("ib-i1l1s01/1 — ib-i1l2s01/1 (only ib-i1l1s01 reports it)");
        assertThat(r.report().warnings()).isEmpty();
        assertThat(f.linkAt(new PortRef("p0001", "HCA-1/1")).orElseThrow().upper()).isEqualTo(new PortRef("ib-i4l1s01", "35"));
        assertThat(f.linkAt(new PortRef("p0001", "HCA-1/1")).orElseThrow().capacityBps()).isEqualTo(100e9);
    }

    /**
     * Arista EOS {@code show lldp neighbors detail | json} (napalm's EOS test data): hosts named by their description when
     * their port id is a MAC, an {@code interfaceName} id unquoted, {@code local} ids as lldpctl's, capabilities as kinds.
     */
    @Test
    void eosLldpJsonGivesNeighboursByPortNameOrDescriptionAndTheirKind() throws IOException {
        final Observations leaf = EosLldpJson.read("leaf1", JSON.readTree(refdata("napalm-eos/normal.show_lldp_neighbors__detail.json")));
        assertThat(leaf.neighbors()).hasSize(41).contains(new Neighbor("leaf1", "Ethernet8", "78m3", "eth3", Double.NaN),
            new Neighbor("leaf1", "Ethernet47", "ms01.bru01", "597", Double.NaN));
        assertThat(leaf.kinds()).containsEntry("ms01.bru01", Observations.Kind.SWITCH).doesNotContainKey("78m3");
        assertThat(leaf.skipped()).isEmpty();

        final Observations quoted = EosLldpJson.read("sw2", JSON.readTree(refdata("napalm-eos/issue1153.show_lldp_neighbors__detail.json")));
        assertThat(quoted.neighbors()).contains(new Neighbor("sw2", "Ethernet27/1", "some-switch", "et-0/0/20", Double.NaN));
        final Observations host = EosLldpJson.read("sw3", JSON.readTree(refdata("napalm-eos/issue903.show_lldp_neighbors__detail.json")));
        assertThat(host.kinds()).containsEntry("linux", Observations.Kind.HOST);

        Assertions.assertThatThrownBy(() -> EosLldpJson.read("x", JSON.readTree("{\"lldp\": {}}")))
            .hasMessage("not EOS 'show lldp neighbors detail | json' output: expected an object with lldpNeighbors, found keys [lldp]");
    }

    private static Observations nxos(final String device) throws IOException {
        return NxosLldpJson.read(device, JSON.readTree(refdata("suzieq-nxos/" + device + ".show_lldp_neighbors_json_native.json")));
    }

    /**
     * Cisco NX-OS 9.3(4) {@code show lldp neighbors | json native} of the eight switches of SuzieQ's NX-OS test fabric: local
     * ports written out ({@code Eth1/1} is {@code Ethernet1/1}, as the neighbours name it), so every spine-leaf cable and each
     * leaf pair's two peer links are confirmed by both ends; the Junos edge router (no table of its own, its ports
     * {@code Locally Assigned} numbers) half-seen. The tables hold no host, so roles name the tiers (the edge router stands
     * for what attaches below the exit leaves).
     */
    @Test
    void nxosLldpJsonOfAWholeFabricConfirmsEveryCableFromBothEnds() throws IOException {
        final Observations leaf = nxos("leaf01");
        assertThat(leaf.neighbors()).containsExactly(
            new Neighbor("leaf01", "Ethernet1/1", "spine01", "Ethernet1/1", Double.NaN),
            new Neighbor("leaf01", "Ethernet1/2", "spine02", "Ethernet1/1", Double.NaN),
            new Neighbor("leaf01", "Ethernet1/5", "leaf02", "Ethernet1/5", Double.NaN),
            new Neighbor("leaf01", "Ethernet1/6", "leaf02", "Ethernet1/6", Double.NaN));
        assertThat(leaf.kinds()).containsEntry("spine01", Observations.Kind.SWITCH).containsEntry("leaf02", Observations.Kind.SWITCH);
        assertThat(nxos("exit01").neighbors()).contains(new Neighbor("exit01", "Ethernet1/4", "dcedge01", "516", Double.NaN));

        final Observations all = new Observations();
        for (final String device : List.of("spine01", "spine02", "leaf01", "leaf02", "leaf03", "leaf04", "exit01", "exit02")) {
            all.addAll(nxos(device));
        }
        // only switches here (every row Bridge/Router, the servers printed no LLDP): the import asks for a host
        Assertions.assertThatThrownBy(() -> TopologyMerger.merge(all, List.of(), 100e9, "nxos", Technology.ROCE_V2, JSON))
            .hasMessageStartingWith("cannot tell hosts from switches in these sources");
        final List<TopologyMerger.Role> roles = List.of(
            new TopologyMerger.Role(Pattern.compile("^dcedge"), Tier.HOST),
            new TopologyMerger.Role(Pattern.compile("^(leaf|exit)"), Tier.LEAF),
            new TopologyMerger.Role(Pattern.compile("^spine"), Tier.SPINE));
        final TopologyMerger.Result r = TopologyMerger.merge(all, roles, 100e9, "nxos", Technology.ROCE_V2, JSON);
        assertThat(r.report().confirmed()).isEqualTo(16);
        assertThat(r.report().halfSeen()).containsExactlyInAnyOrder(
            "exit01/Ethernet1/4 — dcedge01/516 (only exit01 reports it)", "exit02/Ethernet1/4 — dcedge01/517 (only exit02 reports it)");
        assertThat(r.report().asymmetric()).isEmpty();
        assertThat(r.report().tiers()).containsExactly(Map.entry("host", 1), Map.entry("leaf", 6),
            Map.entry("spine", 2));
        final Fabric f = FabricJson.fromJson(r.document(), "nxos", Technology.ROCE_V2);
        assertThat(f.linkAt(new PortRef("leaf03", "Ethernet1/1")).orElseThrow().upper()).isEqualTo(new PortRef("spine01", "Ethernet1/3"));
        assertThat(f.linkAt(new PortRef("leaf04", "Ethernet1/5")).orElseThrow().other(f.requireNode("leaf04").index()))
            .isEqualTo(f.requireNode("leaf03").index());
    }

    /** The real capture's edge-router row moved to mgmt0 is a management link, skipped; other NX-OS JSON is refused in one line. */
    @Test
    void nxosLldpJsonSkipsTheManagementPortAndRefusesOtherJson() throws IOException {
        final String exit01 = refdata("suzieq-nxos/exit01.show_lldp_neighbors_json_native.json");
        final Observations mgmt = NxosLldpJson.read("exit01", JSON.readTree(exit01.replace("\"l_port_id\":\"Eth1/4\"", "\"l_port_id\":\"mgmt0\"")));
        assertThat(mgmt.neighbors()).hasSize(2);
        assertThat(mgmt.skipped()).containsExactly("exit01/mgmt0 → dcedge01/516: an NX-OS management port, not a fabric link");
        assertThat(NxosLldpJson.read("sw", JSON.readTree("{\"neigh_count\": \"0\"}")).skipped())
            .containsExactly("sw: an LLDP table with no neighbour (neigh_count 0)");

        Assertions.assertThatThrownBy(() -> NxosLldpJson.read("x",
                JSON.readTree(refdata("napalm-eos/issue903.show_lldp_neighbors__detail.json"))))
            .hasMessage("not NX-OS 'show lldp neighbors [detail] | json' output: expected an object with TABLE_nbor or "
                + "TABLE_nbor_detail, found keys [lldpNeighbors]");
    }

    /**
     * NX-OS {@code show lldp neighbors detail | json} (NetApp Harvest's captures): the neighbour named by its {@code sys_name}
     * (its {@code chassis_id} is a MAC, or {@code localhost.localdomain} on NetApp's shelves), its port by {@code port_id},
     * the same {@code Eth1/9} → {@code Ethernet1/9}, capabilities and {@code mgmt0} rule as the summary form; as printed on
     * the switch and as NX-API's {@code ins_api} answer.
     */
    @Test
    void nxosLldpDetailJsonNamesNeighboursBySystemNameOnTheSwitchAndInNxApisAnswer() throws IOException {
        final Observations cli = NxosLldpJson.read("nexus1", JSON.readTree(refdata("netapp-harvest-nxos/lldp.json")));
        assertThat(cli.neighbors()).containsExactly(
            new Neighbor("nexus1", "Ethernet1/9", "na2a-mc1-nbg3", "e1b", Double.NaN),
            new Neighbor("nexus1", "Ethernet1/10", "na2b-mc1-nbg3", "e1b", Double.NaN));
        assertThat(cli.skipped()).containsExactly("nexus1/mgmt0 → na2a-mc1-nbg3/e0M: an NX-OS management port, not a fabric link");
        assertThat(cli.kinds()).containsEntry("na2a-mc1-nbg3", Observations.Kind.HOST);

        final Observations api = NxosLldpJson.read("gg28-01", JSON.readTree(refdata("netapp-harvest-nxos/lldp2.json")));
        assertThat(api.neighbors()).hasSize(12).contains(
            new Neighbor("gg28-01", "Ethernet1/1", "sa-tme-flexpod-afx-c1-01", "e4b", Double.NaN),
            new Neighbor("gg28-01", "Ethernet1/21", "021918000242", "e0b", Double.NaN),
            new Neighbor("gg28-01", "Ethernet1/35", "sa-tme-flexpod-9336-fx2-gg28-02", "Ethernet1/35", Double.NaN),
            new Neighbor("gg28-01", "Ethernet1/36", "sa-tme-flexpod-9336-fx2-gg28-02", "Ethernet1/36", Double.NaN));
        assertThat(api.skipped()).containsExactly("gg28-01/mgmt0 → sa-tme-flexpod-3048TP-gg28-01/Ethernet1/44: an NX-OS "
            + "management port, not a fabric link");
        assertThat(api.kinds()).containsEntry("sa-tme-flexpod-9336-fx2-gg28-02", Observations.Kind.SWITCH)
            .containsEntry("sa-tme-flexpod-afx-c2-01", Observations.Kind.HOST);

        // a MAC port id: the detail form has the port's description to name it
        final String mac = refdata("netapp-harvest-nxos/lldp.json").replaceFirst("\"port_type\": \"Interface Name\",\\s*"
            + "\"port_id\": \"e1b\",\\s*\"l_port_id\": \"Eth1/9\",\\s*\"port_desc\": \"null\"",
            "\"port_type\": \"Mac Address\", \"port_id\": \"d039.eaba.f281\", \"l_port_id\": \"Eth1/9\", \"port_desc\": \"e1b\"");
        assertThat(NxosLldpJson.read("nexus1", JSON.readTree(mac)).neighbors())
            .contains(new Neighbor("nexus1", "Ethernet1/9", "na2a-mc1-nbg3", "e1b", Double.NaN));
    }

    /**
     * iblinkinfo of infiniband-diags 44.0 against ibsim 0.10's simulated fabric (a spine, two leaves, four hosts): every
     * link seen from both ends, hosts named as ibnetdiscover names them, 4X SDR = 10 Gb/s, the down ports counted.
     */
    @Test
    void iblinkinfoGivesEveryLinkFromBothEndsWithItsSpeed() throws IOException {
        final Observations o = Iblinkinfo.read(refdata("debian-ibsim/iblinkinfo.txt"));

        assertThat(o.neighbors()).hasSize(12).contains(new Neighbor("gpu01", "mlx5_0/1", "leaf01", "1", 10e9),
            new Neighbor("leaf01", "1", "gpu01", "mlx5_0/1", 10e9), new Neighbor("spine01", "2", "leaf02", "7", 10e9));
        assertThat(o.kinds()).containsEntry("gpu03", Observations.Kind.HOST).containsEntry("spine01", Observations.Kind.SWITCH);
        assertThat(o.skipped()).containsExactly("16 iblinkinfo ports that are down (no link)");

        final TopologyMerger.Result r = TopologyMerger.merge(o, List.of(), 200e9, "sim", Technology.INFINIBAND, JSON);
        assertThat(r.report().tiers()).containsExactly(Map.entry("host", 4), Map.entry("leaf", 2),
            Map.entry("spine", 1));
        assertThat(r.report().confirmed()).isEqualTo(6);

        Assertions.assertThatThrownBy(() -> Iblinkinfo.read("Switch 2 \"S-01\" # \"sw\"\n"))
            .hasMessageStartingWith("line 1: not iblinkinfo output: expected 'CA: <name>:' or 'Switch: 0x<guid> <name>:' blocks");
        Assertions.assertThatThrownBy(() -> Iblinkinfo.read("0x0000000000100007 \"   gpu04 mlx5_0\"  0  1[  ] "
                + "==( 4X 2.5 Gbps Initialize/  LinkUp)==>  0x0000000000200002  0  2[  ] \"leaf02\" ( )\n"))
            .hasMessageStartingWith("line 1: iblinkinfo -l (one line per port, no node types) is not read");
    }

    @Test
    void ibnetdiscoverRefusesOtherTextNamingBothForms() {
        Assertions.assertThatThrownBy(() -> Ibnetdiscover.read("Port 1: up\n"))
            .hasMessageStartingWith("not ibnetdiscover output: expected 'Switch'/'Ca' node lines (ibnetdiscover) or port lines")
            .hasMessageEndingWith("found: Port 1: up");
    }
}
