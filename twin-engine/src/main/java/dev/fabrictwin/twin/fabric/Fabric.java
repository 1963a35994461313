package dev.fabrictwin.twin.fabric;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An immutable fabric: nodes, full-duplex links between named ports, and the technology that sets
 * latencies and MTU. Made by the generators in {@link FabricSpec} or read by {@link FabricJson}, both through
 * {@link FabricBuilder}.
 */
public final class Fabric implements Serializable {

    private final String id;
    private final Technology technology;
    private final List<Node> nodes;
    private final List<Link> links;
    private final List<Node> hosts;
    private final Map<String, Node> nodesByName;
    private final Map<PortRef, Link> linksByPort;
    private final int[][] linksOfNode;
    /** Each directed link's sending node (its reverse's is the receiving one): the simulation reads them at every step. */
    private final int[] txNodes;

    Fabric(final String id, final Technology technology, final List<Node> nodes, final List<Link> links) {
        this.id = Objects.requireNonNull(id, "id");
        this.technology = Objects.requireNonNull(technology, "technology");
        this.nodes = List.copyOf(nodes);
        this.links = List.copyOf(links);
        final Map<String, Node> byName = new HashMap<>();
        final List<Node> hostList = new ArrayList<>();
        for (final Node n : this.nodes) {
            byName.put(n.name(), n);
            if (n.isHost()) {
                hostList.add(n);
            }
        }
        this.nodesByName = Collections.unmodifiableMap(byName);
        hostList.sort((x, y) -> NaturalOrder.compare(x.name(), y.name()));
        this.hosts = List.copyOf(hostList);
        final Map<PortRef, Link> byPort = new HashMap<>();
        final int[] degree = new int[this.nodes.size()];
        for (final Link l : this.links) {
            byPort.put(l.lower(), l);
            byPort.put(l.upper(), l);
            degree[l.lowerNode()]++;
            degree[l.upperNode()]++;
        }
        this.linksByPort = Collections.unmodifiableMap(byPort);
        this.linksOfNode = new int[this.nodes.size()][];
        for (int i = 0; i < degree.length; i++) {
            linksOfNode[i] = new int[degree[i]];
        }
        final int[] fill = new int[this.nodes.size()];
        this.txNodes = new int[2 * this.links.size()];
        for (final Link l : this.links) {
            linksOfNode[l.lowerNode()][fill[l.lowerNode()]++] = l.index();
            linksOfNode[l.upperNode()][fill[l.upperNode()]++] = l.index();
            txNodes[l.up()] = l.lowerNode();
            txNodes[l.down()] = l.upperNode();
        }
    }

    public String id() {
        return id;
    }

    public Technology technology() {
        return technology;
    }

    public List<Node> nodes() {
        return nodes;
    }

    public Node node(final int index) {
        return nodes.get(index);
    }

    public List<Link> links() {
        return links;
    }

    public Link link(final int index) {
        return links.get(index);
    }

    /** Hosts in host order (the order jobs are placed in). */
    public List<Node> hosts() {
        return hosts;
    }

    public int directedLinkCount() {
        return 2 * links.size();
    }

    public Optional<Node> node(final String name) {
        return Optional.ofNullable(nodesByName.get(name));
    }

    public Node requireNode(final String name) {
        final Node n = nodesByName.get(name);
        if (n == null) {
            throw new IllegalArgumentException("no device named " + Quoted.of(name) + " in fabric " + id);
        }
        return n;
    }

    /** The link a port is cabled to. */
    public Optional<Link> linkAt(final PortRef port) {
        return Optional.ofNullable(linksByPort.get(port));
    }

    public Link requireLinkAt(final PortRef port) {
        final Link l = linksByPort.get(port);
        if (l == null) {
            throw new IllegalArgumentException("no cabled port " + port + " in fabric " + id);
        }
        return l;
    }

    /** Link indices attached to a node. */
    public int[] linksOf(final int node) {
        return linksOfNode[node].clone();
    }

    /** Number of links at a node, without copying. */
    public int degree(final int node) {
        return linksOfNode[node].length;
    }

    /** The i-th link of a node, without copying. */
    public int linkOf(final int node, final int i) {
        return linksOfNode[node][i];
    }

    /** Every parallel link between two devices, in either order; empty if they are not neighbours. */
    public List<Link> linksBetween(final String deviceA, final String deviceB) {
        final Node a = requireNode(deviceA);
        final Node b = requireNode(deviceB);
        final List<Link> found = new ArrayList<>();
        for (final int li : linksOfNode[a.index()]) {
            final Link l = links.get(li);
            if (l.other(a.index()) == b.index()) {
                found.add(l);
            }
        }
        return found;
    }

    /** A host's NIC ports in NIC order ({@code nic0, nic1, ...}). */
    public List<PortRef> nicsOf(final Node host) {
        final List<PortRef> nics = new ArrayList<>();
        for (final int li : linksOfNode[host.index()]) {
            nics.add(links.get(li).portOf(host.index()));
        }
        nics.sort(null);
        return nics;
    }

    /** Directed link a port transmits on. */
    public int txLink(final PortRef port) {
        final Link l = requireLinkAt(port);
        return l.lower().equals(port) ? l.up() : l.down();
    }

    /**
     * A cabled port's dense index in {@code [0, directedLinkCount())}: the directed link it transmits on, so its peer's
     * is {@code index ^ 1} and its link's {@code index / 2}. -1 for a port no link has.
     */
    public int portIndex(final PortRef port) {
        final Link l = linksByPort.get(port);
        return l == null ? -1 : l.lower().equals(port) ? l.up() : l.down();
    }

    /** Directed link a port receives from. */
    public int rxLink(final PortRef port) {
        final Link l = requireLinkAt(port);
        return l.lower().equals(port) ? l.down() : l.up();
    }

    /** The port that transmits on a directed link. */
    public PortRef txPort(final int directedLink) {
        final Link l = links.get(directedLink / 2);
        return directedLink % 2 == 0 ? l.lower() : l.upper();
    }

    /** The port that receives from a directed link. */
    public PortRef rxPort(final int directedLink) {
        final Link l = links.get(directedLink / 2);
        return directedLink % 2 == 0 ? l.upper() : l.lower();
    }

    /** Node that transmits on a directed link. */
    public int txNode(final int directedLink) {
        return txNodes[directedLink];
    }

    /** Node that receives from a directed link. */
    public int rxNode(final int directedLink) {
        return txNodes[directedLink ^ 1];
    }

    /** Every cabled port, in natural order. */
    public List<PortRef> ports() {
        final List<PortRef> ports = new ArrayList<>(linksByPort.keySet());
        ports.sort(null);
        return ports;
    }

    /** Number of GPUs (= NIC ports on hosts) in the fabric. */
    public int nicCount() {
        int n = 0;
        for (final Node h : hosts) {
            n += linksOfNode[h.index()].length;
        }
        return n;
    }

    @Override
    public String toString() {
        return "Fabric[" + id + ", " + nodes.size() + " nodes, " + links.size() + " links, " + technology.label() + "]";
    }
}
