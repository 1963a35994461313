package dev.fabrictwin.twin.whatif;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.DoubleSummaryStatistics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fault.FaultSpec;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.scenario.Routing;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioException;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.sim.FlowCompletion;
import dev.fabrictwin.twin.sim.FluidSimulation;
import dev.fabrictwin.twin.sim.IterationRecord;
import dev.fabrictwin.twin.sim.Twin;
import dev.fabrictwin.twin.stats.Quantiles;
import dev.fabrictwin.twin.workload.FlowSpec;
import dev.fabrictwin.twin.workload.JobSpec;
import dev.fabrictwin.twin.workload.Pattern;

/**
 * Capacity planning on the twin alone: re-run the scenario's jobs (its declared faults ignored) with one setting
 * changed, or under what-if faults ({@link WhatIfFault}: a drained switch, a link down or slower) against the same
 * fabric healthy, and report each job's comm time per iteration, step time, comm overhead and GPU utilization. The
 * compute phase never changes; only the network does (docs/contracts.md, Job semantics). Switches' ECMP hashes are
 * unknown, so a prediction can be asked over N hash seeds: comm time is then reported as its median and 90th
 * percentile over the seeds (the scenario's own seed first), both Harrell–Davis estimates ({@link Quantiles}): a
 * makespan comes in steps of colliding flows, and a plain median of a few seeds jumps a whole step on one seed.
 */
public final class WhatIf {

    /** Settings that live in the scenario's {@code fabric:} block; {@code technology} and {@code routing} are top-level. */
    public static final Set<String> FABRIC_SETTINGS = Set.of("linkSpeed", "hostLinkSpeed", "coreLinkSpeed", "spines",
        "leaves", "hostsPerLeaf", "nicsPerHost", "hostsPerGroup", "cores", "spinesPerPod", "technology");

    /** Iterations simulated per job; the first is dropped when more exist (all jobs start together). */
    private static final int ITERATIONS = 6;

    private WhatIf() {
    }

    /**
     * One job under one setting: comm time (the median over hash seeds), its 90th percentile, step time, comm
     * overhead and GPU utilization at the median, the steady iterations simulated per seed and the seeds drawn.
     */
    public record Row(String setting, String job, double commTimeMs, double commP90Ms, double stepTimeMs,
                      double commOverheadPct, double gpuUtilization, int iterations, int seeds) {
    }

    /** One row per (value, job) on the scenario's own hash seed. */
    public static List<Row> run(final ObjectNode scenarioTree, final Path baseDir, final String key, final List<String> values) {
        return run(scenarioTree, baseDir, key, values, 1);
    }

    /** One row per (value, job); {@code key} is a setting name, {@code values} its alternatives, over {@code seeds} hash seeds. */
    public static List<Row> run(final ObjectNode scenarioTree, final Path baseDir, final String key, final List<String> values,
                                final int seeds) {
        final List<Row> rows = new ArrayList<>();
        for (final Variant v : variants(scenarioTree, baseDir, key, values, seeds)) {
            rows.addAll(evaluate(v.scenario(), v.setting(), seeds));
        }
        return rows;
    }

    /** One impact per (value, job): each value's fabric under the what-if faults against the same fabric healthy. */
    public static List<Impact> run(final ObjectNode scenarioTree, final Path baseDir, final String key, final List<String> values,
                                   final List<WhatIfFault> faults, final int seeds) {
        final List<Impact> impacts = new ArrayList<>();
        for (final Variant v : variants(scenarioTree, baseDir, key, values, seeds)) {
            impacts.addAll(impacts(v.scenario(), v.setting(), faults, seeds));
        }
        return impacts;
    }

    /** A setting's value and the scenario it gives. */
    private record Variant(String setting, Scenario scenario) {
    }

    private static List<Variant> variants(final ObjectNode scenarioTree, final Path baseDir, final String key,
                                          final List<String> values, final int seeds) {
        if (seeds < 1) {
            throw new ScenarioException("seeds must be >= 1, was " + seeds);
        }
        if (!FABRIC_SETTINGS.contains(key) && !key.equals("routing") && !key.equals("transport")) {
            throw new ScenarioException("cannot vary '" + key + "' (known: " + new TreeSet<>(FABRIC_SETTINGS)
                + ", routing, transport)");
        }
        final List<Variant> variants = new ArrayList<>();
        for (final String value : values) {
            final ObjectNode tree = scenarioTree.deepCopy();
            if (key.equals("routing") || key.equals("transport")) {
                tree.put(key, value);
            } else {
                final ObjectNode fabric = tree.with("fabric");
                if (value.matches("\\d+")) {
                    fabric.put(key, Integer.parseInt(value));
                } else {
                    fabric.put(key, value);
                }
            }
            variants.add(new Variant(key + "=" + value, ScenarioParser.parse(tree, baseDir)));
        }
        return variants;
    }

    /**
     * A job under the what-if faults against the same fabric healthy: both rows, the slowdown (step time faulted over
     * healthy; the makespan's ratio for the explicit flows, which have no step) and the directed links that bind its
     * comm phase under the faults ({@code from→to} device names), on the scenario's own hash seed, at the middle of a
     * steady comm phase. A job with a flow the faults leave without a route stalls: its slowdown is infinite.
     */
    public record Impact(Row healthy, Row faulted, double slowdown, List<String> binding) {

        public Impact {
            binding = List.copyOf(binding);
        }

        /** Whether the faults slow the job by {@link #HURT} or more. */
        public boolean hurt() {
            return slowdown >= HURT;
        }
    }

    /** A job is hurt when the faults lengthen its step (or the flows' makespan) by 1 % or more. */
    public static final double HURT = 1.01;

    /** Each job of the scenario under the what-if faults (the declared {@code faults:} ignored) against healthy. */
    public static List<Impact> impacts(final Scenario scenario, final String setting, final List<WhatIfFault> faults,
                                       final int seeds) {
        return impacts(scenario, setting, faults, seeds, evaluate(scenario, setting, seeds, List.of()));
    }

    /**
     * One step of a maintenance window that drains its devices one at a time (each back in service before the next):
     * the device drained alone and what that does to each job.
     */
    public record DrainStep(String device, List<Impact> impacts) {

        public DrainStep {
            impacts = List.copyOf(impacts);
        }

        /** The jobs this drain hurts. */
        public List<Impact> hurt() {
            return impacts.stream().filter(Impact::hurt).toList();
        }

        /** The largest slowdown it causes (1 when it slows nothing; infinite when a job stalls). */
        public double worstSlowdown() {
            return impacts.stream().mapToDouble(Impact::slowdown).max().orElse(1.0);
        }
    }

    /**
     * The order to drain {@code drains}' devices one at a time that hurts least first: each device drained alone
     * against the same healthy fabric, ordered by how many jobs it hurts, then its worst slowdown, then its name. The
     * drains that hurt nobody come first; when every drain hurts, the order still says which cost least.
     */
    public static List<DrainStep> drainOrder(final Scenario scenario, final String setting, final List<WhatIfFault> drains,
                                             final int seeds) {
        final List<Row> healthy = evaluate(scenario, setting, seeds, List.of());
        final List<DrainStep> steps = new ArrayList<>();
        for (final WhatIfFault drain : drains) {
            if (drain.action() != WhatIfFault.Action.DRAIN) {
                throw new IllegalArgumentException("a drain order takes drains only, not " + drain.text());
            }
            steps.add(new DrainStep(drain.device(), impacts(scenario, setting, List.of(drain), seeds, healthy)));
        }
        steps.sort(Comparator.comparingInt((DrainStep d) -> d.hurt().size()).thenComparingDouble(DrainStep::worstSlowdown)
            .thenComparing(DrainStep::device));
        return steps;
    }

    private static List<Impact> impacts(final Scenario scenario, final String setting, final List<WhatIfFault> faults,
                                        final int seeds, final List<Row> healthy) {
        final Fabric fabric = scenario.fabric().build(scenario.name());
        final List<FaultSpec> specs = faults.stream().map(f -> f.toFault(fabric)).toList();
        final List<Row> faulted = evaluate(scenario, setting, seeds, specs);
        final Map<String, List<String>> binding = binding(scenario, specs);
        final List<Impact> impacts = new ArrayList<>();
        for (int i = 0; i < healthy.size(); i++) {
            final Row h = healthy.get(i);
            final Row f = faulted.get(i);
            final double slowdown = Double.isNaN(h.stepTimeMs()) ? f.commTimeMs() / h.commTimeMs()
                : f.stepTimeMs() / h.stepTimeMs();
            impacts.add(new Impact(h, f, slowdown, binding.getOrDefault(h.job(), List.of())));
        }
        return impacts;
    }

    /**
     * Each periodic job's binding links under the faults: the run is replayed (it is deterministic) to the middle of
     * the job's second comm phase (its first when it has no other), where {@link FluidSimulation#bindingLinks} is read.
     */
    private static Map<String, List<String>> binding(final Scenario scenario, final List<FaultSpec> faults) {
        final Twin first = simulate(scenario, faults);
        final TreeMap<Double, List<String>> jobsAt = new TreeMap<>();
        for (final JobSpec j : scenario.jobs()) {
            final List<IterationRecord> its = first.simulation().iterations().stream()
                .filter(r -> r.job().equals(j.id())).toList();
            if (!its.isEmpty()) {
                final IterationRecord it = its.get(Math.min(1, its.size() - 1));
                jobsAt.computeIfAbsent((it.commStart() + it.commEnd()) / 2, t -> new ArrayList<>()).add(j.id());
            }
        }
        final Twin replay = Twin.withFaults(scenario.withFaults(faults), ModelParams.defaults());
        replay.simulation().stopRecording();
        final Fabric fabric = replay.fabric();
        final Map<String, List<String>> binding = new HashMap<>();
        for (final Map.Entry<Double, List<String>> e : jobsAt.entrySet()) {
            replay.simulation().runUntil(e.getKey());
            for (final String job : e.getValue()) {
                final List<String> names = new ArrayList<>();
                for (final int d : replay.simulation().bindingLinks(job)) {
                    names.add(fabric.txPort(d).device() + "→" + fabric.rxPort(d).device());
                }
                binding.put(job, names.stream().distinct().toList());
            }
        }
        return binding;
    }

    /** Predicted per-job figures over hash seeds: the scenario's own, then the next {@code seeds − 1}. */
    public static List<Row> evaluate(final Scenario scenario, final String setting, final int seeds) {
        return evaluate(scenario, setting, seeds, List.of());
    }

    /** As {@link #evaluate(Scenario, String, int)}, with {@code faults} in force instead of none. */
    private static List<Row> evaluate(final Scenario scenario, final String setting, final int seeds,
                                      final List<FaultSpec> faults) {
        final List<List<Row>> draws = new ArrayList<>();
        for (int k = 0; k < seeds; k++) {
            final Routing r = scenario.routing();
            draws.add(evaluate(scenario.withRouting(new Routing(r.mode(), r.hashSeed() + k, r.sameSeedEverywhere())), setting, faults));
        }
        if (seeds == 1) {
            return draws.get(0);
        }
        final List<Row> rows = new ArrayList<>();
        for (int j = 0; j < draws.get(0).size(); j++) {
            final int job = j;
            final double[] comm = draws.stream().mapToDouble(d -> d.get(job).commTimeMs()).sorted().toArray();
            final Row first = draws.get(0).get(j);
            final double p50 = Quantiles.harrellDavis(comm, 0.5);
            final double compute = first.stepTimeMs() - first.commTimeMs();
            final double step = compute + p50;
            rows.add(new Row(setting, first.job(), p50, Quantiles.harrellDavis(comm, 0.9), step, 100 * p50 / step, compute / step,
                first.iterations(), seeds));
        }
        return rows;
    }

    /** Predicted per-job figures for one scenario, healthy. */
    public static List<Row> evaluate(final Scenario scenario, final String setting) {
        return evaluate(scenario, setting, List.of());
    }

    private static List<Row> evaluate(final Scenario scenario, final String setting, final List<FaultSpec> faults) {
        final Twin twin = simulate(scenario, faults);
        final List<JobSpec> periodic = scenario.jobs().stream().filter(j -> j.pattern() != Pattern.BACKGROUND).toList();
        final List<Row> rows = new ArrayList<>();
        for (final JobSpec j : periodic) {
            final List<IterationRecord> its = twin.simulation().iterations().stream()
                .filter(r -> r.job().equals(j.id())).toList();
            if (its.isEmpty()) {
                rows.add(new Row(setting, j.id(), Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
                    100, 0, 0, 1));
                continue;
            }
            final List<IterationRecord> steady = its.size() > 1 ? its.subList(1, its.size()) : its;
            final DoubleSummaryStatistics comm = steady.stream().mapToDouble(IterationRecord::commSeconds).summaryStatistics();
            final double compute = j.computeSeconds();
            final double step = compute + comm.getAverage();
            rows.add(new Row(setting, j.id(), comm.getAverage() * 1e3, comm.getAverage() * 1e3, step * 1e3,
                100 * comm.getAverage() / step, compute / step, steady.size(), 1));
        }
        if (!scenario.flows().isEmpty()) {
            rows.add(flowsRow(twin, setting));
        }
        return rows;
    }

    /**
     * The scenario's jobs run on the twin with {@code faults} in force (the declared ones ignored) until every periodic
     * job has done its iterations.
     */
    private static Twin simulate(final Scenario scenario, final List<FaultSpec> faults) {
        final Twin twin = Twin.withFaults(scenario.withFaults(faults), ModelParams.defaults());
        twin.simulation().stopRecording(); // iterations and flow completions answer; no counters are asked
        double horizon = 0;
        for (final JobSpec j : scenario.jobs()) {
            horizon = Math.max(horizon, j.periodSeconds());
        }
        final List<JobSpec> periodic = scenario.jobs().stream().filter(j -> j.pattern() != Pattern.BACKGROUND).toList();
        // Run until every periodic job has done its iterations (or, with no background traffic, two steady
        // iterations that took the same time: the rest would repeat them), bounded in case the network starves a job.
        final boolean background = scenario.jobs().stream().anyMatch(j -> j.pattern() == Pattern.BACKGROUND);
        double until = horizon;
        final double limit = horizon * ITERATIONS * 50;
        while (until < limit && !periodic.stream().allMatch(j -> count(twin, j.id()) >= ITERATIONS)
            && (background || !periodic.stream().allMatch(j -> repeating(twin, j.id())))) {
            until += horizon;
            twin.simulation().runUntil(until);
        }
        return twin;
    }

    /** The row of a scenario's explicit flows: they have no compute phase, so only their makespan. */
    public static final String FLOWS = "(flows)";

    /**
     * The explicit flows' makespan: from the first flow's start to the last one's end (each flow's first run), in the
     * comm time columns; step time, comm overhead and GPU utilization are NaN (flows have no compute phase).
     */
    private static Row flowsRow(final Twin twin, final String setting) {
        final int flows = twin.scenario().flows().size();
        final double lastStart = twin.scenario().flows().stream().mapToDouble(FlowSpec::startSeconds).max().orElseThrow();
        double window = 1e-3;
        // doubling windows past the last start until every flow has ended once (a day at most: a starved flow is infinite)
        while (firstRuns(twin).size() < flows && window < 86_400) {
            twin.simulation().runUntil(Math.max(twin.simulation().now(), lastStart + window));
            window *= 2;
        }
        final List<FlowCompletion> runs = firstRuns(twin);
        final double makespan = runs.size() < flows ? Double.POSITIVE_INFINITY
            : runs.stream().mapToDouble(FlowCompletion::end).max().orElseThrow()
                - runs.stream().mapToDouble(FlowCompletion::start).min().orElseThrow();
        return new Row(setting, FLOWS, makespan * 1e3, makespan * 1e3, Double.NaN, Double.NaN, Double.NaN, 1, 1);
    }

    private static List<FlowCompletion> firstRuns(final Twin twin) {
        return twin.simulation().flowCompletions().stream().filter(c -> c.round() == 0).toList();
    }

    /** The job's two latest iterations after the first took the same comm time. */
    private static boolean repeating(final Twin twin, final String job) {
        final List<IterationRecord> its = twin.simulation().iterations().stream().filter(r -> r.job().equals(job)).toList();
        if (its.size() < 3) {
            return false;
        }
        final double a = its.get(its.size() - 2).commSeconds();
        final double b = its.get(its.size() - 1).commSeconds();
        return Math.abs(a - b) <= 1e-9 * Math.max(a, b);
    }

    private static long count(final Twin twin, final String job) {
        return twin.simulation().iterations().stream().filter(r -> r.job().equals(job)).count();
    }
}
