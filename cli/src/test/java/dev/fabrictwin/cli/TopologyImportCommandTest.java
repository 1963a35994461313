package dev.fabrictwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.testing.kafka.KafkaClusterExtension;
import dev.fabrictwin.testing.kafka.KafkaReads;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.fabric.Tier;

/** {@code topology import} on the small fabric's lldpctl tables: to a file the twin loads, and to fabric.topology. */
public class TopologyImportCommandTest {

    @RegisterExtension
    static final KafkaClusterExtension KAFKA = KafkaClusterExtension.singleBroker();

    private static final ObjectMapper JSON = new ObjectMapper();
    static final Path SMALL_FABRIC = Path.of("src", "test", "resources", "handmade", "small-fabric");

    /** {@code --lldpctl FILE} for every device of the small fabric. */
    public static List<String> lldpctlArgs() throws IOException {
        final List<String> args = new ArrayList<>();
        try (Stream<Path> files = Files.list(SMALL_FABRIC)) {
            files.filter(p -> p.getFileName().toString().matches("(gpu|leaf|spine)\\d+\\.json")).sorted()
                .forEach(p -> {
                    args.add("--lldpctl");
                    args.add(p.toString());
                });
        }
        return args;
    }

    private static FabricTwinCliTest.Run run(final List<String> head, final String... tail) {
        final List<String> args = new ArrayList<>(head);
        args.addAll(List.of(tail));
        return FabricTwinCliTest.run(args.toArray(String[]::new));
    }

    @Test
    void importsTheSmallFabricsLldpTablesIntoADocumentTheTwinLoads(@TempDir final Path dir) throws IOException {
        final Path out = dir.resolve("topology.json");
        final List<String> args = new ArrayList<>(List.of("topology", "import"));
        args.addAll(lldpctlArgs());
        final FabricTwinCliTest.Run run = run(args, "--default-speed", "100G", "--id", "lab", "--out", out.toString(),
            "--strict");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.errLines()).containsExactly("topology import: 8 nodes (4 host, 2 leaf, 2 spine), 8 links: "
            + "8 confirmed by both ends, 0 half-seen, 0 asymmetric, 0 dropped");
        final Fabric f = FabricJson.fromJson(JSON.readTree(out.toFile()), "x", Technology.ROCE_V2);
        assertThat(f.id()).isEqualTo("lab");
        assertThat(f.nodes()).hasSize(8);
        assertThat(f.links()).hasSize(8).allSatisfy(l -> assertThat(l.capacityBps()).isEqualTo(100e9));
        assertThat(f.requireNode("gpu03").tier()).isEqualTo(Tier.HOST);
        assertThat(f.requireNode("leaf02").tier()).isEqualTo(Tier.LEAF);
        assertThat(f.requireNode("spine01").tier()).isEqualTo(Tier.SPINE);
        assertThat(f.requireLinkAt(new PortRef("leaf02", "Ethernet48")).upper()).isEqualTo(new PortRef("spine01", "Ethernet4"));
        assertThat(f.requireLinkAt(new PortRef("gpu02", "eth0")).upper()).isEqualTo(new PortRef("leaf01", "Ethernet4"));
    }

    /** Arista EOS {@code show lldp neighbors detail | json} of a leaf (napalm's EOS test data, cluster-import refdata). */
    @Test
    void importsAnAristaLeafsLldpJson(@TempDir final Path dir) throws IOException {
        final String eos = Path.of("..", "cluster-import", "src", "test", "resources", "refdata", "napalm-eos",
            "normal.show_lldp_neighbors__detail.json").toString();
        final Path out = dir.resolve("topology.json");
        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("topology", "import", "--eos-lldp", "leaf1=" + eos,
            "--out", out.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        final Fabric f = FabricJson.fromJson(JSON.readTree(out.toFile()), "x", Technology.ROCE_V2);
        assertThat(f.requireNode("78m3").tier()).isEqualTo(Tier.HOST);
        assertThat(f.requireNode("leaf1").tier()).isEqualTo(Tier.LEAF);
        assertThat(f.requireLinkAt(new PortRef("78m3", "eth3")).upper()).isEqualTo(new PortRef("leaf1", "Ethernet8"));

        final FabricTwinCliTest.Run unnamed = FabricTwinCliTest.run("topology", "import", "--eos-lldp", eos);
        assertThat(unnamed.exitCode()).isEqualTo(2);
        assertThat(unnamed.errLines()).containsExactly("fabric-twin topology import: --eos-lldp needs NAME=FILE (the output "
            + "does not name its switch), was '" + eos + "'");
    }

    /**
     * {@code lldpctl -f keyvalue} of lldpd 1.0.16 in four network namespaces (cluster-import refdata), given to
     * {@code --lldpctl} as its JSON forms are: the form is recognized; gpu02's empty output is a table with no neighbour
     * (skipped and listed; gpu02, linked to nothing, is no node).
     */
    @Test
    void importsLldpctlKeyvalueOutputs(@TempDir final Path dir) throws IOException {
        final List<String> args = new ArrayList<>(List.of("topology", "import"));
        for (final String device : List.of("leaf01", "spine01", "gpu01", "gpu02")) {
            args.add("--lldpctl");
            args.add(device + "=" + Path.of("..", "cluster-import", "src", "test", "resources", "refdata", "debian-lldpd",
                device + ".lldpctl-keyvalue.txt"));
        }
        final Path out = dir.resolve("topology.json");
        final FabricTwinCliTest.Run run = run(args, "--out", out.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.errLines()[0]).isEqualTo("topology import: 3 nodes (1 host, 1 leaf, 1 spine), 2 links: "
            + "2 confirmed by both ends, 0 half-seen, 0 asymmetric, 0 dropped; 1 source entries skipped");
        assertThat(run.errLines()).contains("  skipped: gpu02: an LLDP table with no neighbour (agent just started, or links down)");
        final Fabric f = FabricJson.fromJson(JSON.readTree(out.toFile()), "x", Technology.ROCE_V2);
        assertThat(f.requireLinkAt(new PortRef("gpu01", "eth0")).upper()).isEqualTo(new PortRef("leaf01", "swp1"));
        assertThat(f.requireLinkAt(new PortRef("leaf01", "swp51")).upper()).isEqualTo(new PortRef("spine01", "swp1"));

        final Path text = dir.resolve("leaf01.txt");
        Files.writeString(text, "-------------------------------------------------------------------------------\nLLDP neighbors:\n");
        final FabricTwinCliTest.Run refused = FabricTwinCliTest.run("topology", "import", "--lldpctl", text.toString());
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.errLines()).containsExactly("fabric-twin topology import: " + text + ": not lldpctl -f json, json0 "
            + "or keyvalue output: expected a JSON object or lines 'lldp.<interface>.<key>=<value>', found line 1: '"
            + "-".repeat(60) + "...'");
    }

    /**
     * Cisco NX-OS 9.3(4) {@code show lldp neighbors | json native} of SuzieQ's eight-switch test fabric (cluster-import
     * refdata): every cable between them confirmed, NX-OS's {@code Eth1/1} written out; the detail form read too.
     */
    @Test
    void importsCiscoNxosLldpJson(@TempDir final Path dir) throws IOException {
        final List<String> args = new ArrayList<>(List.of("topology", "import"));
        for (final String device : List.of("spine01", "spine02", "leaf01", "leaf02", "leaf03", "leaf04", "exit01", "exit02")) {
            args.add("--nxos-lldp");
            args.add(device + "=" + Path.of("..", "cluster-import", "src", "test", "resources", "refdata", "suzieq-nxos",
                device + ".show_lldp_neighbors_json_native.json"));
        }
        final Path out = dir.resolve("topology.json");
        final FabricTwinCliTest.Run run = run(args, "--role", "^dcedge=host", "--role", "^(leaf|exit)=leaf", "--role", "^spine=spine",
            "--default-speed", "100G", "--out", out.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.errLines()[0]).isEqualTo("topology import: 9 nodes (1 host, 6 leaf, 2 spine), 18 links: "
            + "16 confirmed by both ends, 2 half-seen, 0 asymmetric, 0 dropped");
        final Fabric f = FabricJson.fromJson(JSON.readTree(out.toFile()), "x", Technology.ROCE_V2);
        assertThat(f.requireLinkAt(new PortRef("exit02", "Ethernet1/2")).upper()).isEqualTo(new PortRef("spine02", "Ethernet1/6"));

        // the detail form, as NX-API answers it (NetApp Harvest's capture): its neighbours by system name
        final Path detail = Path.of("..", "cluster-import", "src", "test", "resources", "refdata", "netapp-harvest-nxos", "lldp2.json");
        final FabricTwinCliTest.Run flexpod = run(List.of("topology", "import", "--nxos-lldp", "gg28-01=" + detail),
            "--role", "^gg28=leaf", "--default-speed", "100G", "--out", dir.resolve("flexpod.json").toString());
        assertThat(flexpod.exitCode()).as(flexpod.err()).isZero();
        final Fabric storage = FabricJson.fromJson(JSON.readTree(dir.resolve("flexpod.json").toFile()), "x", Technology.ROCE_V2);
        assertThat(storage.requireLinkAt(new PortRef("gg28-01", "Ethernet1/1")).other(storage.requireNode("gg28-01").index()))
            .isEqualTo(storage.requireNode("sa-tme-flexpod-afx-c1-01").index());
    }

    /** iblinkinfo (infiniband-diags 44.0 against ibsim 0.10, cluster-import refdata): an InfiniBand fabric, speeds included. */
    @Test
    void importsIblinkinfo(@TempDir final Path dir) throws IOException {
        final String file = Path.of("..", "cluster-import", "src", "test", "resources", "refdata", "debian-ibsim", "iblinkinfo.txt")
            .toString();
        final Path out = dir.resolve("topology.json");
        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("topology", "import", "--iblinkinfo", file, "--out", out.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.errLines()[0]).isEqualTo("topology import: 7 nodes (4 host, 2 leaf, 1 spine), 6 links: "
            + "6 confirmed by both ends, 0 half-seen, 0 asymmetric, 0 dropped; 1 source entries skipped");
        assertThat(run.err()).contains("16 iblinkinfo ports that are down (no link)");
        final Fabric f = FabricJson.fromJson(JSON.readTree(out.toFile()), "x", Technology.INFINIBAND);
        assertThat(f.requireLinkAt(new PortRef("gpu03", "mlx5_0/1")).upper()).isEqualTo(new PortRef("leaf02", "1"));
        assertThat(f.requireLinkAt(new PortRef("gpu03", "mlx5_0/1")).capacityBps()).isEqualTo(10e9);
    }

    @Test
    void aMissingFileOrABadRoleIsOneLineAndExitTwo() {
        final FabricTwinCliTest.Run missing = FabricTwinCliTest.run("topology", "import", "--lldpctl", "nowhere.json");
        final FabricTwinCliTest.Run role = FabricTwinCliTest.run("topology", "import", "--links", "x.csv", "--role", "gpu=rack");
        final FabricTwinCliTest.Run none = FabricTwinCliTest.run("topology", "import");

        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.errLines()).containsExactly("fabric-twin topology import: file not found: nowhere.json");
        assertThat(role.exitCode()).isEqualTo(2);
        assertThat(role.errLines()).containsExactly("fabric-twin topology import: --role must be REGEX=TIER with TIER host, "
            + "leaf, spine or core, was 'gpu=rack'");
        assertThat(none.errLines()).hasSize(1);
    }

    @Test
    void publishesTheDocumentToFabricTopologyKeyedByItsId() throws IOException {
        final String prefix = KAFKA.uniqueTopic("topo") + ".";
        final List<String> args = new ArrayList<>(List.of("topology", "import"));
        args.addAll(lldpctlArgs());
        final FabricTwinCliTest.Run run = run(args, "--id", "dc1", "--bootstrap", KAFKA.bootstrapServers(),
            "--topic-prefix", prefix);
        assertThat(run.exitCode()).as(run.err()).isZero();

        final Properties p = new Properties();
        p.put("bootstrap.servers", KAFKA.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "topo-reader");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            c.subscribe(List.of(prefix + "fabric.topology"));
            final List<ConsumerRecord<String, String>> read = KafkaReads.readUntil(c, r -> !r.isEmpty(), Duration.ofSeconds(30));
            assertThat(read).extracting(ConsumerRecord::key).containsExactly("dc1");
            assertThat(FabricJson.fromJson(JSON.readTree(read.get(0).value()), "x", Technology.ROCE_V2).links()).hasSize(8);
        }
    }
}
