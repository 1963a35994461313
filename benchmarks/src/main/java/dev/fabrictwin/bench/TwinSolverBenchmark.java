package dev.fabrictwin.bench;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import dev.fabrictwin.twin.solver.SolveStats;
import dev.fabrictwin.twin.workload.Pattern;

/**
 * JMH view of {@code bench twin}: the same workloads ({@link SolverWorkload}), measured by JMH's harness.
 * {@code java -jar benchmarks/target/benchmarks.jar TwinSolverBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
public class TwinSolverBenchmark {

    @Param({"spine-leaf-1k", "rail-optimized-32k", "rail-optimized-32k-hierarchical"})
    public String fabric;

    private SolverWorkload workload;
    private double fullCapacity;
    private boolean halved;

    @Setup(Level.Trial)
    public void setUp() {
        workload = switch (fabric) {
            case "spine-leaf-1k" -> SolverWorkload.spineLeaf1k(Pattern.RING_ALLREDUCE);
            case "rail-optimized-32k" -> SolverWorkload.railOptimized32k(Pattern.RING_ALLREDUCE);
            case "rail-optimized-32k-hierarchical" -> SolverWorkload.railOptimized32k(Pattern.HIERARCHICAL_ALLREDUCE);
            default -> throw new IllegalArgumentException(fabric);
        };
        workload.allocator().solve();
        fullCapacity = workload.allocator().capacity(workload.probeLink());
    }

    @Benchmark
    public SolveStats fullSolve() {
        return workload.allocator().solve();
    }

    /** Halves or restores one loaded uplink, then re-solves incrementally. */
    @Benchmark
    public SolveStats incrementalSolve() {
        halved = !halved;
        workload.allocator().setCapacity(workload.probeLink(), halved ? fullCapacity / 2 : fullCapacity);
        return workload.allocator().resolve();
    }
}
