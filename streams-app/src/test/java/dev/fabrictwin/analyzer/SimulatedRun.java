package dev.fabrictwin.analyzer;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.simulator.reality.Reality;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * Test fixture: a scenario simulated by the generator (with its own telemetry profile) and analyzed in memory by a
 * {@link FabricAnalyzer} built from the documents the simulator publishes, as the topology would, without Kafka.
 */
public record SimulatedRun(SyntheticCluster cluster, FabricAnalyzer analyzer, List<Alert> alerts, List<JobHealth> health) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static SimulatedRun of(final Scenario scenario, final AnalyzerConfig config) throws Exception {
        return of(scenario, config, Reality.defaults());
    }

    /** As {@link #of(Scenario, AnalyzerConfig)}, the randomized reality's ranges (and which it varies) given. */
    public static SimulatedRun of(final Scenario scenario, final AnalyzerConfig config, final Reality reality)
        throws Exception {
        return of(scenario, config, reality, UnaryOperator.identity());
    }

    /** As {@link #of(Scenario, AnalyzerConfig)}, the analyzer given what {@code telemetry} makes of the samples. */
    public static SimulatedRun of(final Scenario scenario, final AnalyzerConfig config,
                                  final UnaryOperator<List<Sample>> telemetry) throws Exception {
        return of(scenario, config, Reality.defaults(), telemetry);
    }

    private static SimulatedRun of(final Scenario scenario, final AnalyzerConfig config, final Reality reality,
                                   final UnaryOperator<List<Sample>> telemetry) throws Exception {
        final SyntheticCluster cluster = new SyntheticCluster(scenario, scenario.telemetry(), reality);
        final List<Sample> simulated = new ArrayList<>();
        cluster.run(simulated::add, d -> { });
        final List<Sample> samples = telemetry.apply(simulated);
        final JsonNode topology = JSON.readTree(SimulationFiles.topologyJson(cluster));
        final List<JsonNode> jobs = new ArrayList<>();
        JSON.readTree(SimulationFiles.jobsJson(cluster)).forEach(jobs::add);
        final FabricAnalyzer analyzer = new FabricAnalyzer(
            TwinReplica.from(topology, jobs, scenario.epoch().toEpochMilli()), config);
        final long intervalMs = scenario.sampleInterval().toMillis();
        final SampleIntervals intervals = new SampleIntervals(intervalMs);
        final List<Alert> alerts = new ArrayList<>();
        final List<JobHealth> health = new ArrayList<>();
        for (final Sample x : samples) {
            intervals.next(x).ifPresent(i -> {
                final FabricAnalyzer.Output out = analyzer.accept(i);
                alerts.addAll(out.alerts());
                health.addAll(out.jobHealth());
            });
        }
        final FabricAnalyzer.Output end = analyzer.flush();
        alerts.addAll(end.alerts());
        health.addAll(end.jobHealth());
        return new SimulatedRun(cluster, analyzer, alerts, health);
    }
}
