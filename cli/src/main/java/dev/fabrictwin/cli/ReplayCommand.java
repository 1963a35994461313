package dev.fabrictwin.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import dev.fabrictwin.analyzer.replay.CaptureInterval;
import dev.fabrictwin.analyzer.replay.Replay;
import dev.fabrictwin.analyzer.replay.ReplayDocuments;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.AlertJson;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabric-twin replay}: a capture of samples through the analyzer's topology, with no broker. */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    usageHelpAutoWidth = true,
    description = {
        "Run a capture of canonical samples through the same Kafka Streams topology 'analyze' runs, without a "
            + "broker (its stages called directly; with --shards, the shards' analyses on a thread per core), and write every alert record (OPEN, UPDATE, RESOLVED) as JSON lines.",
        "The fabric and the declared jobs come from a scenario (its faults are not read) or from the documents "
            + "'analyze' reads from its topics: --topology (as 'topology import --out' writes it) and --jobs (as "
            + "'jobs import --out' writes them; none: a fabric no scheduler declares jobs on). The sample interval is "
            + "the scenario's, or --sample-interval, or read from the capture (the median gap between a port's samples).",
        "At the end it says how many sampled ports meet no topology port, by reason, and names the first few: their "
            + "samples are not analyzed (add them to the topology's 'names' section, docs/contracts.md).",
        "Use it to reproduce an incident from a capture, or to check the analyzer on a simulated one.",
    },
    footerHeading = "%nExamples:%n",
    footer = {
        "  fabric-twin simulate --scenario scenarios/pfc-storm-small.yaml --out out/pfc",
        "  fabric-twin replay --scenario scenarios/pfc-storm-small.yaml --samples out/pfc/samples.jsonl --out out/pfc/alerts.jsonl",
        "  fabric-twin replay --topology out/pfc/topology.json --jobs out/pfc/jobs.json --samples out/pfc/samples.jsonl "
            + "--out out/pfc/alerts.jsonl",
    })
final class ReplayCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--scenario", paramLabel = "FILE", description = "Scenario YAML: fabric, jobs, sampleInterval.")
    private Path scenario;

    @Option(names = "--topology", paramLabel = "FILE", description = "Instead of --scenario: a topology document (JSON).")
    private Path topology;

    @Option(names = "--jobs", paramLabel = "FILE", description = "With --topology: the job documents, a JSON array.")
    private Path jobs;

    @Option(names = "--sample-interval", converter = DurationConverter.class, paramLabel = "TIME",
        description = "With --topology: the telemetry's poll interval (default: read from the capture).")
    private Duration sampleInterval;

    @Option(names = "--samples", required = true, paramLabel = "FILE", description = "Canonical samples, one JSON object per line.")
    private Path samples;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "Where to write the alerts (JSON lines; '-' for stdout).")
    private String out;

    @Option(names = "--job-health", paramLabel = "FILE",
        description = "Also write each job's health per tick (fabric.job-health records) here as JSON lines.")
    private Path jobHealth;

    @Option(names = "--shards", defaultValue = "1", paramLabel = "N", description = "Cut the analysis into N shards by "
        + "fabric domain (pods, else leaves; docs/analyzer.md \"Sharding\"), as 'analyze --shards N' runs it "
        + "(default: ${DEFAULT-VALUE}).")
    private int shards;

    @Override
    public Integer call() throws IOException {
        if (!Files.isRegularFile(samples)) {
            throw new UsageException("samples file not found: " + samples);
        }
        final ReplayDocuments documents = documents();
        final PrintWriter err = spec.commandLine().getErr();
        final long t0 = System.nanoTime();
        final TreeMap<String, Integer> opened = new TreeMap<>();
        final Replay.Result result;
        try (BufferedWriter writer = "-".equals(out)
            ? new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8))
            : Files.newBufferedWriter(prepare(Path.of(out)), StandardCharsets.UTF_8)) {
            final BufferedWriter health = jobHealth == null ? null : Files.newBufferedWriter(prepare(jobHealth));
            result = Replay.run(documents, samples, alert -> {
                write(writer, AlertJson.writeString(alert));
                if (alert.state() == Alert.State.OPEN && alert.rootCause()) {
                    opened.merge(alert.type().name(), 1, Integer::sum);
                }
            }, json -> {
                if (health != null) {
                    write(health, new String(json, StandardCharsets.UTF_8));
                }
            }, n -> {
                if (n % 100_000 == 0) {
                    err.printf(Locale.ROOT, "replay: %d samples%n", n);
                    err.flush();
                }
            }, shards);
            if (health != null) {
                health.close();
            }
        }
        if (!result.unmatched().isEmpty()) {
            err.printf(Locale.ROOT, "replay: sampled ports that meet no topology port, not analyzed: %s; first: %s%n",
                result.unmatched(), String.join(", ", result.unmatchedExamples()));
        }
        final double seconds = (System.nanoTime() - t0) / 1e9;
        err.printf(Locale.ROOT, "replay: %s, %d samples, %d alert records (root causes opened: %s), %d dead-lettered -> %s "
                + "(%.1f s, %.1fk samples/s)%n", documents.fabricId(), result.samples(), result.alerts(),
            opened.isEmpty() ? "none" : opened, result.deadLettered(), out, seconds, result.samples() / seconds / 1e3);
        err.flush();
        return FabricTwin.EXIT_OK;
    }

    /** The documents the replay feeds the topology, from the scenario or the files, checked: a bad one is a usage error. */
    private ReplayDocuments documents() throws IOException {
        if ((scenario == null) == (topology == null)) {
            throw new UsageException("give either --scenario FILE or --topology FILE [--jobs FILE]");
        }
        if (scenario != null) {
            if (jobs != null || sampleInterval != null) {
                throw new UsageException("--jobs and --sample-interval go with --topology; a scenario declares both");
            }
            if (!Files.isRegularFile(scenario)) {
                throw new UsageException("scenario file not found: " + scenario);
            }
            final Scenario s = ScenarioParser.parse(scenario);
            Shards.check(s, shards);
            return ReplayDocuments.of(s);
        }
        for (final Path f : jobs == null ? List.of(topology) : List.of(topology, jobs)) {
            if (!Files.isRegularFile(f)) {
                throw new UsageException("file not found: " + f);
            }
        }
        if (sampleInterval != null && (sampleInterval.isNegative() || sampleInterval.toMillis() == 0)) {
            throw new UsageException("--sample-interval must be at least 1 ms, was " + sampleInterval);
        }
        final ReplayDocuments documents;
        try {
            documents = ReplayDocuments.read(topology, jobs, 1);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Shards.check(documents, shards);
        if (sampleInterval != null) {
            return documents.withSampleIntervalMs(sampleInterval.toMillis());
        }
        final long intervalMs = CaptureInterval.infer(samples).orElseThrow(() -> new UsageException("no port is sampled "
            + "twice in the head of " + samples + ": give --sample-interval"));
        spec.commandLine().getErr().printf(Locale.ROOT, "replay: sample interval %d ms, read from the capture "
            + "(--sample-interval to set it)%n", intervalMs);
        return documents.withSampleIntervalMs(intervalMs);
    }

    private static Path prepare(final Path file) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        return file;
    }

    private static void write(final BufferedWriter writer, final String line) {
        try {
            writer.write(line);
            writer.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
