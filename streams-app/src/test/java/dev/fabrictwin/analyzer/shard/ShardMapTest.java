package dev.fabrictwin.analyzer.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FatTree;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.RailOptimized;
import dev.fabrictwin.twin.fabric.SpineLeaf;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.fabric.Tier;
import dev.fabrictwin.twin.workload.JobSpec;
import dev.fabrictwin.twin.workload.Pattern;
import dev.fabrictwin.twin.workload.Placement;

class ShardMapTest {

    private static final Fabric SPINE_LEAF = new SpineLeaf(4, 8, 4, 1, 100e9, 100e9, Technology.ROCE_V2).build("sl");

    private int shardOf(final ShardMap map, final Fabric fabric, final String device, final String port) {
        return map.ofPort(fabric.portIndex(new PortRef(device, port)));
    }

    @Test
    void aSpineLeafIsCutByLeafEachLeafWithItsHostsAndUplinks() {
        final ShardMap map = ShardMap.of(SPINE_LEAF, 4);
        assertThat(map.linksPerShard()).containsExactly(16, 16, 16, 16); // 2 leaves × (4 host links + 4 uplinks)
        for (final Link l : SPINE_LEAF.links()) {
            final Node lower = SPINE_LEAF.node(l.lowerNode());
            final int leaf = lower.tier() == Tier.LEAF ? Integer.parseInt(lower.name().substring(5))
                : Integer.parseInt(SPINE_LEAF.node(l.upperNode()).name().substring(5));
            assertThat(map.ofLink(l.index())).as("%s", l).isEqualTo(leaf / 2);
            assertThat(map.ofPort(l.up())).isEqualTo(map.ofPort(l.down())); // both ends of a link together
        }
    }

    @Test
    void spinesServingEveryLeafAreTheBoundaryHostsAndLeavesAreNot() {
        final ShardMap map = ShardMap.of(SPINE_LEAF, 4);
        for (final Node n : SPINE_LEAF.nodes()) {
            assertThat(map.boundary(n.index())).as(n.name()).isEqualTo(n.tier() == Tier.SPINE);
        }
        assertThat(ShardMap.of(SPINE_LEAF, 1).boundary(SPINE_LEAF.requireNode("spine-0").index())).isFalse();
    }

    @Test
    void aRailOptimizedFabricIsCutByRailGroup() {
        final Fabric rail = new RailOptimized(64, 8, 16, 8, 400e9, 400e9, Technology.ROCE_V2).build("rail");
        final ShardMap map = ShardMap.of(rail, 4);
        assertThat(map.linksPerShard()).allMatch(n -> n.equals(map.linksPerShard().get(0)));
        assertThat(shardOf(map, rail, "host-0", "nic0")).isEqualTo(0);
        assertThat(shardOf(map, rail, "host-63", "nic7")).isEqualTo(3);
        assertThat(shardOf(map, rail, "host-16", "nic3")).isEqualTo(1);
    }

    @Test
    void aFatTreeIsCutByPodItsCoreLinksWithTheirSpinesPod() {
        final Fabric tree = new FatTree(4, 2, 2, 4, 2, 1, 100e9, 100e9, 100e9, Technology.ROCE_V2).build("ft");
        final ShardMap map = ShardMap.of(tree, 2);
        for (final Link l : tree.links()) {
            final Node lower = tree.node(l.lowerNode());
            assertThat(map.ofLink(l.index())).as("%s", l).isEqualTo(lower.pod() * 2 / 4);
        }
        tree.nodes().stream().filter(n -> n.tier() == Tier.CORE)
            .forEach(core -> assertThat(map.boundary(core.index())).as(core.name()).isTrue());
    }

    @Test
    void aJobIsAtHomeInTheShardHoldingMostOfItsNics() {
        final ShardMap map = ShardMap.of(SPINE_LEAF, 4);
        final var job = Placement.place(SPINE_LEAF, List.of(
            new JobSpec("j", 4, List.of("host-3", "host-12", "host-13", "host-14"),
                Pattern.RING_ALLREDUCE, 1_000_000_000L, Duration.ofSeconds(1), 0.5)),
            1).get(0);
        assertThat(map.homeOf(SPINE_LEAF, job)).isEqualTo(1); // host-12..14 under leaf-3 (shard 1), host-3 under leaf-0
    }

    @Test
    void moreShardsThanDomainsIsRefused() {
        assertThatThrownBy(() -> ShardMap.of(SPINE_LEAF, 9)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("8 domains");
    }
}
