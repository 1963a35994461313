package dev.fabrictwin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fabrictwin.analyzer.runtime.AnalyzerApp;
import dev.fabrictwin.analyzer.runtime.AnalyzerPaths;
import dev.fabrictwin.contract.document.PublishedDocuments;
import dev.fabrictwin.evaluation.Json;
import dev.fabrictwin.twin.scenario.FabricDocuments;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.whatif.LearnedPins;
import dev.fabrictwin.twin.whatif.WhatIf;
import dev.fabrictwin.twin.whatif.WhatIfFault;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabric-twin whatif}: capacity planning on the twin; Kafka only to read the live fabric's documents. */
@Command(
    name = "whatif",
    mixinStandardHelpOptions = true,
    usageHelpAutoWidth = true,
    description = {
        "Predict each job's comm time, step time, comm overhead and GPU utilization if one fabric setting "
            + "changed, or under failures and maintenance (--fault), against the same fabric healthy. Runs the jobs on "
            + "the twin (a scenario's declared faults ignored) once per value; the compute phase never changes, only "
            + "the network does.",
        "The fabric and jobs come from a scenario, or from the documents of the fabric as it runs (--topology, "
            + "--jobs: what 'topology import --out', 'jobs import --out' and 'simulate --out' write; ECMP hashes as "
            + "a scenario's default seed 1).",
        "--fault (repeatable: several at once) is in force from the start: drain:DEVICE and down:DEVICE take every "
            + "link of the device down (the twin routes around a drained, dead or removed switch alike), down:A~B "
            + "the links between two devices, degrade:A~B=RATE runs them at RATE (100G) or at a share of their speed "
            + "(50%%). Each job's slowdown is its step time faulted over healthy; a job is hurt when its step grows "
            + "by 1%% or more; 'binding' lists the directed links that hold its slowest flows under the faults; a job left without "
            + "a route stalls.",
        "The live mode, --bootstrap B (with --config and --topic-prefix as the analyzer has them): the latest "
            + "topology document on fabric.topology and every running job on fabric.jobs, read to their end (committed "
            + "records), and the paths the analyzer (--application-id) learned: the latest learned section of each of its "
            + "checkpoints (several when sharded), on <application-id>-analysis-checkpoint-changelog. Each job flow whose "
            + "path it learned is pinned to it, in every hash seed (only the other flows rehash); a pin whose flow or "
            + "first hop the documents' fabric lacks is dropped. No checkpoint to read is no error: the flows then "
            + "hash as a scenario's default seed would. The first lines (stderr) and --json ('paths') say which.",
        "With two drains or more (a maintenance window) it also drains each device alone and prints the order that "
            + "hurts least first: the drains that hurt no job, then by jobs hurt and worst slowdown (one more run per "
            + "drained device; JSON: drainOrder).",
        "ECMP hashes are unknown: --seeds N draws N hash seeds (the scenario's own first) and reports the comm time's "
            + "median and 90th percentile over them (Harrell-Davis estimates: a makespan comes in steps of colliding "
            + "flows, and a plain median of a few seeds is one seed's step).",
        "Without --set the scenario runs as declared. A scenario's explicit flows (flows:) get one row, '(flows)': "
            + "their makespan, from the first start to the last end; they have no step time or GPU utilization.",
    },
    footerHeading = "%nSettings:%n",
    footer = {
        "  linkSpeed, hostLinkSpeed, coreLinkSpeed   e.g. 100G,200G,400G",
        "  spines, leaves, hostsPerLeaf, nicsPerHost, hostsPerGroup, cores, spinesPerPod   whole numbers",
        "  technology   roce, infiniband, ethernet;   routing   ecmp, spray;   transport   ecn, pfc",
        "",
        "Example:",
        "  fabric-twin whatif --scenario scenarios/whatif-1k-ring.yaml --set hostLinkSpeed=100G,400G",
        "  fabric-twin whatif --scenario scenarios/ecmp-imbalance.yaml --set spines=4,8 --seeds 20",
        "  fabric-twin whatif --scenario scenarios/fidelity/ringx-64m-1to1.yaml --seeds 9",
        "  fabric-twin whatif --scenario scenarios/pfc-storm-small.yaml --fault drain:spine-3",
        "  fabric-twin whatif --topology topology.json --jobs jobs.json --fault degrade:leaf-2~spine-1=100G "
            + "--fault down:leaf-4",
        "  fabric-twin whatif --bootstrap localhost:9092 --fault drain:spine-1 --fault drain:spine-2 --fault drain:spine-3",
    })
final class WhatIfCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--scenario", paramLabel = "FILE", description = "Scenario YAML (docs/contracts.md).")
    private Path scenario;

    @Option(names = "--topology", paramLabel = "FILE",
        description = "The fabric's topology document (instead of --scenario), as 'topology import --out' writes it.")
    private Path topology;

    @Option(names = "--jobs", paramLabel = "FILE",
        description = "Its running jobs: the JSON array 'jobs import --out' (or simulate --out's jobs.json) writes.")
    private Path jobs;

    /** The live mode: the documents on the fabric's topics (--bootstrap, --config, --topic-prefix). */
    @Mixin
    private KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--fabric", paramLabel = "ID",
        description = "With --bootstrap: the fabric whose topology to read, when its topic holds several.")
    private String fabric;

    @Option(names = "--application-id", paramLabel = "ID",
        description = "With --bootstrap: the analyzer whose learned paths to pin (default: analyze's, "
            + AnalyzerApp.DEFAULT_APPLICATION_ID + ").")
    private String applicationId;

    @Option(names = "--fault", paramLabel = "ACTION:TARGET",
        description = "A failure or maintenance from the start, repeatable: drain:spine-3, down:leaf-4, "
            + "down:leaf-2~spine-1, degrade:leaf-2~spine-1=100G (or =50%%).")
    private List<String> faults = new ArrayList<>();

    @Option(names = "--set", paramLabel = "KEY=V1,V2,...",
        description = "The setting to vary and its values, e.g. hostLinkSpeed=100G,400G (default: the scenario as declared).")
    private String set;

    @Option(names = "--seeds", defaultValue = "1", paramLabel = "N",
        description = "ECMP hash seeds to draw per value; comm time is reported as median and p90 over them (Harrell-Davis; default: ${DEFAULT-VALUE}).")
    private int seeds;

    @Option(names = "--json", description = "Also print the rows as one JSON object on the last line.")
    private boolean json;

    @Override
    public Integer call() throws IOException {
        if (seeds < 1 || seeds > 1000) {
            throw new UsageException("--seeds must be between 1 and 1000, was " + seeds);
        }
        final List<WhatIfFault> parsed = faults.stream().map(WhatIfFault::parse).toList();
        final PrintWriter out = spec.commandLine().getOut();
        if (parsed.isEmpty()) {
            printRows(out, rows());
        } else {
            printImpacts(out, parsed, impacts(parsed), drainOrder(parsed));
        }
        out.flush();
        return FabricTwin.EXIT_OK;
    }

    /** The scenario, from its file or from the fabric's documents; checked, so a bad one is a usage error. */
    private Scenario source() throws IOException {
        if ((scenario != null ? 1 : 0) + (topology != null ? 1 : 0) + (kafka.given() ? 1 : 0) != 1) {
            throw new UsageException("give one of --scenario FILE, --topology FILE --jobs FILE, or --bootstrap HOST:PORT "
                + "(the documents the fabric's topics hold)");
        }
        if (fabric != null && !kafka.given()) {
            throw new UsageException("--fabric names a fabric on the topology topic: it goes with --bootstrap");
        }
        if (applicationId != null && !kafka.given()) {
            throw new UsageException("--application-id names the analyzer whose learned paths to read: it goes with "
                + "--bootstrap");
        }
        if (kafka.given()) {
            if (jobs != null || set != null) {
                throw new UsageException("--bootstrap reads the jobs from their topic and has no settings to vary: drop "
                    + (jobs != null ? "--jobs" : "--set"));
            }
            return live().scenario();
        }
        if (scenario != null) {
            if (jobs != null) {
                throw new UsageException("--jobs goes with --topology; a scenario declares its jobs");
            }
            if (!Files.isRegularFile(scenario)) {
                throw new UsageException("scenario file not found: " + scenario);
            }
            return ScenarioParser.parse(tree(), scenario.toAbsolutePath().getParent());
        }
        if (jobs == null) {
            throw new UsageException("--topology needs --jobs FILE: the what-if runs the fabric's jobs");
        }
        if (set != null) {
            throw new UsageException("--set needs --scenario: a topology document has no settings to vary");
        }
        for (final Path f : List.of(topology, jobs)) {
            if (!Files.isRegularFile(f)) {
                throw new UsageException("file not found: " + f);
            }
        }
        return FabricDocuments.read(topology, jobs).scenario();
    }

    /** Read once: the drain order asks for the source again. */
    private LearnedPins live;
    /** Where the live mode's paths came from (null otherwise). */
    private AnalyzerPaths.Found paths;

    /** The fabric's documents, with the paths the analyzer learned pinned. */
    private LearnedPins live() {
        if (live == null) {
            final FabricDocuments documents = PublishedDocuments.read(kafka.clientConfig(), kafka.topics(), fabric);
            final PrintWriter err = spec.commandLine().getErr();
            err.printf(Locale.ROOT, "whatif: fabric %s and %d running jobs from %s%n",
                documents.fabricId(), documents.jobs().size(), kafka.topics().jobs().name());
            final Scenario s = documents.scenario();
            final String analyzer = applicationId == null ? AnalyzerApp.DEFAULT_APPLICATION_ID : applicationId;
            paths = AnalyzerPaths.read(kafka.clientConfig(), analyzer, s.fabric().build(s.name()));
            live = LearnedPins.onto(s, paths.pins());
            if (paths.checkpoints() == 0) {
                err.printf(Locale.ROOT, "whatif: no learned paths (%s): ECMP hashes are the default seed's%n", paths.none());
            } else {
                final int dropped = paths.dropped() + live.dropped();
                err.printf(Locale.ROOT, "whatif: %d learned paths from analyzer %s (%s at %s)%s%s%n", live.pinned(),
                    analyzer, paths.checkpoints() == 1 ? "checkpoint" : paths.checkpoints() + " checkpoints, the latest",
                    paths.at(), dropped == 0 ? "" : ", " + dropped + " dropped (flow or first hop not in the fabric)",
                    live.pinned() == 0 ? ": ECMP hashes are the default seed's" : "");
            }
        }
        return live;
    }

    /** The live mode's {@code paths} in --json: where the flows' paths came from. */
    private void putPaths(final Map<String, Object> doc) {
        if (paths == null) {
            return;
        }
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", live.pinned() > 0 ? "analyzer" : "hash");
        m.put("topic", paths.topic());
        m.put("checkpoints", paths.checkpoints());
        m.put("learned", live.pinned());
        m.put("dropped", paths.dropped() + live.dropped());
        if (paths.checkpoints() > 0) {
            m.put("checkpointAt", paths.at().toString());
        }
        doc.put("paths", m);
    }

    private ObjectNode tree() {
        return ScenarioParser.tree(scenario);
    }

    private List<WhatIf.Row> rows() throws IOException {
        final Scenario s = source();
        return set == null ? WhatIf.evaluate(s, AS_DECLARED, seeds) : WhatIf.run(tree(), scenario.toAbsolutePath().getParent(),
            key(), values(), seeds);
    }

    private List<WhatIf.Impact> impacts(final List<WhatIfFault> parsed) throws IOException {
        final Scenario s = source();
        return set == null ? WhatIf.impacts(s, AS_DECLARED, parsed, seeds)
            : WhatIf.run(tree(), scenario.toAbsolutePath().getParent(), key(), values(), parsed, seeds);
    }

    /** With two drains or more and no --set, each alone, least hurt first: the order to do them in one at a time. */
    private List<WhatIf.DrainStep> drainOrder(final List<WhatIfFault> parsed) throws IOException {
        final List<WhatIfFault> drains = parsed.stream().filter(f -> f.action() == WhatIfFault.Action.DRAIN).toList();
        return drains.size() < 2 || set != null ? List.of() : WhatIf.drainOrder(source(), AS_DECLARED, drains, seeds);
    }

    private static final String AS_DECLARED = "as declared";

    private void printRows(final PrintWriter out, final List<WhatIf.Row> rows) {
        final String p90 = seeds > 1 ? " %12s" : "%s";
        out.printf(Locale.ROOT, "%-24s %-12s %12s" + p90 + " %12s %10s %9s%n", "setting", "job",
            seeds > 1 ? "comm p50 ms" : "comm ms", seeds > 1 ? "comm p90 ms" : "", "step ms", "comm %", "GPU util");
        for (final WhatIf.Row r : rows) {
            out.printf(Locale.ROOT, "%-24s %-12s %12s" + p90 + " %12s %10s %9s%n", r.setting(), r.job(),
                cell(r.commTimeMs(), ""), seeds > 1 ? cell(r.commP90Ms(), "") : "", cell(r.stepTimeMs(), ""),
                cell(r.commOverheadPct(), "%"), cell(100 * r.gpuUtilization(), "%"));
        }
        if (rows.stream().anyMatch(r -> r.job().equals(WhatIf.FLOWS))) {
            out.println("(flows: the makespan of the scenario's explicit flows, first start to last end; no compute phase)");
        }
        seedsNote(out);
        if (json) {
            final List<Map<String, Object>> jsonRows = new ArrayList<>();
            for (final WhatIf.Row r : rows) {
                jsonRows.add(jsonRow(r));
            }
            final Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("rows", jsonRows);
            putPaths(doc);
            out.println(Json.line(doc));
        }
    }

    /** Each job healthy and under the faults, then which jobs the faults hurt and by how much. */
    private void printImpacts(final PrintWriter out, final List<WhatIfFault> parsed, final List<WhatIf.Impact> impacts,
                              final List<WhatIf.DrainStep> order) {
        final String label = String.join(" + ", parsed.stream().map(WhatIfFault::text).toList());
        out.printf(Locale.ROOT, "what-if: %s, against the same fabric healthy%n", label);
        final String comm = seeds > 1 ? "comm p50 ms" : "comm ms";
        final String columns = "%-24s %-12s %" + ("healthy " + comm).length() + "s %12s %15s %12s %9s  %s%n";
        out.printf(Locale.ROOT, columns, "setting", "job", "healthy " + comm, comm, "healthy step ms", "step ms", "slowdown",
            "binding");
        for (final WhatIf.Impact i : impacts) {
            out.printf(Locale.ROOT, columns, i.healthy().setting(), i.healthy().job(),
                cell(i.healthy().commTimeMs(), ""), stalledOr(i.faulted().commTimeMs()), cell(i.healthy().stepTimeMs(), ""),
                stalledOr(i.faulted().stepTimeMs()), slowdown(i), binding(i.binding()));
        }
        final List<WhatIf.Impact> hurt = impacts.stream().filter(WhatIf.Impact::hurt).toList();
        out.printf(Locale.ROOT, "%s hurts %d of %d jobs%s%n", label, hurt.size(), impacts.size(), hurt.isEmpty() ? ""
            : ": " + String.join(", ", hurt.stream().map(i -> i.healthy().job() + (set == null ? "" : " (" + i.healthy().setting()
                + ")") + " " + slowdown(i)).toList()));
        if (!order.isEmpty()) {
            out.println("drain order, one at a time (each back in service before the next), least hurt first:");
            int n = 1;
            for (final WhatIf.DrainStep step : order) {
                out.printf(Locale.ROOT, "  %d. %-16s %s%n", n++, step.device(), step.hurt().isEmpty() ? "hurts no job"
                    : "hurts " + String.join(", ", step.hurt().stream().map(i -> i.healthy().job() + " " + slowdown(i))
                        .toList()));
            }
        }
        seedsNote(out);
        if (json) {
            final List<Map<String, Object>> jsonRows = new ArrayList<>();
            for (final WhatIf.Impact i : impacts) {
                final Map<String, Object> m = jsonRow(i.faulted());
                m.putAll(Json.rounded(Map.of("healthyCommTimeMs", i.healthy().commTimeMs())));
                m.putAll(Json.rounded(Map.of("healthyStepTimeMs", i.healthy().stepTimeMs())));
                m.putAll(Json.rounded(Map.of("slowdown", i.slowdown())));
                m.put("stalled", Double.isInfinite(i.slowdown()));
                m.put("hurt", i.hurt());
                m.put("binding", i.binding());
                jsonRows.add(m);
            }
            final Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("faults", parsed.stream().map(WhatIfFault::text).toList());
            doc.put("rows", jsonRows);
            doc.put("hurt", hurt.stream().map(i -> i.healthy().job()).distinct().toList());
            if (!order.isEmpty()) {
                final List<Map<String, Object>> steps = new ArrayList<>();
                for (final WhatIf.DrainStep step : order) {
                    final Map<String, Object> m = new LinkedHashMap<>();
                    m.put("device", step.device());
                    m.put("hurt", step.hurt().stream().map(i -> i.healthy().job()).toList());
                    m.put("stalled", Double.isInfinite(step.worstSlowdown()));
                    if (!Double.isInfinite(step.worstSlowdown())) {
                        m.putAll(Json.rounded(Map.of("worstSlowdown", step.worstSlowdown())));
                    }
                    steps.add(m);
                }
                doc.put("drainOrder", steps);
            }
            putPaths(doc);
            out.println(Json.line(doc));
        }
    }

    private void seedsNote(final PrintWriter out) {
        if (seeds > 1) {
            out.printf(Locale.ROOT, "(%d hash seeds per value: the scenario's own and the next %d)%n", seeds, seeds - 1);
        }
    }

    private Map<String, Object> jsonRow(final WhatIf.Row r) {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("setting", r.setting());
        m.put("job", r.job());
        m.putAll(Json.rounded(Map.of("commTimeMs", r.commTimeMs())));
        m.putAll(Json.rounded(Map.of("commP90Ms", r.commP90Ms())));
        m.put("seeds", r.seeds());
        m.putAll(Json.rounded(Map.of("stepTimeMs", r.stepTimeMs())));
        m.putAll(Json.rounded(Map.of("commOverheadPct", r.commOverheadPct())));
        m.putAll(Json.rounded(Map.of("gpuUtilization", r.gpuUtilization())));
        return m;
    }

    /** A faulted figure, or "stalled" where a job never finishes a comm phase (a flow left without a route). */
    private static String stalledOr(final double value) {
        return Double.isInfinite(value) ? "stalled" : cell(value, "");
    }

    private static String slowdown(final WhatIf.Impact i) {
        return Double.isInfinite(i.slowdown()) ? "stalled" : String.format(Locale.ROOT, "×%.3f", i.slowdown());
    }

    /** The first three binding links, and how many more. */
    private static String binding(final List<String> links) {
        if (links.isEmpty()) {
            return "-";
        }
        return String.join(", ", links.subList(0, Math.min(3, links.size())))
            + (links.size() > 3 ? " (+" + (links.size() - 3) + " more)" : "");
    }

    private String key() {
        final int eq = set.indexOf('=');
        if (eq <= 0 || eq == set.length() - 1) {
            throw new UsageException("--set needs KEY=V1,V2,... (e.g. hostLinkSpeed=100G,400G), was '" + set + "'");
        }
        return set.substring(0, eq).trim();
    }

    private List<String> values() {
        return Arrays.stream(set.substring(set.indexOf('=') + 1).split(",")).map(String::trim)
            .filter(v -> !v.isEmpty()).toList();
    }

    /** A figure with one decimal, or "-" where a row has none (explicit flows have no step time). */
    private static String cell(final double value, final String unit) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.1f%s", value, unit);
    }
}
