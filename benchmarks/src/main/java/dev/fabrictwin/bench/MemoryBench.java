package dev.fabrictwin.bench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.FabricAnalyzer;
import dev.fabrictwin.analyzer.rates.PortRates;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * What the analyzer keeps on the heap, per port and per flow: a scenario's telemetry is generated to a temporary file
 * (so the generator is gone before measuring), then fed through {@link FabricAnalyzer} (rates, replica, ticks,
 * detectors, lifecycle, as {@code replay} without Kafka) while the retained heap is read after forced GCs at
 * intervals. A flat series is the point: memory bounded by the fabric, not by time.
 */
public final class MemoryBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Heap readings over the run, besides the last. */
    private static final int READINGS = 5;

    private MemoryBench() {
    }

    public static Map<String, Double> run(final Scenario scenario, final Consumer<String> log) {
        try {
            return measure(scenario, log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Double> measure(final Scenario scenario, final Consumer<String> log) throws IOException {
        final Path file = Files.createTempFile("fabric-twin-memory", ".jsonl");
        try {
            final Generated g = generate(scenario, file);
            final JsonNode topology = g.topology();
            final List<JsonNode> jobs = g.jobs();
            final int ports = g.ports();
            final long baseline = retainedBytes();
            final AnalyzerConfig config = AnalyzerConfig.defaults(scenario.sampleInterval().toMillis());
            final FabricAnalyzer analyzer = new FabricAnalyzer(
                TwinReplica.from(topology, jobs, scenario.epoch().toEpochMilli()), config);
            final int flows = analyzer.twin().jobs().stream().mapToInt(j -> j.transfers().size() + j.classes().size()).sum();
            final long rounds = scenario.duration().toMillis() / scenario.sampleInterval().toMillis();
            final long every = Math.max(1, rounds * ports / READINGS);
            final Map<String, Sample> last = new HashMap<>(ports * 2);
            long samples = 0;
            long retained = 0;
            final long start = System.nanoTime();
            try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                String line;
                while ((line = in.readLine()) != null) {
                    final Sample s = SampleJson.read(line);
                    final String key = s.device() + "/" + s.port();
                    final PortRates.Step step = PortRates.next(last.get(key), s, config.tickMs());
                    if (!step.late()) {
                        last.put(key, s);
                        step.interval().ifPresent(analyzer::accept);
                    }
                    if (++samples % every == 0) {
                        retained = retainedBytes() - baseline;
                        log.accept(String.format("%,d samples (%.0f s of telemetry, %.0f s wall): retained %,.1f MB, "
                            + "twin history %,d states", samples, (double) samples / ports
                                * scenario.sampleInterval().toMillis() / 1000, (System.nanoTime() - start) / 1e9,
                            retained / 1e6, analyzer.twin().historyStates()));
                    }
                }
            } catch (SampleFormatException e) {
                throw new IllegalStateException(e);
            }
            retained = retainedBytes() - baseline;
            final Map<String, Double> figures = new LinkedHashMap<>();
            figures.put("memoryPorts", (double) ports);
            figures.put("memoryFlows", (double) flows);
            figures.put("retainedBytes", (double) retained);
            figures.put("bytesPerPort", (double) retained / ports);
            figures.put("bytesPerFlow", flows == 0 ? Double.NaN : (double) retained / flows);
            log.accept(String.format("%s: %,d ports, %,d flows, %,d samples: retained %,.1f MB = %,.0f B per port "
                + "= %,.0f B per flow", scenario.name(), ports, flows, samples, retained / 1e6,
                (double) retained / ports, flows == 0 ? Double.NaN : (double) retained / flows));
            return figures;
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** What the analyzer needs of the generator, which is unreachable once this returns (so not measured). */
    private record Generated(JsonNode topology, List<JsonNode> jobs, int ports) {
    }

    private static Generated generate(final Scenario scenario, final Path file) throws IOException {
        final SyntheticCluster cluster = new SyntheticCluster(scenario, scenario.telemetry());
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            // the generator forgets what no later sample can reach: a large fabric runs for long in the same heap
            cluster.run(s -> write(out, s), n -> { });
        }
        final List<JsonNode> jobs = new ArrayList<>();
        JSON.readTree(SimulationFiles.jobsJson(cluster)).forEach(jobs::add);
        return new Generated(JSON.readTree(SimulationFiles.topologyJson(cluster)), jobs, cluster.fabric().ports().size());
    }

    private static void write(final BufferedWriter out, final Sample s) {
        try {
            out.write(SampleJson.write(s));
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Heap in use after full collections (the analyzer's retained state, plus the baseline). */
    private static long retainedBytes() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
