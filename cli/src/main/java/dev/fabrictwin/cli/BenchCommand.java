package dev.fabrictwin.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

import dev.fabrictwin.analyzer.metrics.SeriesLimits;
import dev.fabrictwin.bench.BenchWorkloads;
import dev.fabrictwin.bench.FidelityBench;
import dev.fabrictwin.bench.IngestBench;
import dev.fabrictwin.bench.IngestTopicBench;
import dev.fabrictwin.bench.MemoryBench;
import dev.fabrictwin.bench.MetricsBench;
import dev.fabrictwin.bench.ScaleBench;
import dev.fabrictwin.bench.StreamsBench;
import dev.fabrictwin.bench.TwinBench;
import dev.fabrictwin.evaluation.Json;
import dev.fabrictwin.twin.fidelity.ReferenceCase;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code fabric-twin bench [BENCHMARK]}: performance figures, printed as a table and optionally JSON. One command over
 * {@link Benchmark}: it parses, checks each option belongs to the benchmark named, and calls the bench.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    usageHelpAutoWidth = true,
    description = {"Measure fabric-twin's performance on this machine. Without a BENCHMARK, runs twin, fidelity, "
        + "ingest, ingest-topic and streams; memory and metrics run only when named. An option belongs to the "
        + "benchmarks its description names."},
    footerHeading = "%nBenchmarks:%n",
    footer = {
        "twin: " + BenchCommand.TWIN_HELP,
        "fidelity: " + BenchCommand.FIDELITY_HELP,
        "ingest: " + BenchCommand.INGEST_HELP,
        "ingest-topic: " + BenchCommand.INGEST_TOPIC_HELP,
        "streams: " + BenchCommand.STREAMS_HELP,
        "memory: " + BenchCommand.MEMORY_HELP,
        "metrics: " + BenchCommand.METRICS_HELP})
final class BenchCommand implements Callable<Integer> {

    static final String TWIN_HELP =
        "Full max-min allocation and a one-link incremental re-solve on a 1,024-GPU spine-leaf and "
            + "a 32,768-GPU rail-optimized fabric with every GPU in ring all-reduce jobs. Targets (32k): full "
            + "<= 100 ms, incremental <= 10 ms. JSON keys: fullSolveMs1k, fullSolveMs32k, incrementalSolveMs32k.";
    static final String FIDELITY_HELP =
        "The twin's makespan on each packet-level reference case (128 hosts, 2-tier, 100G; htsim runs: "
            + "ring, ringx 1:1 and 2:1, a2a, incast) over hash seeds 1..N, against the reference's seed spread: "
            + "reference seed 1 and median, twin median and range, ratio of medians, solve time. See docs/fidelity.md. "
            + "JSON keys: <case>.ratio, <case>.meanRatio, <case>.solveSeconds (case names with dashes, e.g. "
            + "ringx-64M-1:1.ratio).";
    static final String INGEST_HELP =
        "Parse+normalize samples/s per format on one thread, and ingest (parse + produce) throughput "
            + "to an embedded broker against Kafka's ProducerPerformance on the same broker in the same run. "
            + "Targets: >= 500k canonical samples/s/thread; producing >= 70 %% of Kafka's tool. JSON keys: "
            + "parseCanonicalPerSec, parseGnmicPerSec, parsePrometheusPerSec, produceRatioVsKafkaTool.";
    static final String INGEST_TOPIC_HELP =
        "Messages/s of ingest --from-topic (200k gnmic event messages to canonical samples, exactly-once "
            + "v2, timed until every sample is committed) against a plain KafkaConsumer reading the same topic on an "
            + "embedded broker; each reads it twice in turn and the second (JIT-warm) pass is the figure. JSON keys: "
            + "ingestTopicMessagesPerSec, plainConsumerMessagesPerSec, ingestTopicRatioVsPlainConsumer, "
            + "ingestTopicCpuMicrosPerMessage, plainConsumerCpuMicrosPerMessage (process CPU, broker included), and the "
            + "first pass's ingestTopicColdMessagesPerSec, plainConsumerColdMessagesPerSec, ingestTopicColdRatioVsPlainConsumer; "
            + "then the floor under any such app, Kafka Streams with ingest's settings copying the messages unparsed: "
            + "passThroughMessagesPerSec, passThroughRatioVsPlainConsumer, passThroughCpuMicrosPerMessage, "
            + "ingestTopicRatioVsPassThrough.";
    static final String STREAMS_HELP =
        "Samples/s through the full analyzer topology (exactly-once) on an embedded broker against a "
            + "plain consumer reading the same topic in the same run, and the p99 from the sample that closes a tick "
            + "to its alert record being readable. Targets: >= 100k port-samples/s; p99 <= 1 s beyond the commit "
            + "interval (100 ms). In the same run, the analysis core on one thread without Kafka (as --ports times it) over "
            + "the same capture's samples, with the same 3 warm-up passes and median of 3. JSON keys: samplesPerSec, "
            + "ratioVsPlainConsumer, coreSamplesPerSec, ratioVsCore (samplesPerSec / coreSamplesPerSec; goal >= 0.6), "
            + "p99SampleToAlertMs; and the median pass's CPU per sample by thread group (Linux names the JVM's): "
            + "instanceCpuMicrosPerSample (the analyzer's own: streamThreads + appClients + gc), brokerAndRest, jit "
            + "(<group>CpuMicrosPerSample), against coreMicrosPerSample (docs/analyzer.md, \"Through Kafka\"); and "
            + "the floor, Kafka Streams with the analyzer's settings copying the samples unparsed: "
            + "passThroughSamplesPerSec, passThroughRatioVsCore, passThroughInstanceCpuMicrosPerSample. "
            + "With --ports, instead: the analyzer's samples/s at each fabric size, one thread, without Kafka. Each size is "
            + "a generated spine-leaf fabric of that many sampled ports (ports = 3 x hosts; 16 hosts per leaf up to 256 "
            + "hosts, then 32 per leaf and 16 spines, 2:1; jobs on 1/2, 3/8 and 1/8 of the hosts: ring, hierarchical "
            + "all-reduce, background), its telemetry generated a fabric's worth of intervals (about a second) at a time (not timed) and fed through the "
            + "rates stage and FabricAnalyzer (timed); each size runs --seconds of telemetry or longer until "
            + "--min-samples, and its first third (at least --warm-up seconds) is not counted. Heap: used after GC "
            + "at the end (analyzer and generator). The fabrics have no fault: every alert that opens is false and is "
            + "named on stderr. Goal: the largest within 2x of the smallest and "
            + ">= 100k samples/s. A 49,152-port size needs -Xmx3g or more (FABRIC_TWIN_JAVA_OPTS). JSON keys: "
            + "ports<N>.samplesPerSec, ports<N>.samplesPerCpuSec (the analyzing thread's CPU time: steadier on a shared "
            + "machine), ports<N>.heapMB, largestVsSmallest (samples/s). " + "With --scenario FILE instead of --ports: the same measure on that scenario's fabric, jobs and faults for "
            + "--seconds (its alerts are named on stderr), keys ports<N> with N its sampled ports; with --shards it prints "
            + "what the 32,768-GPU scenario needs: FABRIC_TWIN_JAVA_OPTS=-Xmx12g fabric-twin bench streams --scenario "
            + "scenarios/scale-32k/rail-32768.yaml --shards 16 --seconds 60 (~6 min). " + "Example: FABRIC_TWIN_JAVA_OPTS=-Xmx4g fabric-twin bench streams --ports 768,6144,49152 (takes ~10 min)";
    static final String MEMORY_HELP =
        "Heap the analyzer retains (after forced GCs), read 5 times over a run and at its end, per port and "
            + "per flow: a scenario's telemetry is generated to a temporary file, then analyzed without Kafka. Default "
            + "workload: bench streams' (768 ports, 600 s). Not part of 'bench' without a benchmark. JSON keys: "
            + "memoryPorts, memoryFlows, retainedBytes, bytesPerPort, bytesPerFlow. " + "Example: fabric-twin bench memory --scenario scenarios/scale/spine-leaf-2048.yaml";
    static final String METRICS_HELP =
        "Series on /metrics at each fabric size: each scenario's first seconds of telemetry are generated and "
            + "analyzed without Kafka, every tick handed to the product meters with the device bound (--top-devices) and "
            + "to meters listing every device (as before the bound); the series are counted in the Prometheus scrape text "
            + "after every tick. Default scenarios: the demo's 256 GPUs (576 ports), bench streams' 768 ports, "
            + "scenarios/scale/spine-leaf-2048.yaml (6,144 ports; run from the repository). Not part of 'bench' without a "
            + "benchmark (takes ~1-2 min). JSON keys per scenario name: <name>.ports, .devices, .series, .deviceSeries, "
            + ".seriesEveryDevice, .deviceSeriesEveryDevice, .churnPerTick. " + "Example: fabric-twin bench metrics --scenario scenarios/rail-2048.yaml --seconds 30";
    /** The benchmarks, by the name {@code bench} takes, with the options each accepts. */
    enum Benchmark {
        TWIN("twin"),
        FIDELITY("fidelity", "--seeds", "--case"),
        INGEST("ingest"),
        INGEST_TOPIC("ingest-topic"),
        STREAMS("streams", "--ports", "--scenario", "--seconds", "--warm-up", "--min-samples", "--shards"),
        MEMORY("memory", "--scenario"),
        METRICS("metrics", "--scenario", "--seconds", "--top-devices");

        /** What {@code bench} without a benchmark runs, in this order. */
        static final List<Benchmark> DEFAULT = List.of(TWIN, FIDELITY, INGEST, INGEST_TOPIC, STREAMS);

        final String label;
        final Set<String> options;

        Benchmark(final String label, final String... options) {
            this.label = label;
            this.options = Set.of(options);
        }

        /** Picocli's converter: a benchmark by its label, or a one-line list of the known ones. */
        static final class ByLabel implements ITypeConverter<Benchmark> {
            @Override
            public Benchmark convert(final String value) {
                return Arrays.stream(values()).filter(b -> b.label.equalsIgnoreCase(value)).findFirst()
                    .orElseThrow(() -> new TypeConversionException("unknown benchmark '" + value + "' (known: "
                        + String.join(", ", Arrays.stream(values()).map(b -> b.label).toList()) + ")"));
            }
        }
    }

    static final int DEFAULT_SEEDS = 9;
    static final Path SCALE = Path.of("scenarios", "scale", "spine-leaf-2048.yaml");
    /** Options every benchmark takes; any other must be one the named benchmark lists. */
    private static final Set<String> EVERY_BENCHMARK = Set.of("--json", "--help", "--version");

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "BENCHMARK", converter = Benchmark.ByLabel.class,
        description = "twin, fidelity, ingest, ingest-topic, streams, memory or metrics (below); default: the first five.")
    Benchmark benchmark;

    @Option(names = "--json", description = "Also print the figures as one JSON object on the last line.")
    boolean json;

    @Option(names = "--seeds", defaultValue = "" + DEFAULT_SEEDS, paramLabel = "N",
        description = "fidelity: hash seeds per case where ECMP matters (default: ${DEFAULT-VALUE}).")
    int seeds;

    @Option(names = "--case", paramLabel = "NAME", split = ",",
        description = "fidelity: only these cases, e.g. --case 'ringx 64M 1:1,incast 16M' (default: all).")
    List<String> cases = List.of();

    @Option(names = "--ports", paramLabel = "N", split = ",",
        description = "streams: fabric sizes in sampled ports, e.g. 768,6144,49152: ports = 3 x hosts, hosts a multiple of "
            + "16 (of 32 above 256 hosts).")
    List<Integer> ports = new ArrayList<>();

    @Option(names = "--scenario", paramLabel = "FILE",
        description = "streams: instead of --ports, a scenario file's fabric, jobs and faults, run for --seconds. "
            + "memory: the scenario to run instead of the default. metrics: a scenario to count on (repeatable; "
            + "default: the three named below).")
    List<Path> scenarios = new ArrayList<>();

    @Option(names = "--seconds", paramLabel = "S",
        description = "streams (with --ports or --scenario): seconds of telemetry analyzed at each size (default: 40). "
            + "metrics: seconds of each scenario's telemetry analyzed (default: 60).")
    Integer seconds;

    @Option(names = "--warm-up", defaultValue = "15", paramLabel = "S",
        description = "streams (with --ports or --scenario): first seconds analyzed but not counted, or the first third "
            + "of the run if longer (default: ${DEFAULT-VALUE}).")
    int warmUp;

    @Option(names = "--min-samples", defaultValue = "400000", paramLabel = "N",
        description = "streams (with --ports): a size runs longer than --seconds until it has generated N samples, so "
            + "that small fabrics are timed warm (default: ${DEFAULT-VALUE}; 768 ports: 521 s of telemetry).")
    long minSamples;

    @Option(names = "--shards", defaultValue = "1", paramLabel = "N",
        description = "streams (with --ports or --scenario): cut the analysis into N shards ('analyze --shards', "
            + "docs/analyzer.md \"Sharding\") run one after another in the thread, each timed alone, with the "
            + "correlation stage; adds ports<N>.slowestShardSamplesPerCpuSec, .meanShardSamplesPerCpuSec, "
            + ".correlationCpuShare, .instancesForRealTime, .samplesPerInstanceSec, .sampleMicros, .replicaMsPerTick "
            + "and the projection to gpus32768 and gpus100000 (default: ${DEFAULT-VALUE}).")
    int shards;

    @Option(names = "--top-devices", defaultValue = "" + SeriesLimits.DEFAULT_DEVICES, paramLabel = "N",
        description = "metrics: the device bound, as analyze --top-devices (default: ${DEFAULT-VALUE}).")
    int topDevices;

    @Override
    public Integer call() throws Exception {
        checkOptionsBelongTo(benchmark);
        final Map<String, Double> figures;
        if (benchmark == null) {
            figures = new LinkedHashMap<>();
            for (final Benchmark b : Benchmark.DEFAULT) {
                figures.putAll(run(b));
            }
        } else {
            figures = run(benchmark);
        }
        print(spec.commandLine().getOut(), figures, json);
        return FabricTwin.EXIT_OK;
    }

    /** An option given to a benchmark that does not read it is a usage error, not silently ignored. */
    private void checkOptionsBelongTo(final Benchmark b) {
        for (final var option : spec.commandLine().getParseResult().matchedOptions()) {
            final String name = option.longestName();
            if (!EVERY_BENCHMARK.contains(name) && (b == null || !b.options.contains(name))) {
                throw new UsageException(name + " is not an option of 'bench" + (b == null ? "" : " " + b.label) + "'");
            }
        }
    }

    private Map<String, Double> run(final Benchmark b) throws Exception {
        final PrintWriter progress = spec.commandLine().getErr();
        final Consumer<String> lines = line -> {
            progress.println("  " + line);
            progress.flush();
        };
        return switch (b) {
            case TWIN -> {
                say(progress, "bench twin: building fabrics and routing every flow (takes ~10 s) ...");
                yield TwinBench.run(lines);
            }
            case FIDELITY -> {
                checkFidelity();
                say(progress, "bench fidelity: the packet-level reference cases on the twin, " + seeds
                    + " hash seeds where ECMP matters (takes ~10 s) ...");
                yield FidelityBench.run(seeds, cases, lines);
            }
            case INGEST -> {
                say(progress, "bench ingest: generating input, parsing, then producing to an embedded broker (takes ~1 min) ...");
                yield IngestBench.run(lines);
            }
            case INGEST_TOPIC -> {
                say(progress, "bench ingest-topic: 200k gnmic event messages through a plain consumer, then through "
                    + "ingest --from-topic (exactly-once), twice each, on an embedded broker (takes ~1 min) ...");
                yield failing("bench ingest-topic", () -> IngestTopicBench.run(lines));
            }
            case STREAMS -> streams(progress, lines);
            case MEMORY -> {
                if (scenarios.size() > 1) {
                    throw new UsageException("bench memory takes one --scenario");
                }
                say(progress, "bench memory: generating the telemetry, then analyzing it with forced GCs along the way ...");
                final Scenario s = scenarios.isEmpty() ? BenchWorkloads.streamsThroughput() : ScenarioParser.parse(scenarios.get(0));
                yield MemoryBench.run(s, lines);
            }
            case METRICS -> metrics(progress, lines);
        };
    }

    private void checkFidelity() {
        if (seeds < 1) {
            throw new UsageException("--seeds must be >= 1, was " + seeds);
        }
        final Set<String> known = new TreeSet<>();
        ReferenceCase.all().forEach(c -> known.add(c.name()));
        for (final String c : cases) {
            if (!known.contains(c)) {
                throw new UsageException("unknown case '" + c + "' (known: " + String.join(", ", known) + ")");
            }
        }
    }

    private Map<String, Double> streams(final PrintWriter progress, final Consumer<String> lines) {
        final int runSeconds = seconds == null ? 40 : seconds;
        if (!scenarios.isEmpty()) {
            if (!ports.isEmpty() || scenarios.size() > 1) {
                throw new UsageException("--scenario and --ports are alternatives: give one (one --scenario)");
            }
            if (warmUp < 0 || runSeconds < warmUp + 5) {
                throw new UsageException("--seconds must be >= --warm-up + 5, --warm-up >= 0");
            }
            final Scenario parsed = ScenarioParser.parse(scenarios.get(0));
            Shards.check(parsed, shards);
            say(progress, "bench streams --scenario: " + runSeconds + " s of " + parsed.name() + "'s telemetry through "
                + "the analyzer" + (shards > 1 ? " in " + shards + " shards" : "") + " without Kafka, the first third not "
                + "counted ...");
            return ScaleBench.runScenario(parsed, runSeconds, warmUp, shards, lines);
        }
        if (ports.isEmpty()) {
            say(progress, "bench streams: a 768-port capture through a plain consumer and the analyzer (3 warm-up "
                + "passes, then the median of 3), the same samples through the analysis core without Kafka (likewise), then alert latency at 10x real time, on an embedded broker (takes ~4 min) ...");
            return failing("bench streams", () -> StreamsBench.run(lines));
        }
        for (final int p : ports) {
            final String why = ScaleBench.invalid(p);
            if (why != null) {
                throw new UsageException(why);
            }
        }
        if (warmUp < 0 || runSeconds < warmUp + 5 || minSamples < 0) {
            throw new UsageException("--seconds must be >= --warm-up + 5, --warm-up and --min-samples >= 0");
        }
        final int most = ports.stream().mapToInt(ScaleBench::leaves).min().orElse(1);
        if (shards < 1 || shards > most) {
            throw new UsageException("--shards must be 1.." + most + " for these sizes (at most one shard per leaf of "
                + "the smallest fabric), was " + shards);
        }
        say(progress, "bench streams --ports: at least " + runSeconds + " s of telemetry (and " + minSamples
            + " samples) at each of " + ports + " ports through the analyzer without Kafka, the first third not "
            + "counted ...");
        return ScaleBench.run(ports, runSeconds, warmUp, minSamples, shards, lines);
    }

    private Map<String, Double> metrics(final PrintWriter progress, final Consumer<String> lines) throws Exception {
        final int runSeconds = seconds == null ? 60 : seconds;
        if (runSeconds < 5 || topDevices < 0) {
            throw new UsageException("--seconds must be >= 5 (ticks close after the grace), --top-devices >= 0");
        }
        final List<Scenario> runs = new ArrayList<>();
        if (scenarios.isEmpty()) {
            runs.add(ScenarioParser.parse(DemoCommand.defaultScenarioTree(), Path.of(".")));
            runs.add(BenchWorkloads.streamsThroughput());
            runs.add(ScenarioParser.parse(SCALE));
        } else {
            scenarios.forEach(f -> runs.add(ScenarioParser.parse(f)));
        }
        say(progress, "bench metrics: analyzing " + runSeconds + " s of each scenario's telemetry, counting the series "
            + "of /metrics after every tick ...");
        return MetricsBench.run(runs, Duration.ofSeconds(runSeconds), topDevices, lines);
    }

    /** A bench on an embedded broker: its checked failure as one line. */
    private static Map<String, Double> failing(final String what, final Callable<Map<String, Double>> bench) {
        try {
            return bench.call();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (Exception e) {
            throw new IllegalStateException(what + " failed: " + e.getMessage(), e);
        }
    }

    private static void say(final PrintWriter progress, final String line) {
        progress.println(line);
        progress.flush();
    }

    static void print(final PrintWriter out, final Map<String, Double> figures, final boolean json) {
        figures.forEach((k, v) -> out.printf(Locale.ROOT, "%-36s %12.3f%n", k, v));
        if (json) {
            out.println(Json.line(Json.rounded(figures)));
        }
        out.flush();
    }
}
