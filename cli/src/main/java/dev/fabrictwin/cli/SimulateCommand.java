package dev.fabrictwin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.LongConsumer;

import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.simulator.kafka.KafkaSimulationPublisher;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.scenario.TelemetryProfile;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabric-twin simulate}: a scenario's synthetic cluster to files or to Kafka. */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    usageHelpAutoWidth = true,
    description = {
        "Run a scenario's synthetic cluster (the twin with its faults injected, sampled like real telemetry: "
            + "clock skew, jitter, lost and late samples, counter wraps and reboot resets, noise, phase drift).",
        "With --out, write DIR/samples.jsonl, truth.jsonl, topology.json and jobs.json. With --bootstrap, "
            + "publish topology and jobs to their compacted topics, the faults to sim.truth, then the samples.",
    },
    footerHeading = "%nExamples:%n",
    footer = {
        "  fabric-twin simulate --scenario scenarios/pfc-storm-small.yaml --out out/pfc",
        "  fabric-twin simulate --scenario scenarios/healthy-baseline.yaml --bootstrap 127.0.0.1:9092 --rate realtime",
    })
final class SimulateCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--scenario", required = true, paramLabel = "FILE", description = "Scenario YAML (docs/contracts.md).")
    private Path scenario;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Target target;

    static final class Target {
        @Option(names = "--out", paramLabel = "DIR", description = "Write the four output files here.")
        Path out;

        @Option(names = "--bootstrap", paramLabel = "HOST:PORT", description = "Publish to this Kafka instead.")
        String bootstrap;
    }

    @Option(names = "--rate", defaultValue = "max", paramLabel = "realtime|max",
        description = "With --bootstrap: pace samples to simulated time, or send as fast as possible (default: ${DEFAULT-VALUE}).")
    private String rate;

    @Option(names = "--counter-bits", paramLabel = "32|64",
        description = "Counter width; 32 makes counters wrap (default: the scenario's, else 64).")
    private Integer counterBits;

    @Option(names = "--draw", paramLabel = "N", description = "Draw N of the randomized reality (hidden parameters drawn "
        + "from realistic ranges, docs/robustness.md) instead of the scenario's own telemetry profile.")
    private Integer draw;

    @Option(names = "--vary", paramLabel = "P,...", split = ",", description = "With --draw: draw only these hidden "
        + "parameters (clock, read-spread, control-frames, gauge-noise, ecmp-hash, physics, delivery), the others as "
        + "the scenario's profile; default all.")
    private List<String> vary;

    @Option(names = "--epoch", paramLabel = "now|ISO-8601",
        description = "Start simulated time here instead of the scenario's epoch, e.g. now (live telemetry stamped "
            + "with wall-clock times) or 2025-06-01T00:00:00Z.")
    private String epoch;

    @Option(names = "--config", paramLabel = "FILE", description = "Kafka client properties (with --bootstrap).")
    private Path config;

    @Option(names = "--topic-prefix", paramLabel = "PREFIX", defaultValue = "", description = "Topic name prefix.")
    private String topicPrefix;

    private static Scenario withEpoch(final Path file, final String epoch) {
        final String iso;
        if (epoch.equals("now")) {
            iso = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        } else {
            try {
                iso = Instant.parse(epoch).toString();
            } catch (DateTimeParseException e) {
                throw new UsageException("--epoch must be 'now' or an ISO-8601 instant like 2025-06-01T00:00:00Z, was '"
                    + epoch + "'");
            }
        }
        final var tree = ScenarioParser.tree(file);
        tree.put("epoch", iso);
        return ScenarioParser.parse(tree, file.toAbsolutePath().getParent());
    }

    @Override
    public Integer call() {
        if (!Files.isRegularFile(scenario)) {
            throw new UsageException("scenario file not found: " + scenario);
        }
        if (!rate.equals("max") && !rate.equals("realtime")) {
            throw new UsageException("--rate must be realtime or max, was '" + rate + "'");
        }
        final Scenario s = epoch == null ? ScenarioParser.parse(scenario) : withEpoch(scenario, epoch);
        TelemetryProfile profile = s.telemetry();
        if (counterBits != null) {
            profile = profile.withCounterBits(counterBits);
        }
        if (draw != null) {
            if (draw < 1) {
                throw new UsageException("--draw must be >= 1, was " + draw);
            }
            profile = profile.withRealityDraw(draw);
        } else if (vary != null && !vary.isEmpty()) {
            throw new UsageException("--vary needs --draw");
        }
        if (target.out != null) {
            requireDiskSpace(s, target.out);
        }
        final SyntheticCluster cluster = new SyntheticCluster(s, profile, EvalCommand.varying(vary));
        final PrintWriter err = spec.commandLine().getErr();
        final long rounds = s.duration().toMillis() / s.sampleInterval().toMillis();
        final LongConsumer progress = progress(err, rounds, s.sampleInterval().toMillis());
        final long t0 = System.nanoTime();
        final long samples;
        final String where;
        if (target.out != null) {
            samples = SimulationFiles.write(cluster, target.out, progress);
            where = target.out.toString();
        } else {
            final KafkaOptions kafka = new KafkaOptions();
            kafka.bootstrap = target.bootstrap;
            kafka.config = config;
            kafka.topicPrefix = topicPrefix;
            samples = KafkaSimulationPublisher.publish(cluster, kafka.clientConfig(), kafka.topics(),
                rate.equals("realtime"), progress);
            where = kafka.topics().samples().name() + " at " + target.bootstrap;
        }
        err.printf(Locale.ROOT, "%ssimulate: %s, %d ports, %d samples, %d faults -> %s (%.1f s)%n",
            System.console() != null ? "\n" : "", s.name(), cluster.fabric().ports().size(), samples, s.faults().size(),
            where, (System.nanoTime() - t0) / 1e9);
        err.flush();
        return FabricTwin.EXIT_OK;
    }

    /** Bytes a sample takes in samples.jsonl, about (measured on the shipped scenarios: 330–420). */
    private static final long BYTES_PER_SAMPLE = 400;

    /** Refuses, before any work, a run whose files would not fit on the disk (one sample per port per round). */
    private static void requireDiskSpace(final Scenario s, final Path out) {
        final long rounds = s.duration().toMillis() / s.sampleInterval().toMillis();
        final double bytes = 2.0 * s.fabric().linkCount() * rounds * BYTES_PER_SAMPLE;
        Path existing = out.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        try {
            final long free = existing == null ? Long.MAX_VALUE : Files.getFileStore(existing).getUsableSpace();
            if (bytes > free) {
                throw new UsageException(String.format(Locale.ROOT, "%s would write about %.1f GB to %s, and %.1f GB are "
                    + "free: shorten its duration, raise its sampleInterval, or use --bootstrap", s.name(), bytes / 1e9, out,
                    free / 1e9));
            }
        } catch (IOException e) {
            // the free space cannot be read: go on, the write itself will say what is wrong
        }
    }

    /** Progress on stderr: rewritten in place on a terminal (every 2 %), one line per 10 % otherwise. */
    static LongConsumer progress(final PrintWriter err, final long rounds, final long intervalMs) {
        final boolean terminal = System.console() != null;
        final long step = Math.max(1, rounds / (terminal ? 50 : 10));
        return done -> {
            if (done % step == 0 || done == rounds) {
                err.printf(Locale.ROOT, "%ssimulate: %d/%d s simulated (%d%%)%s", terminal ? "\r" : "",
                    done * intervalMs / 1000, rounds * intervalMs / 1000, 100 * done / Math.max(1, rounds),
                    terminal ? "" : "\n");
                err.flush();
            }
        };
    }
}
