package dev.fabrictwin.analyzer.shard;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.fabrictwin.analyzer.detect.ShardView;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.Tier;
import dev.fabrictwin.twin.workload.PlacedJob;

/**
 * Which analysis shard judges each link (docs/analyzer.md, "Sharding"). The fabric is cut into <em>domains</em>: its
 * pods where it has them (a fat-tree pod, a rail-optimized group), else its leaves (a 2-tier spine-leaf). A link
 * belongs to the domain of its lower end (a host's link to its leaf's, a leaf's uplink to that leaf's, a fat-tree
 * spine's uplink to the spine's pod), so both ports of a link, every ECMP group (a switch's uplinks) and every host
 * with its leaf are judged together; the domains, in topology order, are cut into {@code shards} runs of equal
 * length. What serves many domains (spines, cores) has its ports in several shards: it is a <em>boundary</em>
 * device, and what crosses it (PFC spreading from one pod into another, jobs spanning pods) is put together by the
 * correlation stage.
 */
public final class ShardMap implements ShardView, Serializable {

    private static final long serialVersionUID = 1L;

    private final int shards;
    /** Shard of each link (by {@code Link.index}). */
    private final int[] byLink;
    /** Whether a node has ports in more than one shard. */
    private final boolean[] boundary;

    private ShardMap(final int shards, final int[] byLink, final boolean[] boundary) {
        this.shards = shards;
        this.byLink = byLink;
        this.boundary = boundary;
    }

    /** The map of {@code shards} shards over the fabric; 1 puts everything in shard 0. */
    public static ShardMap of(final Fabric fabric, final int shards) {
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be >= 1, got " + shards);
        }
        final int[] domainOfNode = domains(fabric);
        int domains = 0;
        for (final int d : domainOfNode) {
            domains = Math.max(domains, d + 1);
        }
        if (shards > Math.max(1, domains)) {
            throw new IllegalArgumentException("the fabric has " + domains + " domains (pods, or leaves without pods) to "
                + "shard, fewer than the " + shards + " shards asked for");
        }
        final int[] byLink = new int[fabric.links().size()];
        final int[] firstShard = new int[fabric.nodes().size()];
        Arrays.fill(firstShard, -1);
        final boolean[] boundary = new boolean[fabric.nodes().size()];
        for (final Link l : fabric.links()) {
            final int domain = domainOfNode[l.lowerNode()] >= 0 ? domainOfNode[l.lowerNode()] : Math.max(0, domainOfNode[l.upperNode()]);
            final int shard = (int) ((long) domain * shards / Math.max(1, domains));
            byLink[l.index()] = shard;
            for (final int node : new int[] {l.lowerNode(), l.upperNode()}) {
                if (firstShard[node] < 0) {
                    firstShard[node] = shard;
                } else if (firstShard[node] != shard) {
                    boundary[node] = true;
                }
            }
        }
        return new ShardMap(shards, byLink, boundary);
    }

    /**
     * Each node's domain, or -1 for what serves several (spines without a pod, cores): the pods when the topology
     * has them, else the leaves in topology order, hosts in their leaf's.
     */
    private static int[] domains(final Fabric fabric) {
        final int[] domain = new int[fabric.nodes().size()];
        Arrays.fill(domain, -1);
        final boolean pods = fabric.nodes().stream().anyMatch(n -> n.pod() >= 0);
        int leaves = 0;
        for (final Node n : fabric.nodes()) {
            if (pods && n.pod() >= 0) {
                domain[n.index()] = n.pod();
            } else if (!pods && n.tier() == Tier.LEAF) {
                domain[n.index()] = leaves++;
            }
        }
        for (final Node host : fabric.hosts()) {
            if (domain[host.index()] < 0) {
                for (final int li : fabric.linksOf(host.index())) {
                    final int leaf = fabric.link(li).other(host.index());
                    if (domain[leaf] >= 0) {
                        domain[host.index()] = domain[leaf];
                        break;
                    }
                }
            }
        }
        return domain;
    }

    public int shards() {
        return shards;
    }

    /** The shard judging the link of this {@code Fabric.portIndex} (both its ports). */
    public int ofPort(final int portIndex) {
        return byLink[portIndex / 2];
    }

    int ofLink(final int link) {
        return byLink[link];
    }

    /** Whether the node has ports judged by more than one shard (a spine or core serving several domains). */
    @Override
    public boolean boundary(final int node) {
        return boundary[node];
    }

    /** The shard holding most of the job's NICs (the lowest on a tie): the one whose view of the job is reported. */
    int homeOf(final Fabric fabric, final PlacedJob job) {
        final int[] nics = new int[shards];
        for (final PortRef rank : job.ranks()) {
            final int port = fabric.portIndex(rank);
            if (port >= 0) {
                nics[ofPort(port)]++;
            }
        }
        int home = 0;
        for (int s = 1; s < shards; s++) {
            if (nics[s] > nics[home]) {
                home = s;
            }
        }
        return home;
    }

    /** How many links each shard judges: the balance of the cut. */
    public List<Integer> linksPerShard() {
        final int[] n = new int[shards];
        for (final int s : byLink) {
            n[s]++;
        }
        final List<Integer> out = new ArrayList<>();
        for (final int c : n) {
            out.add(c);
        }
        return out;
    }
}
