package dev.fabrictwin.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import dev.fabrictwin.bench.TwinBench;
import dev.fabrictwin.evaluation.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code fabric-twin bench [twin]}: performance figures, printed as a table and optionally JSON. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    usageHelpAutoWidth = true,
    description = {"Measure fabric-twin's performance on this machine. Without a subcommand, runs every bench."},
    subcommands = {BenchCommand.Twin.class, BenchCommand.Fidelity.class, BenchCommand.Ingest.class, BenchCommand.IngestTopic.class, BenchCommand.Streams.class, BenchCommand.Memory.class, BenchCommand.Metrics.class})
final class BenchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--json", scope = picocli.CommandLine.ScopeType.INHERIT,
        description = "Also print the figures as one JSON object on the last line.")
    boolean json;

    @Override
    public Integer call() {
        final Map<String, Double> all = new LinkedHashMap<>(runTwin(spec.commandLine().getErr()));
        all.putAll(runFidelity(spec.commandLine().getErr(), Fidelity.DEFAULT_SEEDS, java.util.List.of()));
        all.putAll(runIngest(spec.commandLine().getErr()));
        all.putAll(runIngestTopic(spec.commandLine().getErr()));
        all.putAll(runStreams(spec.commandLine().getErr()));
        print(spec.commandLine().getOut(), all, json);
        return FabricTwin.EXIT_OK;
    }

    static Map<String, Double> runTwin(final PrintWriter progress) {
        progress.println("bench twin: building fabrics and routing every flow (takes ~10 s) ...");
        progress.flush();
        return TwinBench.run(line -> {
            progress.println("  " + line);
            progress.flush();
        });
    }

    static Map<String, Double> runFidelity(final PrintWriter progress, final int seeds, final java.util.List<String> cases) {
        progress.println("bench fidelity: the packet-level reference cases on the twin, " + seeds
            + " hash seeds where ECMP matters (takes ~10 s) ...");
        progress.flush();
        return dev.fabrictwin.bench.FidelityBench.run(seeds, cases, line -> {
            progress.println("  " + line);
            progress.flush();
        });
    }

    static Map<String, Double> runIngest(final PrintWriter progress) {
        progress.println("bench ingest: generating input, parsing, then producing to an embedded broker (takes ~1 min) ...");
        progress.flush();
        return dev.fabrictwin.bench.IngestBench.run(line -> {
            progress.println("  " + line);
            progress.flush();
        });
    }

    static Map<String, Double> runIngestTopic(final PrintWriter progress) {
        progress.println("bench ingest-topic: 200k gnmic event messages through a plain consumer, then through "
            + "ingest --from-topic (exactly-once), on an embedded broker (takes ~1 min) ...");
        progress.flush();
        try {
            return dev.fabrictwin.bench.IngestTopicBench.run(line -> {
                progress.println("  " + line);
                progress.flush();
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (Exception e) {
            throw new IllegalStateException("bench ingest-topic failed: " + e.getMessage(), e);
        }
    }

    static Map<String, Double> runStreams(final PrintWriter progress) {
        progress.println("bench streams: a 768-port capture through a plain consumer and the analyzer (3 warm-up "
            + "passes, then the median of 3), then alert latency at 10x real time, on an embedded broker (takes ~3 min) ...");
        progress.flush();
        try {
            return dev.fabrictwin.bench.StreamsBench.run(line -> {
                progress.println("  " + line);
                progress.flush();
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (Exception e) {
            throw new IllegalStateException("bench streams failed: " + e.getMessage(), e);
        }
    }

    static void print(final PrintWriter out, final Map<String, Double> figures, final boolean json) {
        figures.forEach((k, v) -> out.printf(Locale.ROOT, "%-36s %12.3f%n", k, v));
        if (json) {
            out.println(Json.line(Json.rounded(figures)));
        }
        out.flush();
    }

    /** {@code bench twin}: max-min solve times on 1k and 32k-GPU fabrics. */
    @Command(name = "twin", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = {"Full max-min allocation and a one-link incremental re-solve on a 1,024-GPU spine-leaf and "
            + "a 32,768-GPU rail-optimized fabric with every GPU in ring all-reduce jobs. Targets (32k): full "
            + "<= 100 ms, incremental <= 10 ms. JSON keys: fullSolveMs1k, fullSolveMs32k, incrementalSolveMs32k."})
    static final class Twin implements Callable<Integer> {

        @ParentCommand
        private BenchCommand parent;

        @Spec
        private CommandSpec spec;

        @Override
        public Integer call() {
            print(spec.commandLine().getOut(), runTwin(spec.commandLine().getErr()), parent.json);
            return FabricTwin.EXIT_OK;
        }
    }

    /** {@code bench fidelity}: the twin against packet-level reference runs (docs/fidelity.md). */
    @Command(name = "fidelity", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = {"The twin's makespan on each packet-level reference case (128 hosts, 2-tier, 100G; htsim runs: "
            + "ring, ringx 1:1 and 2:1, a2a, incast) over hash seeds 1..N, against the reference's seed spread: "
            + "reference seed 1 and median, twin median and range, ratio of medians, solve time. See docs/fidelity.md. "
            + "JSON keys: <case>.ratio, <case>.meanRatio, <case>.solveSeconds (case names with dashes, e.g. "
            + "ringx-64M-1:1.ratio)."})
    static final class Fidelity implements Callable<Integer> {

        static final int DEFAULT_SEEDS = 9;

        @ParentCommand
        private BenchCommand parent;

        @Spec
        private CommandSpec spec;

        @Option(names = "--seeds", defaultValue = "" + DEFAULT_SEEDS, paramLabel = "N",
            description = "Hash seeds per case where ECMP matters (default: ${DEFAULT-VALUE}).")
        private int seeds;

        @Option(names = "--case", paramLabel = "NAME", split = ",",
            description = "Only these cases, e.g. --case 'ringx 64M 1:1,incast 16M' (default: all).")
        private java.util.List<String> cases = java.util.List.of();

        @Override
        public Integer call() {
            if (seeds < 1) {
                throw new UsageException("--seeds must be >= 1, was " + seeds);
            }
            final java.util.Set<String> known = new java.util.TreeSet<>();
            dev.fabrictwin.twin.fidelity.ReferenceCase.all().forEach(c -> known.add(c.name()));
            for (final String c : cases) {
                if (!known.contains(c)) {
                    throw new UsageException("unknown case '" + c + "' (known: " + String.join(", ", known) + ")");
                }
            }
            print(spec.commandLine().getOut(), runFidelity(spec.commandLine().getErr(), seeds, cases), parent.json);
            return FabricTwin.EXIT_OK;
        }
    }

    /** {@code bench streams}: analyzer throughput against a plain consumer, and alert latency. */
    @Command(name = "streams", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = {"Samples/s through the full analyzer topology (exactly-once) on an embedded broker against a "
            + "plain consumer reading the same topic in the same run, and the p99 from the sample that closes a tick "
            + "to its alert record being readable. Targets: >= 100k port-samples/s; p99 <= 1 s beyond the commit "
            + "interval (100 ms). JSON keys: samplesPerSec, ratioVsPlainConsumer, p99SampleToAlertMs.",
            "With --ports, instead: the analyzer's samples/s at each fabric size, one thread, without Kafka. Each size is "
            + "a generated spine-leaf fabric of that many sampled ports (ports = 3 x hosts; 16 hosts per leaf up to 256 "
            + "hosts, then 32 per leaf and 16 spines, 2:1; jobs on 1/2, 3/8 and 1/8 of the hosts: ring, hierarchical "
            + "all-reduce, background), its telemetry generated a fabric's worth of intervals (about a second) at a time (not timed) and fed through the "
            + "rates stage and FabricAnalyzer (timed); each size runs --seconds of telemetry or longer until "
            + "--min-samples, and its first third (at least --warm-up seconds) is not counted. Heap: used after GC "
            + "at the end (analyzer and generator). The fabrics have no fault: every alert that opens is false and is "
            + "named on stderr. Goal: the largest within 2x of the smallest and "
            + ">= 100k samples/s. A 49,152-port size needs -Xmx3g or more (FABRIC_TWIN_JAVA_OPTS). JSON keys: "
            + "ports<N>.samplesPerSec, ports<N>.samplesPerCpuSec (the analyzing thread's CPU time: steadier on a shared "
            + "machine), ports<N>.heapMB, largestVsSmallest (samples/s).",
            "With --scenario FILE instead of --ports: the same measure on that scenario's fabric, jobs and faults for "
            + "--seconds (its alerts are named on stderr), keys ports<N> with N its sampled ports; with --shards it prints "
            + "what the 32,768-GPU scenario needs: FABRIC_TWIN_JAVA_OPTS=-Xmx12g fabric-twin bench streams --scenario "
            + "scenarios/scale-32k/rail-32768.yaml --shards 16 --seconds 60 (~6 min).",
            "Example: FABRIC_TWIN_JAVA_OPTS=-Xmx4g fabric-twin bench streams --ports 768,6144,49152 (takes ~10 min)"})
    static final class Streams implements Callable<Integer> {

        @ParentCommand
        private BenchCommand parent;

        @Spec
        private CommandSpec spec;

        @Option(names = "--ports", paramLabel = "N", split = ",",
            description = "Fabric sizes in sampled ports, e.g. 768,6144,49152: ports = 3 x hosts, hosts a multiple of "
                + "16 (of 32 above 256 hosts).")
        java.util.List<Integer> ports = new java.util.ArrayList<>();

        @Option(names = "--scenario", paramLabel = "FILE",
            description = "Instead of --ports: a scenario file's fabric, jobs and faults, run for --seconds.")
        java.nio.file.Path scenario;

        @Option(names = "--seconds", defaultValue = "40", paramLabel = "S",
            description = "With --ports or --scenario: seconds of telemetry analyzed at each size (default: ${DEFAULT-VALUE}).")
        int seconds;

        @Option(names = "--warm-up", defaultValue = "15", paramLabel = "S",
            description = "With --ports or --scenario: first seconds analyzed but not counted, or the first third of the run if "
                + "longer (default: ${DEFAULT-VALUE}).")
        int warmUp;

        @Option(names = "--min-samples", defaultValue = "400000", paramLabel = "N",
            description = "With --ports: a size runs longer than --seconds until it has generated N samples, so that "
                + "small fabrics are timed warm (default: ${DEFAULT-VALUE}; 768 ports: 521 s of telemetry).")
        long minSamples;

        @Option(names = "--shards", defaultValue = "1", paramLabel = "N",
            description = "With --ports or --scenario: cut the analysis into N shards ('analyze --shards', docs/analyzer.md \"Sharding\") "
                + "run one after another in the thread, each timed alone, with the correlation stage; adds "
                + "ports<N>.slowestShardSamplesPerCpuSec, .meanShardSamplesPerCpuSec, .correlationCpuShare, "
                + ".instancesForRealTime (2-core instances for sampling once a second), .samplesPerInstanceSec (what one 2-core "
                + "instance analyzes per second: 1.2 cores at the measured cost), .sampleMicros and "
                + ".replicaMsPerTick (a shard's cost: per sample, and its replica of the whole fabric per tick), and the "
                + "projection from them to gpus32768 and gpus100000 (.shards, .instances; formula in docs/analyzer.md) "
                + "(default: ${DEFAULT-VALUE}).")
        int shards;

        @Override
        public Integer call() {
            if (scenario != null) {
                return callScenario();
            }
            if (ports.isEmpty()) {
                print(spec.commandLine().getOut(), runStreams(spec.commandLine().getErr()), parent.json);
                return FabricTwin.EXIT_OK;
            }
            for (final int p : ports) {
                final String why = dev.fabrictwin.bench.ScaleBench.invalid(p);
                if (why != null) {
                    throw new UsageException(why);
                }
            }
            if (warmUp < 0 || seconds < warmUp + 5 || minSamples < 0) {
                throw new UsageException("--seconds must be >= --warm-up + 5, --warm-up and --min-samples >= 0");
            }
            final int most = ports.stream().mapToInt(dev.fabrictwin.bench.ScaleBench::leaves).min().orElse(1);
            if (shards < 1 || shards > most) {
                throw new UsageException("--shards must be 1.." + most + " for these sizes (at most one shard per leaf of "
                    + "the smallest fabric), was " + shards);
            }
            final PrintWriter progress = spec.commandLine().getErr();
            progress.println("bench streams --ports: at least " + seconds + " s of telemetry (and " + minSamples
                + " samples) at each of " + ports + " ports through the analyzer without Kafka, the first third not "
                + "counted ...");
            progress.flush();
            print(spec.commandLine().getOut(), dev.fabrictwin.bench.ScaleBench.run(ports, seconds, warmUp, minSamples, shards, line -> {
                progress.println("  " + line);
                progress.flush();
            }), parent.json);
            return FabricTwin.EXIT_OK;
        }

        private Integer callScenario() {
            if (!ports.isEmpty()) {
                throw new UsageException("--scenario and --ports are alternatives: give one");
            }
            if (warmUp < 0 || seconds < warmUp + 5) {
                throw new UsageException("--seconds must be >= --warm-up + 5, --warm-up >= 0");
            }
            final dev.fabrictwin.twin.scenario.Scenario parsed = dev.fabrictwin.twin.scenario.ScenarioParser.parse(scenario);
            Shards.check(parsed, shards);
            final PrintWriter progress = spec.commandLine().getErr();
            progress.println("bench streams --scenario: " + seconds + " s of " + parsed.name() + "'s telemetry through "
                + "the analyzer" + (shards > 1 ? " in " + shards + " shards" : "") + " without Kafka, the first third not "
                + "counted ...");
            progress.flush();
            print(spec.commandLine().getOut(), dev.fabrictwin.bench.ScaleBench.runScenario(parsed, seconds, warmUp, shards,
                line -> {
                    progress.println("  " + line);
                    progress.flush();
                }), parent.json);
            return FabricTwin.EXIT_OK;
        }
    }

    /** {@code bench memory}: retained heap per port and per flow while the analyzer runs. */
    @Command(name = "memory", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = {"Heap the analyzer retains (after forced GCs), read 5 times over a run and at its end, per port and "
            + "per flow: a scenario's telemetry is generated to a temporary file, then analyzed without Kafka. Default "
            + "workload: bench streams' (768 ports, 600 s). Not part of 'bench' without a subcommand. JSON keys: "
            + "memoryPorts, memoryFlows, retainedBytes, bytesPerPort, bytesPerFlow.",
            "Example: fabric-twin bench memory --scenario scenarios/scale/spine-leaf-2048.yaml"})
    static final class Memory implements Callable<Integer> {

        @ParentCommand
        private BenchCommand parent;

        @Spec
        private CommandSpec spec;

        @Option(names = "--scenario", paramLabel = "FILE", description = "Scenario YAML to run instead of the default.")
        java.nio.file.Path scenario;

        @Override
        public Integer call() {
            final PrintWriter progress = spec.commandLine().getErr();
            progress.println("bench memory: generating the telemetry, then analyzing it with forced GCs along the way ...");
            progress.flush();
            final dev.fabrictwin.twin.scenario.Scenario s = scenario == null
                ? dev.fabrictwin.bench.BenchWorkloads.streamsThroughput()
                : dev.fabrictwin.twin.scenario.ScenarioParser.parse(scenario);
            print(spec.commandLine().getOut(), dev.fabrictwin.bench.MemoryBench.run(s, line -> {
                progress.println("  " + line);
                progress.flush();
            }), parent.json);
            return FabricTwin.EXIT_OK;
        }
    }

    /** {@code bench metrics}: the series {@code /metrics} holds at each fabric size, bounded and listing every device. */
    @Command(name = "metrics", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = {"Series on /metrics at each fabric size: each scenario's first seconds of telemetry are generated and "
            + "analyzed without Kafka, every tick handed to the product meters with the device bound (--top-devices) and "
            + "to meters listing every device (as before the bound); the series are counted in the Prometheus scrape text "
            + "after every tick. Default scenarios: the demo's 256 GPUs (576 ports), bench streams' 768 ports, "
            + "scenarios/scale/spine-leaf-2048.yaml (6,144 ports; run from the repository). Not part of 'bench' without a "
            + "subcommand (takes ~1-2 min). JSON keys per scenario name: <name>.ports, .devices, .series, .deviceSeries, "
            + ".seriesEveryDevice, .deviceSeriesEveryDevice, .churnPerTick.",
            "Example: fabric-twin bench metrics --scenario scenarios/rail-2048.yaml --seconds 30"})
    static final class Metrics implements Callable<Integer> {

        static final java.nio.file.Path SCALE = java.nio.file.Path.of("scenarios", "scale", "spine-leaf-2048.yaml");

        @ParentCommand
        private BenchCommand parent;

        @Spec
        private CommandSpec spec;

        @Option(names = "--scenario", paramLabel = "FILE", description = "Scenario YAML to count on (repeatable; default: "
            + "the three above).")
        java.util.List<java.nio.file.Path> scenarios = new java.util.ArrayList<>();

        @Option(names = "--seconds", defaultValue = "60", paramLabel = "S",
            description = "Seconds of each scenario's telemetry analyzed (default: ${DEFAULT-VALUE}).")
        int seconds;

        @Option(names = "--top-devices", defaultValue = "" + dev.fabrictwin.analyzer.metrics.SeriesLimits.DEFAULT_DEVICES,
            paramLabel = "N", description = "The device bound, as analyze --top-devices (default: ${DEFAULT-VALUE}).")
        int topDevices;

        @Override
        public Integer call() throws java.io.IOException {
            if (seconds < 5 || topDevices < 0) {
                throw new UsageException("--seconds must be >= 5 (ticks close after the grace), --top-devices >= 0");
            }
            final java.util.List<dev.fabrictwin.twin.scenario.Scenario> runs = new java.util.ArrayList<>();
            if (scenarios.isEmpty()) {
                runs.add(dev.fabrictwin.twin.scenario.ScenarioParser.parse(DemoCommand.defaultScenarioTree(),
                    java.nio.file.Path.of(".")));
                runs.add(dev.fabrictwin.bench.BenchWorkloads.streamsThroughput());
                runs.add(dev.fabrictwin.twin.scenario.ScenarioParser.parse(SCALE));
            } else {
                scenarios.forEach(f -> runs.add(dev.fabrictwin.twin.scenario.ScenarioParser.parse(f)));
            }
            final PrintWriter progress = spec.commandLine().getErr();
            progress.println("bench metrics: analyzing " + seconds + " s of each scenario's telemetry, counting the series "
                + "of /metrics after every tick ...");
            progress.flush();
            print(spec.commandLine().getOut(), dev.fabrictwin.bench.MetricsBench.run(runs,
                java.time.Duration.ofSeconds(seconds), topDevices, line -> {
                    progress.println("  " + line);
                    progress.flush();
                }), parent.json);
            return FabricTwin.EXIT_OK;
        }
    }

    /** {@code bench ingest-topic}: ingest --from-topic against a plain consumer on the same topic. */
    @Command(name = "ingest-topic", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = {"Messages/s of ingest --from-topic (200k gnmic event messages to canonical samples, exactly-once "
            + "v2, timed until every sample is committed) against a plain KafkaConsumer reading the same topic, one run "
            + "each on an embedded broker. JSON keys: ingestTopicMessagesPerSec, plainConsumerMessagesPerSec, "
            + "ingestTopicRatioVsPlainConsumer."})
    static final class IngestTopic implements Callable<Integer> {

        @ParentCommand
        private BenchCommand parent;

        @Spec
        private CommandSpec spec;

        @Override
        public Integer call() {
            print(spec.commandLine().getOut(), runIngestTopic(spec.commandLine().getErr()), parent.json);
            return FabricTwin.EXIT_OK;
        }
    }

    /** {@code bench ingest}: parse rates per format and produce throughput against Kafka's own tool. */
    @Command(name = "ingest", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = {"Parse+normalize samples/s per format on one thread, and ingest (parse + produce) throughput "
            + "to an embedded broker against Kafka's ProducerPerformance on the same broker in the same run. "
            + "Targets: >= 500k canonical samples/s/thread; producing >= 70 %% of Kafka's tool. JSON keys: "
            + "parseCanonicalPerSec, parseGnmicPerSec, parsePrometheusPerSec, produceRatioVsKafkaTool."})
    static final class Ingest implements Callable<Integer> {

        @ParentCommand
        private BenchCommand parent;

        @Spec
        private CommandSpec spec;

        @Override
        public Integer call() {
            print(spec.commandLine().getOut(), runIngest(spec.commandLine().getErr()), parent.json);
            return FabricTwin.EXIT_OK;
        }
    }
}
