package dev.fabrictwin.analyzer.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.fabric.FatTree;
import dev.fabrictwin.twin.fabric.RailOptimized;
import dev.fabrictwin.twin.fabric.SpineLeaf;
import dev.fabrictwin.twin.fabric.Technology;

/** The pod rule of {@code fabric_pod_*}: the topology's pods, else runs of leaves; shared switches apart. */
class PodsTest {

    @Test
    void shouldCutTheLeavesOfASpineLeafIntoAtMost32RunsWithTheirHosts() {
        final Pods pods = Pods.of(new SpineLeaf(16, 64, 32, 1, 400e9, 400e9, Technology.ROCE_V2).build("sl"));

        assertPods(pods, 32, Map.of("leaf-0", "leaf-0..leaf-1", "leaf-1", "leaf-0..leaf-1", "leaf-2", "leaf-2..leaf-3",
            "leaf-63", "leaf-62..leaf-63", "host-63", "leaf-0..leaf-1", "host-64", "leaf-2..leaf-3", "spine-15", Pods.SHARED));
        assertThat(pods.byDevice()).hasSize(16 + 64 + 2048);
    }

    @Test
    void shouldGiveEachLeafItsOwnPodOnASmallSpineLeaf() {
        assertPods(Pods.of(new SpineLeaf(8, 16, 16, 1, 400e9, 400e9, Technology.ROCE_V2).build("sl")), 16,
            Map.of("host-17", "leaf-1", "leaf-1", "leaf-1", "spine-0", Pods.SHARED));
    }

    @Test
    void shouldUseTheTopologysPodsOnFatTreesAndRailGroups() {
        assertPods(Pods.of(FatTree.kAry(4, 1, 100e9, 100e9, Technology.ROCE_V2).build("ft")), 4,
            Map.of("leaf-3", "pod-1", "spine-3", "pod-1", "host-15", "pod-3", "core-0", Pods.SHARED));
        assertPods(Pods.of(new RailOptimized(64, 8, 32, 8, 400e9, 400e9, Technology.ROCE_V2).build("rail")), 2,
            Map.of("host-40", "pod-1", "leaf-15", "pod-1", "spine-7", Pods.SHARED));
    }

    @Test
    void shouldCutA32kGpuRailFabricsGroupsIntoRuns() {
        // 4,096 hosts x 8 NICs in 128 groups of 32: runs of 4 groups
        assertPods(Pods.of(new RailOptimized(4_096, 8, 32, 64, 400e9, 400e9, Technology.ROCE_V2).build("rail")), 32,
            Map.of("host-0", "pod-0..pod-3", "host-4095", "pod-124..pod-127", "leaf-1023", "pod-124..pod-127"));
    }

    /** The devices' pods, and how many pods there are besides {@link Pods#SHARED}. */
    private static void assertPods(final Pods pods, final int count, final Map<String, String> expected) {
        expected.forEach((device, pod) -> assertThat(pods.of(device)).as(device).isEqualTo(pod));
        assertThat(pods.byDevice().values().stream().filter(p -> !p.equals(Pods.SHARED)).distinct().count()).isEqualTo(count);
    }
}
