package dev.fabrictwin.analyzer.detect;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.workload.PlacedJob;

/**
 * Which declared jobs an entity can slow: a NIC's own job; a host link's job; a switch's jobs when they have
 * ranks below it, and every job spanning more than one leaf for switches above the leaves (their traffic
 * may be hashed anywhere there).
 */
public final class JobFootprint implements Serializable {

    private final Fabric fabric;
    private final Map<String, Set<String>> jobsBelowDevice = new HashMap<>();
    private final Set<String> crossLeafJobs = new HashSet<>();
    private final List<PlacedJob> jobs;

    public JobFootprint(final Fabric fabric, final List<PlacedJob> jobs) {
        this.fabric = fabric;
        this.jobs = List.copyOf(jobs);
        for (final PlacedJob j : jobs) {
            final Set<String> leaves = new HashSet<>();
            for (final PortRef rank : j.ranks()) {
                jobsBelowDevice.computeIfAbsent(rank.device(), d -> new HashSet<>()).add(j.id());
                fabric.linkAt(rank).ifPresent(l -> {
                    final String leaf = l.lower().device().equals(rank.device()) ? l.upper().device() : l.lower().device();
                    jobsBelowDevice.computeIfAbsent(leaf, d -> new HashSet<>()).add(j.id());
                    leaves.add(leaf);
                });
            }
            if (leaves.size() > 1) {
                crossLeafJobs.add(j.id());
            }
        }
    }

    public List<String> affected(final Entity entity) {
        final Set<String> out = new HashSet<>();
        switch (entity.kind()) {
            case JOB -> out.add(entity.job());
            case LINK -> {
                if (isHost(entity.device()) || isHost(entity.peer())) {
                    out.addAll(onDevice(isHost(entity.device()) ? entity.device() : entity.peer()));
                } else {
                    out.addAll(jobsBelowDevice.getOrDefault(entity.device(), Set.of()));
                    out.addAll(jobsBelowDevice.getOrDefault(entity.peer(), Set.of()));
                    if (out.isEmpty()) {
                        out.addAll(crossLeafJobs); // a spine–core link: any job crossing leaves
                    }
                    out.retainAll(crossLeafJobs);
                }
            }
            case PORT -> {
                if (isHost(entity.device())) {
                    out.addAll(onDevice(entity.device()));
                } else {
                    final PortRef peer = fabric.linkAt(new PortRef(entity.device(), entity.port()))
                        .map(l -> l.lower().device().equals(entity.device()) ? l.upper() : l.lower()).orElse(null);
                    if (peer != null && isHost(peer.device())) {
                        out.addAll(onDevice(peer.device()));
                    } else {
                        out.addAll(onDevice(entity.device()));
                        out.retainAll(crossLeafJobs);
                    }
                }
            }
            default -> out.addAll(onDevice(entity.device()));
        }
        final List<String> sorted = new ArrayList<>(out);
        sorted.sort(null);
        return sorted;
    }

    private Set<String> onDevice(final String device) {
        final Set<String> jobs = jobsBelowDevice.get(device);
        if (jobs != null) {
            return jobs;
        }
        // a switch above the leaves: every job that crosses leaves may use it
        return fabric.node(device).filter(n -> !n.isHost()).isPresent() ? crossLeafJobs : Set.of();
    }

    private boolean isHost(final String device) {
        return fabric.node(device).map(Node::isHost).orElse(false);
    }

    /**
     * Whether the traffic of a job into {@code nic} (one whose rank it is) can cross {@code fault}'s entity, on any
     * path ECMP may choose ({@link InboundPaths}).
     */
    public boolean inboundCrosses(final PortRef nic, final Entity fault) {
        return jobs.stream().filter(j -> j.ranks().contains(nic))
            .anyMatch(j -> InboundPaths.crosses(fabric, j, nic, fault));
    }

    /** The link of a port, for callers naming a bottleneck. */
    public Link linkOf(final PortRef port) {
        return fabric.linkAt(port).orElse(null);
    }
}
