package dev.fabrictwin.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import dev.fabrictwin.analyzer.replay.Replay;
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
            + "broker (Kafka's TopologyTestDriver), and write every alert record (OPEN, UPDATE, RESOLVED) as JSON lines.",
        "The scenario supplies the fabric, the declared jobs and the sample interval; its faults are not read. "
            + "Use it to reproduce an incident from a capture, or to check the analyzer on a simulated one.",
    },
    footerHeading = "%nExamples:%n",
    footer = {
        "  fabric-twin simulate --scenario scenarios/pfc-storm-small.yaml --out out/pfc",
        "  fabric-twin replay --scenario scenarios/pfc-storm-small.yaml --samples out/pfc/samples.jsonl --out out/pfc/alerts.jsonl",
    })
final class ReplayCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--scenario", required = true, paramLabel = "FILE", description = "Scenario YAML: fabric, jobs, sampleInterval.")
    private Path scenario;

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
        if (!Files.isRegularFile(scenario)) {
            throw new UsageException("scenario file not found: " + scenario);
        }
        if (!Files.isRegularFile(samples)) {
            throw new UsageException("samples file not found: " + samples);
        }
        final Scenario s = ScenarioParser.parse(scenario);
        Shards.check(s, shards);
        final PrintWriter err = spec.commandLine().getErr();
        final long t0 = System.nanoTime();
        final TreeMap<String, Integer> opened = new TreeMap<>();
        final Replay.Result result;
        try (BufferedWriter writer = "-".equals(out)
            ? new BufferedWriter(new java.io.OutputStreamWriter(System.out, StandardCharsets.UTF_8))
            : Files.newBufferedWriter(prepare(Path.of(out)), StandardCharsets.UTF_8)) {
            final BufferedWriter health = jobHealth == null ? null : Files.newBufferedWriter(prepare(jobHealth));
            result = Replay.run(s, samples, alert -> {
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
        err.printf(Locale.ROOT, "replay: %s, %d samples, %d alert records (root causes opened: %s), %d dead-lettered -> %s (%.1f s)%n",
            s.name(), result.samples(), result.alerts(), opened.isEmpty() ? "none" : opened, result.deadLettered(), out,
            (System.nanoTime() - t0) / 1e9);
        err.flush();
        return FabricTwin.EXIT_OK;
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
