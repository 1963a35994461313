package dev.fabrictwin.twin.fabric;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Mutable assembly of a {@link Fabric}: add nodes, cable ports; rejects duplicate names and ports. */
final class FabricBuilder {

    private final String id;
    private Technology technology = Technology.ROCE_V2;
    private final List<Node> nodes = new ArrayList<>();
    private final Map<String, Integer> byName = new HashMap<>();
    private final List<Link> links = new ArrayList<>();
    private final Set<PortRef> usedPorts = new HashSet<>();

    public FabricBuilder(final String id) {
        this.id = id;
    }

    public FabricBuilder technology(final Technology technology) {
        this.technology = technology;
        return this;
    }

    public int addNode(final String name, final Tier tier, final int pod) {
        if (byName.containsKey(name)) {
            throw new IllegalArgumentException("duplicate device name " + Quoted.of(name));
        }
        final Node node = new Node(nodes.size(), name, tier, pod);
        nodes.add(node);
        byName.put(name, node.index());
        return node.index();
    }

    public int nodeIndex(final String name) {
        final Integer i = byName.get(name);
        if (i == null) {
            throw new IllegalArgumentException("unknown device " + Quoted.of(name));
        }
        return i;
    }

    /** Cables {@code lowerPort} of {@code lowerNode} (nearer the hosts) to {@code upperPort} of {@code upperNode}. */
    public FabricBuilder connect(final int lowerNode, final String lowerPort, final int upperNode, final String upperPort,
                                 final double capacityBps) {
        final PortRef lower = new PortRef(nodes.get(lowerNode).name(), lowerPort);
        final PortRef upper = new PortRef(nodes.get(upperNode).name(), upperPort);
        if (!usedPorts.add(lower)) {
            throw new IllegalArgumentException("port " + lower + " is cabled twice");
        }
        if (!usedPorts.add(upper)) {
            throw new IllegalArgumentException("port " + upper + " is cabled twice");
        }
        if (lowerNode == upperNode) {
            throw new IllegalArgumentException("link " + lower + " - " + upper + " loops back to its own device");
        }
        links.add(new Link(links.size(), lowerNode, lower, upperNode, upper, capacityBps));
        return this;
    }

    public Fabric build() {
        if (nodes.stream().noneMatch(Node::isHost)) {
            throw new IllegalArgumentException("fabric " + id + " has no hosts");
        }
        return new Fabric(id, technology, nodes, links);
    }
}
