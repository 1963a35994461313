package dev.fabrictwin.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.FabricAnalyzer;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.rates.PortRates;
import dev.fabrictwin.analyzer.shard.ShardMap;
import dev.fabrictwin.analyzer.shard.ShardTick;
import dev.fabrictwin.analyzer.shard.ShardedCorrelation;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * {@code bench streams --ports}: the analyzer's samples/s at each fabric size, on one thread, without Kafka. For each
 * size a spine-leaf fabric of that many sampled ports is generated ({@link #scenario}: 2:1 oversubscribed above 256
 * hosts, three jobs over 7/8 of the hosts, as the 768-port workload) and its telemetry fed, tick by tick, through
 * {@link PortRates} and {@link FabricAnalyzer} (twin replica, ticks, detectors, correlator, lifecycle: what the topology's
 * analysis stage runs per record). Generating is not timed: intervals are collected a fabric's worth (one per port, about a second of
 * telemetry) at a time, then the analyzer is timed over them. The first {@code warmUp} such batches are analyzed
 * but not counted (JIT, first ticks). Heap: used after forced GCs at the end, minus before the size started
 * (analyzer and generator state together). Besides samples/s over wall time, samples per CPU second of the analyzing
 * thread (GC threads excluded), steadier than wall time on a shared machine.
 */
public final class ScaleBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Largest size accepted (ports): a 49,152-port fabric takes ~1-2 GB of heap with its generator. */
    public static final int MAX_PORTS = 196_608;

    private ScaleBench() {
    }

    /**
     * Why {@code ports} is not a size this bench generates, or null: ports = 3 × hosts (one host link, two ends, plus the
     * hosts' half in uplinks at 2:1), hosts a multiple of 16, and of 32 above 256 hosts (32 hosts per leaf there).
     */
    public static String invalid(final int ports) {
        if (ports < 96 || ports > MAX_PORTS) {
            return "--ports " + ports + " out of range: 96.." + MAX_PORTS;
        }
        if (ports % 48 != 0 || (ports > 768 && ports % 96 != 0)) {
            return "--ports " + ports + " is not a generated size: ports = 3 x hosts, hosts a multiple of 16 (of 32 above "
                + "256 hosts), e.g. 768, 6144, 49152";
        }
        return null;
    }

    /** Leaves of the generated fabric of {@code ports} ports: the most shards it can be cut into. */
    public static int leaves(final int ports) {
        final int hosts = ports / 3;
        return hosts / (hosts <= 256 ? 16 : 32);
    }

    /** The generated spine-leaf fabric of {@code ports} sampled ports, with three proportionate jobs, for {@code seconds}. */
    public static Scenario scenario(final int ports, final int seconds) {
        final int hosts = ports / 3;
        final int perLeaf = hosts <= 256 ? 16 : 32;
        final int leaves = leaves(ports);
        final int spines = perLeaf / 2;
        final int ring = hosts / 2;
        final int hier = hosts * 3 / 8;
        final int background = hosts / 8;
        final String yaml = String.format(Locale.ROOT, """
            name: scale-%d
            seed: 3
            duration: %ds
            sampleInterval: 1s
            fabric: {kind: spine-leaf, spines: %d, leaves: %d, hostsPerLeaf: %d, nicsPerHost: 1, linkSpeed: 400G}
            jobs:
              - {id: a, hosts: %d, pattern: ring-allreduce, bytesPerIteration: 8GB, iterationPeriod: 2s, commFraction: 0.35}
              - {id: b, hosts: %d, pattern: hierarchical-allreduce, bytesPerIteration: 4GB, iterationPeriod: 3s, commFraction: 0.3}
              - {id: c, hosts: %d, pattern: background, bytesPerIteration: 1GB, iterationPeriod: 2s}
            """, ports, seconds, spines, leaves, perLeaf, ring, hier, background);
        return ScenarioParser.parse(ScenarioParser.tree(yaml), Path.of("."));
    }

    /**
     * Each size runs {@code seconds} of telemetry, or more so that at least {@code minSamples} are generated (a small
     * fabric's few samples per second would otherwise be timed before the JIT compiler is done); the first
     * {@code warmUp} seconds, or the first third if more, are not counted.
     */
    public static Map<String, Double> run(final List<Integer> sizes, final int seconds, final int warmUp,
                                          final long minSamples, final Consumer<String> log) {
        return run(sizes, seconds, warmUp, minSamples, 1, log);
    }

    /**
     * As above, the analysis cut into {@code shards} shards ({@code ShardMap}) run one after another in this thread,
     * each timed on its own, with the correlation stage: adds each size's samples per CPU second of the slowest and of
     * the mean shard, the correlation stage's share of the CPU, and the 2-core instances real time needs
     * ({@link #instancesForRealTime}).
     */
    public static Map<String, Double> run(final List<Integer> sizes, final int seconds, final int warmUp,
                                          final long minSamples, final int shards, final Consumer<String> log) {
        final Map<String, Double> figures = new LinkedHashMap<>();
        for (final int ports : sizes) {
            final int runSeconds = (int) Math.max(seconds, (minSamples + ports - 1) / ports);
            figures.putAll(measured(scenario(ports, runSeconds), ports, Math.max(warmUp, runSeconds / 3), shards, log));
        }
        if (sizes.size() > 1) {
            final double first = figures.get("ports" + sizes.get(0) + ".samplesPerSec");
            final double lastRate = figures.get("ports" + sizes.get(sizes.size() - 1) + ".samplesPerSec");
            figures.put("largestVsSmallest", lastRate / first);
        }
        return figures;
    }

    /**
     * A scenario file's fabric, jobs and faults instead of a generated size (e.g. the 32,768-GPU
     * scenarios/scale-32k/rail-32768.yaml): {@code seconds} of its telemetry, the first third (at least {@code warmUp})
     * not counted. Keys as {@link #run}'s, {@code ports<N>} its sampled ports (both ends of every link).
     */
    public static Map<String, Double> runScenario(final Scenario scenario, final int seconds, final int warmUp,
                                                  final int shards, final Consumer<String> log) {
        final Scenario cut = new Scenario(scenario.name(), scenario.seed(), Duration.ofSeconds(seconds),
            scenario.sampleInterval(), scenario.epoch(), scenario.fabric(), scenario.routing(), scenario.jobs(),
            scenario.faults(), scenario.telemetry(), scenario.transport(), scenario.flows(), scenario.pins());
        final int ports = Math.toIntExact(2 * scenario.fabric().linkCount());
        return measured(cut, ports, Math.max(warmUp, seconds / 3), shards, log);
    }

    /**
     * One pass of the analysis on one thread, without Kafka, over {@code in}'s intervals in their order: a fresh
     * analyzer (as a fresh application starts), fed a fabric's worth at a time as {@link #measure} feeds it; intervals
     * analyzed per second of wall time, the measure of {@code --ports}' samples/s (the rates math, already done in
     * {@code in}, is not timed there either).
     */
    static double analyzedPerSec(final CoreInput in) {
        final Sharded analyzer = new Sharded(in.topology(), in.jobs(), in.epochMs(), in.config(), 1);
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final List<PortInterval> all = in.intervals();
        final long t0 = System.nanoTime();
        for (int from = 0; from < all.size(); from += in.ports()) {
            analyzer.accept(all.subList(from, Math.min(all.size(), from + in.ports())), threads);
        }
        final long dt = System.nanoTime() - t0;
        return dt == 0 ? 0 : all.size() / (dt / 1e9);
    }

    private static Map<String, Double> measured(final Scenario scenario, final int ports, final int skipped,
                                                final int shards, final Consumer<String> log) {
        final Map<String, Double> figures = new LinkedHashMap<>();
        try {
            final double[] r = measure(scenario, ports, skipped, shards, log);
            figures.put("ports" + ports + ".samplesPerSec", r[0]);
            figures.put("ports" + ports + ".samplesPerCpuSec", r[2]);
            figures.put("ports" + ports + ".heapMB", r[1]);
            if (shards > 1) {
                figures.put("ports" + ports + ".slowestShardSamplesPerCpuSec", r[3]);
                figures.put("ports" + ports + ".meanShardSamplesPerCpuSec", r[4]);
                figures.put("ports" + ports + ".correlationCpuShare", r[5]);
                figures.put("ports" + ports + ".instancesForRealTime", instancesForRealTime(ports, shards, r[3], r[5]));
                // what one 2-core instance analyzes per second at this size: its cores' budget at the measured cost
                figures.put("ports" + ports + ".samplesPerInstanceSec", r[2] * 2 * CORE_BUDGET);
                figures.put("ports" + ports + ".sampleMicros", r[6] * 1e6);
                figures.put("ports" + ports + ".replicaMsPerTick", r[7] * 1e3);
                for (final int gpus : new int[] {32_768, 100_000}) {
                    final Projection p = Projection.of(gpus * PORTS_PER_GPU, r[6], r[7] * gpus * PORTS_PER_GPU / ports, r[5]);
                    figures.put("gpus" + gpus + ".shards", (double) p.shards());
                    figures.put("gpus" + gpus + ".instances", p.instances());
                    log.accept(String.format(Locale.ROOT, "projection from %,d ports: %,d GPUs (%,d ports) need %s",
                        ports, gpus, gpus * PORTS_PER_GPU, p));
                }
            }
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        return figures;
    }

    /**
     * The 2-core instances that keep up with {@code ports} sampled once a second, from measured figures: each shard
     * needs {@code ports / shards / slowestShardRate} of a core (its share of the samples at the slowest shard's cost:
     * the twin replica each shard runs whole is in that cost), the correlation stage {@code correlationShare} of all
     * the analysis's CPU on top; an instance gives its 2 cores at {@value #CORE_BUDGET} (the rest: the rates stage,
     * Kafka clients, GC). instances = ceil(cores needed / (2 × {@value #CORE_BUDGET})), and at least one per shard
     * that needs a core or more of its own.
     */
    public static double instancesForRealTime(final int ports, final int shards, final double slowestShardRate,
                                              final double correlationShare) {
        final double perShard = ports / (double) shards / slowestShardRate;
        final double cores = perShard * shards / (1 - correlationShare);
        return Math.max(Math.ceil(cores / (2 * CORE_BUDGET)), perShard >= 1 ? shards : 1);
    }

    /** Share of an instance's cores the analysis may take (docs/analyzer.md, "Sizing a deployment"). */
    static final double CORE_BUDGET = 0.6;
    /** Of a second of CPU, what one shard may take each second of telemetry: its task runs on one thread. */
    static final double SHARD_BUDGET = 0.5;
    /** A rail-optimized fabric at 1:1: each GPU's NIC link and its leaf's uplink, both ends of each. */
    public static final int PORTS_PER_GPU = 4;

    /**
     * A deployment for {@code ports} ports sampled once a second, from the measured per-sample cost {@code a} (s) and the
     * replica's cost per tick {@code r} (s, at that size): the fewest shards whose each takes at most
     * {@value #SHARD_BUDGET} s of CPU per second (a·ports/shards + r), and the instances their CPU needs,
     * ceil((a·ports + shards·r) / (1 − correlation share) / (2 × {@value #CORE_BUDGET})). No shard count suffices
     * once the replica alone takes the budget (shards 0, instances infinite).
     */
    record Projection(int shards, double perShardSeconds, double cores, double instances) {
        static Projection of(final int ports, final double a, final double r, final double correlationShare) {
            if (r >= SHARD_BUDGET) {
                return new Projection(0, r, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
            }
            final int shards = Math.max(1, (int) Math.ceil(a * ports / (SHARD_BUDGET - r)));
            final double cores = (a * ports + shards * r) / (1 - correlationShare);
            return new Projection(shards, a * ports / shards + r, cores, Math.ceil(cores / (2 * CORE_BUDGET)));
        }

        @Override
        public String toString() {
            return shards == 0 ? "more than sharding gives: the replica alone takes " + Math.round(perShardSeconds * 1000)
                + " ms of CPU per second"
                : String.format(Locale.ROOT, "%d shards (%.0f ms of CPU per shard per second), %.1f cores, %.0f 2-core "
                    + "instances", shards, perShardSeconds * 1000, cores, instances);
        }
    }

    private static double[] measure(final Scenario scenario, final int ports, final int warmUp, final int shards,
                                    final Consumer<String> log) throws JsonProcessingException {
        final long baseline = usedAfterGc();
        final int seconds = Math.toIntExact(scenario.duration().toSeconds());
        final boolean faultless = scenario.faults().isEmpty();
        final SyntheticCluster cluster = new SyntheticCluster(scenario, scenario.telemetry());
        final List<JsonNode> jobs = new ArrayList<>();
        JSON.readTree(SimulationFiles.jobsJson(cluster)).forEach(jobs::add);
        final AnalyzerConfig config = AnalyzerConfig.defaults(scenario.sampleInterval().toMillis());
        final JsonNode topology = JSON.readTree(SimulationFiles.topologyJson(cluster));
        final Sharded analyzer = new Sharded(topology, jobs, scenario.epoch().toEpochMilli(), config, shards);
        final long epochMs = scenario.epoch().toEpochMilli();
        final Map<String, Sample> last = new HashMap<>(ports * 2);
        final List<PortInterval> batch = new ArrayList<>(ports);
        // [0] batches (a batch: as many intervals as ports, about a second of telemetry), [1] counted samples,
        // [2] counted nanos, [3] all samples, [4] all nanos, [5] alert records, [6] counted CPU nanos of this thread
        final long[] state = {0, 0, 0, 0, 0, 0, 0};
        // per shard (and, last, the correlation stage): counted samples, CPU nanos, replica CPU nanos
        final long[][] shardCounted = new long[3][shards + 1];
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final long wall = System.nanoTime();
        final Runnable analyzeBatch = () -> {
            final long t0 = System.nanoTime();
            final long cpu0 = threads.getCurrentThreadCpuTime();
            final long[][] perShard = analyzer.accept(batch, threads);
            state[5] += analyzer.published().size();
            // a fabric without faults: every alert that opens is a false one, worth naming
            analyzer.published().stream().filter(a -> a.state() == Alert.State.OPEN)
                .forEach(a -> log.accept(String.format(Locale.ROOT, "%,d ports: %s at %d s of telemetry: %s %s "
                    + "(%s)", ports, faultless ? "false alert" : "alert", (a.firstSeen() - epochMs) / 1000, a.id(),
                    a.rootCause() ? "root" : "victim", a.summary())));
            final long dt = System.nanoTime() - t0;
            final long cpu = threads.getCurrentThreadCpuTime() - cpu0;
            state[3] += batch.size();
            state[4] += dt;
            if (state[0] >= warmUp) {
                state[1] += batch.size();
                state[2] += dt;
                state[6] += cpu;
                for (int k = 0; k <= shards; k++) {
                    for (int f = 0; f < shardCounted.length; f++) {
                        shardCounted[f][k] += perShard[f][k];
                    }
                }
            }
            state[0]++;
            if (state[0] % 10 == 0) {
                log.accept(String.format(Locale.ROOT, "%,d ports: ~%d/%d s of telemetry (%.0f s wall): %,.0f samples/s "
                        + "over the last second%s", ports, state[0], seconds, (System.nanoTime() - wall) / 1e9,
                    batch.size() / (dt / 1e9), state[0] <= warmUp ? " (warm-up, not counted)" : ""));
            }
            batch.clear();
        };
        cluster.run(s -> {
            final String key = s.device() + "/" + s.port();
            final PortRates.Step step = PortRates.next(last.get(key), s, config.tickMs());
            if (!step.late()) {
                last.put(key, s);
                step.interval().ifPresent(batch::add);
            }
            if (batch.size() == ports) {
                analyzeBatch.run();
            }
        }, n -> { });
        if (!batch.isEmpty()) {
            analyzeBatch.run();
        }
        state[5] += analyzer.flush();
        final long heap = usedAfterGc() - baseline;
        final double rate = state[2] == 0 ? 0 : state[1] / (state[2] / 1e9);
        final double perCpu = state[6] == 0 ? 0 : state[1] / (state[6] / 1e9);
        log.accept(String.format(Locale.ROOT, "%,d ports (%,d devices), %d s of telemetry: %,.0f samples/s over %,d "
                + "samples after %d s of warm-up (%,.0f per CPU second of the analyzing thread; all: %,.0f samples/s), "
                + "%d alert records; heap %,.0f MB after GC; %.0f s wall", ports, cluster.fabric().nodes().size(),
            seconds, rate, state[1], warmUp, perCpu, state[3] / (state[4] / 1e9), state[5], heap / 1e6,
            (System.nanoTime() - wall) / 1e9));
        // keeps both reachable until the heap is read
        if (analyzer.intervals() < 0 || cluster.fabric() == null) {
            throw new IllegalStateException();
        }
        double slowest = Double.MAX_VALUE;
        double shardCpu = 0;
        for (int k = 0; k < shards; k++) {
            slowest = Math.min(slowest, shardCounted[1][k] == 0 ? 0 : shardCounted[0][k] / (shardCounted[1][k] / 1e9));
            shardCpu += shardCounted[1][k];
        }
        final double mean = shardCpu == 0 ? 0 : state[1] / (shardCpu / shards / 1e9) / shards;
        final double correlationShare = shardCounted[1][shards] / Math.max(1.0, shardCpu + shardCounted[1][shards]);
        // the replica's CPU per tick (timed on the thread's CPU clock), and the rest per sample
        double replicaCpu = 0;
        for (int k = 0; k < shards; k++) {
            replicaCpu += shardCounted[2][k];
        }
        final long countedTicks = Math.max(1, state[0] - warmUp);
        final double replicaSecondsPerTick = replicaCpu / shards / countedTicks / 1e9;
        final double sampleSeconds = state[1] == 0 ? 0 : (shardCpu - replicaCpu) / state[1] / 1e9;
        if (shards > 1) {
            log.accept(String.format(Locale.ROOT, "%,d ports in %d shards (links per shard %s): %,.0f samples per CPU second "
                    + "of the slowest shard, %,.0f of the mean one; correlation stage %.2f%% of the CPU; 2-core instances "
                    + "for real time: %.0f; per sample %.2f µs, each shard's replica %.1f ms per tick", ports, shards,
                analyzer.linksPerShard(), slowest, mean, 100 * correlationShare,
                instancesForRealTime(ports, shards, slowest, correlationShare), sampleSeconds * 1e6,
                replicaSecondsPerTick * 1e3));
        }
        return new double[] {rate, heap / 1e6, perCpu, slowest, mean, correlationShare, sampleSeconds, replicaSecondsPerTick};
    }

    /**
     * The analysis as the topology runs it: one {@link FabricAnalyzer} (1 shard), or one per shard, each given its
     * shard's intervals and its own replica, and the correlation stage over their ticks. Times each shard's CPU.
     */
    private static final class Sharded {
        private final FabricAnalyzer[] analyzers;
        private final ShardMap map;
        private final ShardedCorrelation correlation;
        private final List<Alert> published = new ArrayList<>();

        Sharded(final JsonNode topology, final List<JsonNode> jobs, final long epochMs, final AnalyzerConfig config,
                final int shards) {
            final TwinReplica first = TwinReplica.from(topology, jobs, epochMs);
            this.map = ShardMap.of(first.fabric(), shards);
            this.analyzers = new FabricAnalyzer[shards];
            for (int k = 0; k < shards; k++) {
                final TwinReplica twin = k == 0 ? first : TwinReplica.from(topology, jobs, epochMs);
                analyzers[k] = shards == 1 ? new FabricAnalyzer(twin, config) : new FabricAnalyzer(twin, config, map, k);
                // the replica's share on the CPU clock, as the shard's: GC pauses count in neither
                analyzers[k].timeTwinWith(ManagementFactory.getThreadMXBean()::getCurrentThreadCpuTime);
            }
            this.correlation = shards == 1 ? null
                : new ShardedCorrelation(TwinReplica.from(topology, jobs, epochMs), map, config);
        }

        /** Analyzes a batch; returns per shard (and, last, the correlation) the samples taken, CPU nanos spent and the replica's. */
        long[][] accept(final List<PortInterval> batch, final ThreadMXBean threads) {
            published.clear();
            final int shards = analyzers.length;
            final long[][] out = new long[3][shards + 1];
            final List<List<PortInterval>> parts = new ArrayList<>();
            if (shards == 1) {
                parts.add(batch);
            } else {
                for (int k = 0; k < shards; k++) {
                    parts.add(new ArrayList<>());
                }
                final Fabric fabric = analyzers[0].twin().fabric();
                for (final PortInterval i : batch) {
                    final int port = fabric.portIndex(new PortRef(i.device(), i.port()));
                    parts.get(port < 0 ? 0 : map.ofPort(port)).add(i);
                }
            }
            final List<ShardTick> ticks = new ArrayList<>();
            for (int k = 0; k < shards; k++) {
                final long cpu0 = threads.getCurrentThreadCpuTime();
                final long twin0 = analyzers[k].twinNanos();
                for (final PortInterval i : parts.get(k)) {
                    final FabricAnalyzer.Output o = analyzers[k].accept(i);
                    if (shards == 1) {
                        published.addAll(o.alerts());
                    }
                    ticks.addAll(o.shardTicks());
                }
                out[0][k] = parts.get(k).size();
                out[1][k] = threads.getCurrentThreadCpuTime() - cpu0;
                out[2][k] = analyzers[k].twinNanos() - twin0;
            }
            if (correlation != null) {
                final long cpu0 = threads.getCurrentThreadCpuTime();
                ticks.forEach(t -> published.addAll(correlation.accept(t).alerts()));
                out[1][shards] = threads.getCurrentThreadCpuTime() - cpu0;
            }
            return out;
        }

        /** The alert records the last batch published. */
        List<Alert> published() {
            return published;
        }

        /** End of input; returns the alert records it published. */
        int flush() {
            int n = 0;
            for (final FabricAnalyzer a : analyzers) {
                final FabricAnalyzer.Output o = a.flush();
                n += analyzers.length == 1 ? o.alerts().size() : 0;
                for (final ShardTick t : o.shardTicks()) {
                    n += correlation.accept(t).alerts().size();
                }
            }
            return correlation == null ? n : n + correlation.flush().alerts().size();
        }

        long intervals() {
            long n = 0;
            for (final FabricAnalyzer a : analyzers) {
                n += a.intervals();
            }
            return n;
        }

        List<Integer> linksPerShard() {
            return map.linksPerShard();
        }
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
