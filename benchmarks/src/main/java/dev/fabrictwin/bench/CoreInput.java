package dev.fabrictwin.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.rates.PortRates;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * A scenario's capture as the analysis core takes it, made without Kafka: the topology and job documents, and each
 * generated sample turned into its port interval by the rates math ({@link PortRates}; late samples dropped), in the
 * order the simulator generates them, which is the order {@code KafkaSimulationPublisher} produces them (event time,
 * the ports in turn within a timestamp). {@code epochMs}: the first interval's tick, as the topology's replica takes.
 */
record CoreInput(JsonNode topology, List<JsonNode> jobs, AnalyzerConfig config, long epochMs, int ports, long samples,
                 List<PortInterval> intervals) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static CoreInput of(final Scenario scenario) {
        return of(scenario, s -> { });
    }

    /** As above, each generated sample also handed to {@code each} (in order). */
    static CoreInput of(final Scenario scenario, final Consumer<Sample> each) {
        final SyntheticCluster cluster = new SyntheticCluster(scenario, scenario.telemetry());
        final AnalyzerConfig config = AnalyzerConfig.defaults(scenario.sampleInterval().toMillis());
        final List<PortInterval> intervals = new ArrayList<>();
        final Map<String, Sample> last = new HashMap<>();
        final long samples = cluster.run(s -> {
            each.accept(s);
            final String key = s.device() + "/" + s.port();
            final PortRates.Step step = PortRates.next(last.get(key), s, config.tickMs());
            if (!step.late()) {
                last.put(key, s);
                step.interval().ifPresent(intervals::add);
            }
        }, n -> { });
        try {
            final List<JsonNode> jobs = new ArrayList<>();
            JSON.readTree(SimulationFiles.jobsJson(cluster)).forEach(jobs::add);
            final long epochMs = Math.floorDiv(intervals.get(0).t0(), config.tickMs()) * config.tickMs();
            return new CoreInput(JSON.readTree(SimulationFiles.topologyJson(cluster)), List.copyOf(jobs), config, epochMs,
                cluster.fabric().ports().size(), samples, intervals);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
