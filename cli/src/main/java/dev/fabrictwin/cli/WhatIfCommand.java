package dev.fabrictwin.cli;

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

import dev.fabrictwin.evaluation.Json;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.whatif.WhatIf;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabric-twin whatif}: capacity planning on the twin, no Kafka. */
@Command(
    name = "whatif",
    mixinStandardHelpOptions = true,
    usageHelpAutoWidth = true,
    description = {
        "Predict each job's comm time, step time, comm overhead and GPU utilization if one fabric setting "
            + "changed. Runs the scenario's jobs on the twin (faults ignored) once per value; the compute phase "
            + "never changes, only the network does.",
        "ECMP hashes are unknown: --seeds N draws N hash seeds (the scenario's own first) and reports the comm time's "
            + "median and 90th percentile over them.",
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
    })
final class WhatIfCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--scenario", required = true, paramLabel = "FILE", description = "Scenario YAML (docs/contracts.md).")
    private Path scenario;

    @Option(names = "--set", paramLabel = "KEY=V1,V2,...",
        description = "The setting to vary and its values, e.g. hostLinkSpeed=100G,400G (default: the scenario as declared).")
    private String set;

    @Option(names = "--seeds", defaultValue = "1", paramLabel = "N",
        description = "ECMP hash seeds to draw per value; comm time is reported as median and p90 over them (default: ${DEFAULT-VALUE}).")
    private int seeds;

    @Option(names = "--json", description = "Also print the rows as one JSON object on the last line.")
    private boolean json;

    @Override
    public Integer call() {
        if (!Files.isRegularFile(scenario)) {
            throw new UsageException("scenario file not found: " + scenario);
        }
        if (seeds < 1 || seeds > 1000) {
            throw new UsageException("--seeds must be between 1 and 1000, was " + seeds);
        }
        final ObjectNode tree = ScenarioParser.tree(scenario);
        final PrintWriter out = spec.commandLine().getOut();
        final List<WhatIf.Row> rows = set == null
            ? WhatIf.evaluate(ScenarioParser.parse(tree, scenario.toAbsolutePath().getParent()), "as declared", seeds)
            : varied(tree);

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
        if (seeds > 1) {
            out.printf(Locale.ROOT, "(%d hash seeds per value: the scenario's own and the next %d)%n", seeds, seeds - 1);
        }
        if (json) {
            final List<Map<String, Object>> jsonRows = new ArrayList<>();
            for (final WhatIf.Row r : rows) {
                final Map<String, Object> m = new LinkedHashMap<>();
                m.put("setting", r.setting());
                m.put("job", r.job());
                m.putAll(Json.rounded(Map.of("commTimeMs", r.commTimeMs())));
                m.putAll(Json.rounded(Map.of("commP90Ms", r.commP90Ms())));
                m.put("seeds", r.seeds());
                m.putAll(Json.rounded(Map.of("stepTimeMs", r.stepTimeMs())));
                m.putAll(Json.rounded(Map.of("commOverheadPct", r.commOverheadPct())));
                m.putAll(Json.rounded(Map.of("gpuUtilization", r.gpuUtilization())));
                jsonRows.add(m);
            }
            out.println(Json.line(Map.of("rows", jsonRows)));
        }
        out.flush();
        return FabricTwin.EXIT_OK;
    }

    private List<WhatIf.Row> varied(final ObjectNode tree) {
        final int eq = set.indexOf('=');
        if (eq <= 0 || eq == set.length() - 1) {
            throw new UsageException("--set needs KEY=V1,V2,... (e.g. hostLinkSpeed=100G,400G), was '" + set + "'");
        }
        final String key = set.substring(0, eq).trim();
        final List<String> values = Arrays.stream(set.substring(eq + 1).split(",")).map(String::trim)
            .filter(v -> !v.isEmpty()).toList();
        return WhatIf.run(tree, scenario.toAbsolutePath().getParent(), key, values, seeds);
    }

    /** A figure with one decimal, or "-" where a row has none (explicit flows have no step time). */
    private static String cell(final double value, final String unit) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.1f%s", value, unit);
    }
}
