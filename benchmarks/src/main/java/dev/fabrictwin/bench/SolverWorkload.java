package dev.fabrictwin.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FabricSpec;
import dev.fabrictwin.twin.fabric.RailOptimized;
import dev.fabrictwin.twin.fabric.SpineLeaf;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.routing.Route;
import dev.fabrictwin.twin.routing.Router;
import dev.fabrictwin.twin.scenario.Routing;
import dev.fabrictwin.twin.solver.RateAllocator;
import dev.fabrictwin.twin.workload.JobSpec;
import dev.fabrictwin.twin.workload.Pattern;
import dev.fabrictwin.twin.workload.PlacedJob;
import dev.fabrictwin.twin.workload.Placement;
import dev.fabrictwin.twin.workload.Transfer;

/**
 * The allocation problems the twin benchmark solves: every GPU of a fabric in all-reduce jobs, every
 * transfer routed by ECMP and loaded into a {@link RateAllocator}. Shared by {@code bench twin} and JMH.
 *
 * @param probeLink a loaded leaf uplink whose capacity the incremental benchmark halves and restores
 */
public record SolverWorkload(String name, Fabric fabric, RateAllocator allocator, int flows, int probeLink,
                             long setupNanos) {

    /** 1,024 GPUs: spine-leaf, 32 leaves × 8 hosts × 4 NICs, 8 spines, 400G; ring jobs of 32 hosts. */
    public static SolverWorkload spineLeaf1k(final Pattern pattern) {
        return build("spine-leaf-1k-" + pattern.label(),
            new SpineLeaf(8, 32, 8, 4, 400e9, 400e9, Technology.ROCE_V2), 32, pattern);
    }

    /** 32,768 GPUs: rail-optimized, 4,096 hosts × 8 NICs, groups of 32 hosts, 32 spines, 400G; jobs of 512 hosts. */
    public static SolverWorkload railOptimized32k(final Pattern pattern) {
        return build("rail-optimized-32k-" + pattern.label(),
            new RailOptimized(4096, 8, 32, 32, 400e9, 400e9, Technology.ROCE_V2), 512, pattern);
    }

    static SolverWorkload build(final String name, final FabricSpec spec, final int hostsPerJob, final Pattern pattern) {
        final long t0 = System.nanoTime();
        final Fabric fabric = spec.build(name);
        final List<JobSpec> jobs = new ArrayList<>();
        for (int j = 0; j < spec.hostCount() / hostsPerJob; j++) {
            jobs.add(new JobSpec("job-" + j, hostsPerJob, List.of(), pattern, 8_000_000_000L,
                Duration.ofSeconds(2), 0.35));
        }
        final List<PlacedJob> placed = Placement.place(fabric, jobs, 1);
        final Router router = new Router(fabric, Routing.ecmp(1));
        final double[] capacity = new double[fabric.directedLinkCount()];
        for (int d = 0; d < capacity.length; d++) {
            capacity[d] = fabric.link(d / 2).capacityBps();
        }
        final RateAllocator allocator = new RateAllocator(capacity);
        int flows = 0;
        final double[] load = new double[capacity.length];
        for (final PlacedJob job : placed) {
            for (final Transfer t : job.transfers()) {
                for (final Route r : router.routes(t.source(), t.destination(), Router.flowKey(t.source(), t.destination(), 0))) {
                    allocator.addFlow(r.links(), Double.POSITIVE_INFINITY);
                    flows++;
                    for (final int l : r.links()) {
                        load[l]++;
                    }
                }
            }
        }
        int probe = -1;
        for (final var link : fabric.links()) {
            if (!fabric.node(link.lowerNode()).isHost() && load[link.up()] > 0 && (probe < 0 || load[link.up()] > load[probe])) {
                probe = link.up();
            }
        }
        return new SolverWorkload(name, fabric, allocator, flows, probe, System.nanoTime() - t0);
    }
}
