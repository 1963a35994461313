package dev.fabrictwin.twin.whatif;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioException;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.sim.IterationRecord;
import dev.fabrictwin.twin.sim.Twin;
import dev.fabrictwin.twin.workload.JobSpec;
import dev.fabrictwin.twin.workload.Pattern;

/**
 * Capacity planning on the twin alone: re-run the scenario's jobs (no faults) with one setting changed and
 * report each job's comm time per iteration, step time, comm overhead and GPU utilization. The compute phase
 * never changes; only the network does (docs/contracts.md, Job semantics).
 */
public final class WhatIf {

    /** Settings that live in the scenario's {@code fabric:} block; {@code technology} and {@code routing} are top-level. */
    public static final Set<String> FABRIC_SETTINGS = Set.of("linkSpeed", "hostLinkSpeed", "coreLinkSpeed", "spines",
        "leaves", "hostsPerLeaf", "nicsPerHost", "hostsPerGroup", "cores", "spinesPerPod", "technology");

    /** Iterations simulated per job; the first is dropped when more exist (all jobs start together). */
    private static final int ITERATIONS = 6;

    private WhatIf() {
    }

    public record Row(String setting, String job, double commTimeMs, double stepTimeMs, double commOverheadPct,
                      double gpuUtilization, int iterations) {
    }

    /** One row per (value, job); {@code key} is a setting name, {@code values} its alternatives. */
    public static List<Row> run(final ObjectNode scenarioTree, final Path baseDir, final String key, final List<String> values) {
        if (!FABRIC_SETTINGS.contains(key) && !key.equals("routing")) {
            throw new ScenarioException("cannot vary '" + key + "' (known: " + new java.util.TreeSet<>(FABRIC_SETTINGS)
                + ", routing)");
        }
        final List<Row> rows = new ArrayList<>();
        for (final String value : values) {
            final ObjectNode tree = scenarioTree.deepCopy();
            if (key.equals("routing")) {
                tree.put("routing", value);
            } else {
                final ObjectNode fabric = tree.with("fabric");
                if (value.matches("\\d+")) {
                    fabric.put(key, Integer.parseInt(value));
                } else {
                    fabric.put(key, value);
                }
            }
            rows.addAll(evaluate(ScenarioParser.parse(tree, baseDir), key + "=" + value));
        }
        return rows;
    }

    /** Predicted per-job figures for one scenario. */
    public static List<Row> evaluate(final Scenario scenario, final String setting) {
        final Twin twin = Twin.healthy(scenario, ModelParams.defaults());
        double horizon = 0;
        for (final JobSpec j : scenario.jobs()) {
            horizon = Math.max(horizon, j.periodSeconds());
        }
        final List<JobSpec> periodic = scenario.jobs().stream().filter(j -> j.pattern() != Pattern.BACKGROUND).toList();
        // Run until every periodic job has done its iterations, bounded in case the network starves a job.
        double until = horizon;
        final double limit = horizon * ITERATIONS * 50;
        while (until < limit && !periodic.stream().allMatch(j -> count(twin, j.id()) >= ITERATIONS)) {
            until += horizon;
            twin.simulation().runUntil(until);
        }
        final List<Row> rows = new ArrayList<>();
        for (final JobSpec j : periodic) {
            final List<IterationRecord> its = twin.simulation().iterations().stream()
                .filter(r -> r.job().equals(j.id())).toList();
            if (its.isEmpty()) {
                rows.add(new Row(setting, j.id(), Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, 100, 0, 0));
                continue;
            }
            final List<IterationRecord> steady = its.size() > 1 ? its.subList(1, its.size()) : its;
            final DoubleSummaryStatistics comm = steady.stream().mapToDouble(IterationRecord::commSeconds).summaryStatistics();
            final double compute = j.computeSeconds();
            final double step = compute + comm.getAverage();
            rows.add(new Row(setting, j.id(), comm.getAverage() * 1e3, step * 1e3, 100 * comm.getAverage() / step,
                compute / step, steady.size()));
        }
        return rows;
    }

    private static long count(final Twin twin, final String job) {
        return twin.simulation().iterations().stream().filter(r -> r.job().equals(job)).count();
    }
}
