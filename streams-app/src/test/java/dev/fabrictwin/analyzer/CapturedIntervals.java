package dev.fabrictwin.analyzer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.analyzer.checkpoint.AnalyzerCheckpoint;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * Test fixture: a library scenario's telemetry as the rates stage hands it on (intervals in sample order), and the
 * documents the simulator publishes; analyzed in memory, in that order or another, restarted from checkpoints or not.
 */
public record CapturedIntervals(Scenario scenario, JsonNode topology, List<JsonNode> jobs, List<PortInterval> intervals) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What an analysis published. */
    public record Run(List<Alert> alerts, List<JobHealth> health) {
    }

    public static CapturedIntervals of(final String file) throws Exception {
        final Scenario scenario = ScenarioParser.parse(Path.of("../scenarios", file));
        final SyntheticCluster cluster = new SyntheticCluster(scenario, scenario.telemetry());
        final List<Sample> samples = new ArrayList<>();
        cluster.run(samples::add, d -> { });
        final SampleIntervals series = new SampleIntervals(scenario.sampleInterval().toMillis());
        final List<PortInterval> intervals = new ArrayList<>();
        for (final Sample x : samples) {
            series.next(x).ifPresent(intervals::add);
        }
        final List<JsonNode> jobs = new ArrayList<>();
        JSON.readTree(SimulationFiles.jobsJson(cluster)).forEach(jobs::add);
        return new CapturedIntervals(scenario, JSON.readTree(SimulationFiles.topologyJson(cluster)), jobs, intervals);
    }

    public FabricAnalyzer analyzer() {
        return analyzer(scenario.epoch().toEpochMilli());
    }

    /** An analyzer whose replica is built with this epoch (the analyzer task's: the tick of the first interval it gets). */
    public FabricAnalyzer analyzer(final long epochMs) {
        return new FabricAnalyzer(TwinReplica.from(topology, jobs, epochMs),
            AnalyzerConfig.defaults(scenario.sampleInterval().toMillis()));
    }

    /** Analyzes everything in sample order; before each interval whose index is in {@code restartAt}, checkpoints and restores. */
    public Run analyze(final int... restartAt) {
        return analyze(intervals, restartAt);
    }

    /** As {@link #analyze(int...)}, the intervals arriving in {@code order}. */
    public Run analyze(final List<PortInterval> order, final int... restartAt) {
        return analyze(analyzer(), order, restartAt);
    }

    /** As {@link #analyze(List, int...)}, by this analyzer. */
    public static Run analyze(final FabricAnalyzer first, final List<PortInterval> order, final int... restartAt) {
        FabricAnalyzer analyzer = first;
        final List<Alert> alerts = new ArrayList<>();
        final List<JobHealth> health = new ArrayList<>();
        int next = 0;
        for (int i = 0; i < order.size(); i++) {
            if (next < restartAt.length && restartAt[next] == i) {
                analyzer = AnalyzerCheckpoint.read(AnalyzerCheckpoint.write(analyzer), FabricAnalyzer.class);
                next++;
            }
            final FabricAnalyzer.Output out = analyzer.accept(order.get(i));
            alerts.addAll(out.alerts());
            health.addAll(out.jobHealth());
        }
        alerts.addAll(analyzer.flush().alerts());
        return new Run(alerts, health);
    }
}
