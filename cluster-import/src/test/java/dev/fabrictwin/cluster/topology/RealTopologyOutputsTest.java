package dev.fabrictwin.cluster.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.Technology;

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
}
