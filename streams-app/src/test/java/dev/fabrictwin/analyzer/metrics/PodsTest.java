package dev.fabrictwin.analyzer.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FatTree;
import dev.fabrictwin.twin.fabric.RailOptimized;
import dev.fabrictwin.twin.fabric.SpineLeaf;
import dev.fabrictwin.twin.fabric.Technology;

/** The pod rule of {@code fabric_pod_*}: the topology's pods, else runs of leaves; shared switches apart. */
class PodsTest {

    @Test
    void shouldCutTheLeavesOfASpineLeafIntoAtMost32RunsWithTheirHosts() {
        final Pods pods = Pods.of(new SpineLeaf(16, 64, 32, 1, 400e9, 400e9, Technology.ROCE_V2).build("sl"));

        assertThat(pods.of("leaf-0")).isEqualTo("pod-0");
        assertThat(pods.of("leaf-1")).isEqualTo("pod-0");
        assertThat(pods.of("leaf-2")).isEqualTo("pod-1");
        assertThat(pods.of("leaf-63")).isEqualTo("pod-31");
        assertThat(pods.of("host-63")).as("on leaf-1").isEqualTo("pod-0");
        assertThat(pods.of("host-64")).as("on leaf-2").isEqualTo("pod-1");
        assertThat(pods.of("spine-15")).isEqualTo(Pods.SHARED);
        assertThat(pods.byDevice()).hasSize(16 + 64 + 2048);
        assertThat(pods.byDevice().values().stream().distinct().count()).isEqualTo(32 + 1);
    }

    @Test
    void shouldGiveEachLeafItsOwnPodOnASmallSpineLeaf() {
        final Pods pods = Pods.of(new SpineLeaf(8, 16, 16, 1, 400e9, 400e9, Technology.ROCE_V2).build("sl"));

        assertThat(pods.byDevice().values().stream().distinct().count()).isEqualTo(16 + 1);
        assertThat(pods.of("host-17")).isEqualTo(pods.of("leaf-1")).isEqualTo("pod-1");
    }

    @Test
    void shouldUseTheTopologysPodsOnFatTreesAndRailGroups() {
        final Fabric fatTree = FatTree.kAry(4, 1, 100e9, 100e9, Technology.ROCE_V2).build("ft");
        final Pods ft = Pods.of(fatTree);
        assertThat(ft.of("leaf-3")).isEqualTo("pod-1");
        assertThat(ft.of("spine-3")).isEqualTo("pod-1");
        assertThat(ft.of("host-15")).isEqualTo("pod-3");
        assertThat(ft.of("core-0")).isEqualTo(Pods.SHARED);

        final Pods rail = Pods.of(new RailOptimized(64, 8, 32, 8, 400e9, 400e9, Technology.ROCE_V2).build("rail"));
        assertThat(rail.of("host-40")).isEqualTo("pod-1");
        assertThat(rail.of("leaf-15")).isEqualTo("pod-1");
        assertThat(rail.of("spine-7")).isEqualTo(Pods.SHARED);
    }
}
