package dev.fabrictwin.analyzer.metrics;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.Tier;

/**
 * The pod each device's ports are summed into for {@code fabric_pod_*} (docs/analyzer.md, Metrics): a device the
 * topology places in a pod (a fat-tree pod, a rail-optimized group) is in {@code pod-<n>}; on a fabric without pods
 * (a 2-tier spine-leaf) the leaves, in topology order, are cut into at most {@value #MAX_LEAF_GROUPS} runs of equal
 * length, {@code pod-0} the first; a host without a pod is in its leaf's; what serves every pod (spines of a spine-leaf
 * or rail-optimized fabric, fat-tree cores) is in {@value #SHARED}. At most a few dozen pods on any fabric, so the
 * aggregates stay few at any size.
 */
record Pods(Fabric fabric, Map<String, String> byDevice) {

    /** Leaf groups at most on a fabric without pods. */
    static final int MAX_LEAF_GROUPS = 32;
    /** The pod of the switches every pod shares. */
    static final String SHARED = "shared";

    static Pods of(final Fabric fabric) {
        final List<Node> podlessLeaves = fabric.nodes().stream().filter(n -> n.tier() == Tier.LEAF && n.pod() < 0).toList();
        final int perGroup = Math.max(1, (podlessLeaves.size() + MAX_LEAF_GROUPS - 1) / MAX_LEAF_GROUPS);
        final Map<String, String> pods = new HashMap<>();
        for (int i = 0; i < podlessLeaves.size(); i++) {
            pods.put(podlessLeaves.get(i).name(), "pod-" + i / perGroup);
        }
        for (final Node n : fabric.nodes()) {
            if (n.pod() >= 0) {
                pods.put(n.name(), "pod-" + n.pod());
            }
        }
        for (final Node n : fabric.nodes()) {
            pods.computeIfAbsent(n.name(), name -> n.isHost() ? leafPod(fabric, n, pods) : SHARED);
        }
        return new Pods(fabric, Map.copyOf(pods));
    }

    /** The pod of the device (every device of the fabric has one). */
    String of(final String device) {
        return byDevice.getOrDefault(device, SHARED);
    }

    private static String leafPod(final Fabric fabric, final Node host, final Map<String, String> pods) {
        for (int i = 0; i < fabric.degree(host.index()); i++) {
            final Node peer = fabric.node(fabric.link(fabric.linkOf(host.index(), i)).other(host.index()));
            if (peer.tier() == Tier.LEAF) {
                return pods.getOrDefault(peer.name(), SHARED);
            }
        }
        return SHARED;
    }
}
