package dev.fabrictwin.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import dev.fabrictwin.twin.solver.RateAllocator;
import dev.fabrictwin.twin.solver.SolveStats;
import dev.fabrictwin.twin.workload.Pattern;

/**
 * {@code bench twin}: full max-min allocation and a one-link incremental re-solve on a 1,024-GPU
 * spine-leaf and a 32,768-GPU rail-optimized fabric with every GPU in ring all-reduce jobs; medians of
 * repeated runs after warm-up. The hierarchical (per-rail ring) variant puts every GPU's traffic on the
 * fabric (ring all-reduce on 8-NIC hosts keeps 7 of 8 hops on NVLink) and is reported alongside.
 */
public final class TwinBench {

    private static final int WARMUP = 5;
    private static final int FULL_RUNS = 15;
    private static final int INCREMENTAL_RUNS = 41;

    private TwinBench() {
    }

    /** Figures by name (the JSON keys of {@code bench twin --json}). */
    public static Map<String, Double> run(final Consumer<String> progress) {
        final Map<String, Double> out = new LinkedHashMap<>();
        final SolverWorkload small = SolverWorkload.spineLeaf1k(Pattern.RING_ALLREDUCE);
        progress.accept(describe(small));
        out.put("fullSolveMs1k", fullSolveMs(small));
        out.put("incrementalSolveMs1k", incrementalSolveMs(small));

        final SolverWorkload big = SolverWorkload.railOptimized32k(Pattern.RING_ALLREDUCE);
        progress.accept(describe(big));
        out.put("fullSolveMs32k", fullSolveMs(big));
        out.put("incrementalSolveMs32k", incrementalSolveMs(big));
        out.put("setupMs32k", big.setupNanos() / 1e6);

        final SolverWorkload rails = SolverWorkload.railOptimized32k(Pattern.HIERARCHICAL_ALLREDUCE);
        progress.accept(describe(rails));
        out.put("fullSolveMs32kHierarchical", fullSolveMs(rails));
        out.put("incrementalSolveMs32kHierarchical", incrementalSolveMs(rails));
        out.put("flows32kHierarchical", (double) rails.flows());
        return out;
    }

    private static String describe(final SolverWorkload w) {
        return String.format(Locale.ROOT, "%s: %d nodes, %d directed links, %d flows (built in %.0f ms)",
            w.name(), w.fabric().nodes().size(), w.fabric().directedLinkCount(), w.flows(), w.setupNanos() / 1e6);
    }

    static double fullSolveMs(final SolverWorkload w) {
        final RateAllocator a = w.allocator();
        for (int i = 0; i < WARMUP; i++) {
            a.solve();
        }
        final double[] ms = new double[FULL_RUNS];
        for (int i = 0; i < FULL_RUNS; i++) {
            ms[i] = a.solve().nanos() / 1e6;
        }
        return median(ms);
    }

    /** Halve, then restore, one loaded uplink, resolving after each change; median over the changes. */
    static double incrementalSolveMs(final SolverWorkload w) {
        final RateAllocator a = w.allocator();
        a.solve();
        final int link = w.probeLink();
        final double full = a.capacity(link);
        for (int i = 0; i < WARMUP; i++) {
            a.setCapacity(link, i % 2 == 0 ? full / 2 : full);
            a.resolve();
        }
        a.setCapacity(link, full);
        a.resolve();
        final double[] ms = new double[INCREMENTAL_RUNS];
        for (int i = 0; i < INCREMENTAL_RUNS; i++) {
            final long t0 = System.nanoTime();
            a.setCapacity(link, i % 2 == 0 ? full / 2 : full);
            final SolveStats s = a.resolve();
            ms[i] = (System.nanoTime() - t0) / 1e6;
            if (s.nanos() < 0) {
                throw new IllegalStateException("negative solve time");
            }
        }
        return median(ms);
    }

    private static double median(final double[] values) {
        final double[] v = values.clone();
        Arrays.sort(v);
        return v[v.length / 2];
    }
}
