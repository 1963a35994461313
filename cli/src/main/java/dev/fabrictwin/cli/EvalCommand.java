package dev.fabrictwin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Set;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.evaluation.CaptureEvaluation;
import dev.fabrictwin.evaluation.Evaluation;
import dev.fabrictwin.evaluation.ScoreTable;
import dev.fabrictwin.evaluation.Scorecard;
import dev.fabrictwin.evaluation.robustness.Robustness;
import dev.fabrictwin.simulator.reality.Reality;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabric-twin eval}: detection quality of the analyzer (and a static-threshold baseline) on scenarios. */
@Command(
    name = "eval",
    mixinStandardHelpOptions = true,
    usageHelpAutoWidth = true,
    description = {
        "Score the analyzer on a scenario (or a folder of them): simulate the cluster with its faults, run the "
            + "analyzer over it, and score its root-cause alerts against what was injected (docs/contracts.md scoring).",
        "Per fault type and overall: recall, precision, localization, median time to detect (seconds and sample "
            + "intervals; p95 in the JSON) and false alerts per hour of healthy running.",
        "--baseline thresholds scores a static-threshold detector (utilization > 90 %%, PFC pauses, ECN marks, any "
            + "drops or errors, P99 over the SLO, link down) on the same samples, side by side.",
        "--samples F --truth T with --scenario S scores a capture someone else made instead of simulating: the canonical "
            + "samples (plain JSON lines, not compressed) go through the path 'replay' runs, with S's fabric, jobs and "
            + "sample interval (its faults are not read), and the root-cause alerts are scored against the truth records "
            + "in T (JSON lines as sim.truth carries them; an empty file is a healthy capture). The same table and JSON, "
            + "then the false root alerts per 10k ports per day of healthy time and one line per false root alert: type, "
            + "entity, first seen in seconds from the capture's first sample.",
    },
    footerHeading = "%nExamples:%n",
    footer = {
        "  fabric-twin eval --scenario scenarios/pfc-storm-small.yaml --baseline thresholds",
        "  fabric-twin eval --all scenarios/ --baseline thresholds --json",
        "  fabric-twin eval --scenario scenarios/link-down.yaml --kafka     # on an embedded broker instead of replay",
        "  fabric-twin eval --all scenarios/ --draws 20 --json              # robustness: 20 draws of the hidden parameters",
        "  fabric-twin eval --scenario scenarios/silent-drop.yaml --draws 3 --vary control-frames",
        "  fabric-twin simulate --scenario scenarios/pfc-storm-small.yaml --out out/pfc     # or any lab's capture:",
        "  fabric-twin eval --scenario scenarios/pfc-storm-small.yaml --samples out/pfc/samples.jsonl --truth out/pfc/truth.jsonl",
    })
public final class EvalCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Input input;

    static final class Input {
        @Option(names = "--scenario", paramLabel = "FILE", description = "One scenario file (docs/contracts.md).")
        Path scenario;

        @Option(names = "--all", paramLabel = "DIR", description = "Every *.yaml scenario in this folder, pooled.")
        Path all;
    }

    @Option(names = "--samples", paramLabel = "FILE", description = "With --scenario and --truth: score this capture "
        + "(canonical samples, one JSON object per line; decompress .xz first) instead of simulating the scenario.")
    private Path samples;

    @Option(names = "--truth", paramLabel = "FILE", description = "With --samples: the capture's faults, one truth record "
        + "(id, type, target, start, end in epoch ms) per line; an empty file for a healthy capture.")
    private Path truth;

    @Option(names = "--baseline", paramLabel = "thresholds",
        description = "Also score the static-threshold baseline (the only one: thresholds).")
    private String baseline;

    @Option(names = "--kafka", description = "Run the analyzer on an embedded Kafka broker (exactly-once) instead of replay.")
    private boolean kafka;

    @Option(names = "--json", description = "Also print the figures as one JSON object on the last line.")
    private boolean json;

    @Option(names = "--shards", defaultValue = "1", paramLabel = "N", description = "Cut the analysis into N shards by "
        + "fabric domain (pods, else leaves; docs/analyzer.md \"Sharding\") with a correlation stage over them, as "
        + "'analyze --shards N' runs it; the scores should not change (default: ${DEFAULT-VALUE}).")
    private int shards;

    @Option(names = "--draws", paramLabel = "N", description = {"Robustness suite: run each scenario under draws 1..N of a "
        + "randomized reality (hidden parameters drawn from realistic ranges, docs/robustness.md) and report per fault "
        + "type the mean over draws and the worst draw, false root alerts per 10k ports per day on the faultless "
        + "scenarios, and every false alert's type."})
    private Integer draws;

    @Option(names = "--draw", paramLabel = "N", description = "Run (and score) draw N of the randomized reality instead of "
        + "the scenario's own telemetry.")
    private Integer draw;

    @Option(names = "--vary", paramLabel = "P,...", split = ",", description = "With --draws/--draw: vary only these hidden "
        + "parameters (clock, read-spread, control-frames, gauge-noise, ecmp-hash, physics, delivery); default all.")
    private List<String> vary;

    @Override
    public Integer call() throws Exception {
        if (baseline != null && !baseline.equals("thresholds")) {
            throw new UsageException("--baseline must be 'thresholds', was '" + baseline + "'");
        }
        if (samples != null || truth != null) {
            return capture();
        }
        final List<Path> files = files();
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final List<Scenario> scenarios = new ArrayList<>();
        for (final Path f : files) {
            scenarios.add(ScenarioParser.parse(f)); // every file parses before any runs: a typo fails fast
        }
        final Reality reality = reality();
        for (final Scenario s : scenarios) {
            Shards.check(s, shards);
        }
        if (draws != null) {
            if (draws < 1 || draw != null || kafka || baseline != null) {
                throw new UsageException("--draws needs N >= 1 and takes neither --draw, --kafka nor --baseline");
            }
            final List<Robustness.Run> runs = Robustness.run(scenarios, draws, reality, Evaluation.Mode.REPLAY, line -> {
                err.println("eval: " + line);
                err.flush();
            });
            final Robustness.Report report = Robustness.report(runs);
            Robustness.print(out, report);
            if (json) {
                out.println(Robustness.json(report));
            }
            out.flush();
            return 0;
        }
        if (draw != null) {
            if (draw < 1) {
                throw new UsageException("--draw must be >= 1, was " + draw);
            }
            scenarios.replaceAll(s -> s.withTelemetry(s.telemetry().withRealityDraw(draw)));
        }
        final List<Evaluation> runs = new ArrayList<>();
        for (final Scenario s : scenarios) {
            final long t0 = System.nanoTime();
            err.printf(Locale.ROOT, "eval: %s (%d s at %d ms, %d fault(s)) ...%n", s.name(), s.duration().toSeconds(),
                s.sampleInterval().toMillis(), s.faults().size());
            err.flush();
            final Evaluation e = Evaluation.run(s, kafka ? Evaluation.Mode.KAFKA : Evaluation.Mode.REPLAY, baseline != null, reality,
                shards);
            runs.add(e);
            err.printf(Locale.ROOT, "eval: %s: %,d samples in %.1f s%n", s.name(), e.samples(), (System.nanoTime() - t0) / 1e9);
            err.flush();
            if (input.all == null) {
                out.printf("Scenario %s%n", s.name());
                ScoreTable.print(out, e.analyzer(), e.baseline());
            }
        }
        final Scorecard analyzer = Scorecard.merge(runs.stream().map(Evaluation::analyzer).toList());
        final Scorecard base = baseline == null ? null : Scorecard.merge(runs.stream().map(Evaluation::baseline).toList());
        if (input.all != null) {
            out.println("Per scenario (overall):");
            for (final Evaluation e : runs) {
                final Scorecard.Line a = e.analyzer().overall();
                out.printf(Locale.ROOT, "  %-34s faults %2d  recall %s  precision %s  localization %s  ttd %s s%s%n",
                    e.scenario(), a.faults(), ScoreTable.num(a.recall()), ScoreTable.num(a.precision()), ScoreTable.num(a.localization()),
                    ScoreTable.num(a.ttdMedianSec()), e.baseline() == null ? ""
                        : String.format(Locale.ROOT, "   | baseline precision %s recall %s",
                            ScoreTable.num(e.baseline().overall().precision()), ScoreTable.num(e.baseline().overall().recall())));
            }
            out.printf("%nThe library, pooled (%d scenarios):%n", runs.size());
            ScoreTable.print(out, analyzer, base);
        }
        if (json) {
            out.println(ScoreTable.jsonLine(analyzer, base, Map.of("scenarios", (double) runs.size())));
        }
        out.flush();
        return 0;
    }

    /** {@code --samples F --truth T --scenario S}: a capture someone else made, replayed and scored. */
    private int capture() throws IOException {
        if (samples == null || truth == null || input.scenario == null) {
            throw new UsageException("--samples and --truth go together, with --scenario (not --all)");
        }
        if (kafka || draws != null || draw != null || (vary != null && !vary.isEmpty())) {
            throw new UsageException("--samples scores the capture as given: it takes neither --kafka, --draws, --draw nor --vary");
        }
        final Scenario s = ScenarioParser.parse(files().get(0));
        Shards.check(s, shards);
        CaptureEvaluation.check(samples, truth);
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final long t0 = System.nanoTime();
        err.printf(Locale.ROOT, "eval: replaying %s (%s, %d ms interval) against %s ...%n", samples, s.name(),
            s.sampleInterval().toMillis(), truth);
        err.flush();
        final CaptureEvaluation c = CaptureEvaluation.run(s, samples, truth, baseline != null, shards);
        final Evaluation e = c.evaluation();
        err.printf(Locale.ROOT, "eval: %s: %,d samples in %.1f s%n", s.name(), e.samples(), (System.nanoTime() - t0) / 1e9);
        err.flush();
        out.printf(Locale.ROOT, "Capture %s (scenario %s): %,d samples, %d ports, %.0f s, %d fault(s)%n", samples, s.name(),
            e.samples(), e.ports(), (c.endMs() - c.startMs()) / 1000.0, e.truth().size());
        ScoreTable.print(out, e.analyzer(), e.baseline());
        final Scorecard.Line all = e.analyzer().overall();
        out.printf(Locale.ROOT, "False root alerts: %d (%d of them while no fault was active: %s per 10k ports per day over "
                + "%.2f healthy hours of %d ports)%n", c.falseRoots().size(), all.falseHealthy(),
            ScoreTable.num(c.falseRootsPer10kPortsPerDay()), all.healthyHours(), e.ports());
        for (final Alert a : c.falseRoots()) {
            out.printf(Locale.ROOT, "  %-18s %-40s %9.1f s%n", a.type().name(), a.entity().key(),
                (a.firstSeen() - c.startMs()) / 1000.0);
        }
        if (json) {
            final Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("scenarios", 1.0);
            extra.put("samples", (double) e.samples());
            extra.put("ports", (double) e.ports());
            extra.put("falseRoots", (double) c.falseRoots().size());
            final double rate = c.falseRootsPer10kPortsPerDay();
            extra.put("falseRootsPer10kPortsPerDay", Double.isFinite(rate) ? rate : null);
            out.println(ScoreTable.jsonLine(e.analyzer(), e.baseline(), extra));
        }
        out.flush();
        return 0;
    }

    private Reality reality() {
        if (vary != null && !vary.isEmpty() && draws == null && draw == null) {
            throw new UsageException("--vary needs --draws or --draw");
        }
        return varying(vary);
    }

    /** The default reality ranges with only the hidden parameters {@code vary} names drawn (all when none). */
    static Reality varying(final List<String> vary) {
        if (vary == null || vary.isEmpty()) {
            return Reality.defaults();
        }
        final Set<Reality.Hidden> these = EnumSet.noneOf(Reality.Hidden.class);
        for (final String v : vary) {
            try {
                these.add(Reality.Hidden.parse(v));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        return Reality.defaults().varying(these);
    }

    private List<Path> files() throws IOException {
        if (input.scenario != null) {
            if (!Files.isRegularFile(input.scenario)) {
                throw new UsageException("scenario file not found: " + input.scenario);
            }
            return List.of(input.scenario);
        }
        if (!Files.isDirectory(input.all)) {
            throw new UsageException("--all needs a folder of scenario files, got " + input.all);
        }
        try (Stream<Path> list = Files.list(input.all)) {
            final List<Path> files = list.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
            if (files.isEmpty()) {
                throw new UsageException("no *.yaml scenario files in " + input.all);
            }
            return files;
        }
    }
}
