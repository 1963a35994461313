package dev.fabrictwin.analyzer.metrics;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.Tier;

/**
 * The pod each device's ports are summed into for {@code fabric_pod_*} (docs/analyzer.md, Metrics). The units are
 * the topology's pods (a fat-tree pod, a rail-optimized group) where it has them, else its leaves (a 2-tier
 * spine-leaf), each leaf with its hosts. At most {@value #MAX_PODS} pods: more units are cut, in order, into that many
 * runs of equal length, a run named by its first and last unit ({@code pod-0..pod-3}, {@code leaf-0..leaf-1}), a
 * single unit by its name ({@code pod-5}, {@code leaf-3}). A host without a pod is in its leaf's; what serves every
 * pod (spines of a spine-leaf or rail-optimized fabric, fat-tree cores) is in {@value #SHARED}. So the aggregates stay
 * a few hundred series on any fabric.
 */
record Pods(Fabric fabric, Map<String, String> byDevice) {

    /** Pods at most, besides {@link #SHARED}. */
    static final int MAX_PODS = 32;
    /** The pod of the switches every pod shares. */
    static final String SHARED = "shared";

    static Pods of(final Fabric fabric) {
        final Map<String, String> pods = new HashMap<>();
        final int topologyPods = fabric.nodes().stream().mapToInt(Node::pod).max().orElse(-1) + 1;
        final List<String> podNames = IntStream.range(0, topologyPods).mapToObj(p -> "pod-" + p).toList();
        final List<Node> podlessLeaves = fabric.nodes().stream().filter(n -> n.tier() == Tier.LEAF && n.pod() < 0).toList();
        final List<String> leafNames = podlessLeaves.stream().map(Node::name).toList();
        for (int i = 0; i < podlessLeaves.size(); i++) {
            pods.put(leafNames.get(i), run(leafNames, i));
        }
        for (final Node n : fabric.nodes()) {
            if (n.pod() >= 0) {
                pods.put(n.name(), run(podNames, n.pod()));
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

    /** The name of the run unit {@code i} of {@code units} falls in, when they are cut into at most {@value #MAX_PODS}. */
    private static String run(final List<String> units, final int i) {
        final int perRun = (units.size() + MAX_PODS - 1) / MAX_PODS;
        if (perRun <= 1) {
            return units.get(i);
        }
        final int first = i / perRun * perRun;
        return units.get(first) + ".." + units.get(Math.min(units.size(), first + perRun) - 1);
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
