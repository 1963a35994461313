package dev.fabrictwin.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.common.serialization.Serde;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.FabricAnalyzer;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.rates.PortRates;
import dev.fabrictwin.analyzer.topology.PortIntervalSerde;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * The analyzer's per-sample work without Kafka, on {@code bench streams}' workload (768 ports, 600 s):
 * <ul>
 * <li>{@code analyze} — one port interval through {@link FabricAnalyzer} (twin replica, tick assembly and, as ticks
 *     close, every detector, the correlator and the alert lifecycle): ops/s = intervals/s;</li>
 * <li>{@code rates} — one canonical sample parsed and turned into its interval ({@link PortRates}): samples/s;</li>
 * <li>{@code intervalSerde} — one interval written and read back as the lanes' repartition topics carry them.</li>
 * </ul>
 * Each cursor runs through the capture in arrival order and starts over (fresh state) at its end.
 * {@code java -jar benchmarks/target/benchmarks.jar AnalyzerCoreBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgs = {"-Xmx3g"})
public class AnalyzerCoreBenchmark {

    private List<byte[]> sampleBytes;
    private List<PortInterval> intervals;
    private JsonNode topology;
    private List<JsonNode> jobs;
    private long epochMs;
    private AnalyzerConfig config;
    private Serde<List<PortInterval>> serde;

    private FabricAnalyzer analyzer;
    private int nextInterval;
    private final Map<String, Sample> lastSample = new HashMap<>();
    private int nextSample;
    private int nextEncoded;

    @Setup
    public void setUp() throws Exception {
        final Scenario scenario = BenchWorkloads.streamsThroughput();
        sampleBytes = new ArrayList<>();
        final CoreInput in = CoreInput.of(scenario, s -> sampleBytes.add(SampleJson.writeBytes(s)));
        intervals = in.intervals();
        serde = PortIntervalSerde.listSerde();
        topology = in.topology();
        jobs = in.jobs();
        config = in.config();
        epochMs = in.epochMs();
        System.out.printf("%n%d samples, %d intervals of %d ports%n", in.samples(), intervals.size(), in.ports());
    }

    @Benchmark
    public FabricAnalyzer.Output analyze() {
        if (analyzer == null || nextInterval == intervals.size()) {
            analyzer = new FabricAnalyzer(TwinReplica.from(topology, jobs, epochMs), config);
            nextInterval = 0;
        }
        return analyzer.accept(intervals.get(nextInterval++));
    }

    @Benchmark
    public PortRates.Step rates() throws SampleFormatException {
        if (nextSample == sampleBytes.size()) {
            lastSample.clear();
            nextSample = 0;
        }
        final Sample s = SampleJson.read(sampleBytes.get(nextSample++));
        final String key = s.device() + "/" + s.port();
        final PortRates.Step step = PortRates.next(lastSample.get(key), s, config.tickMs());
        if (!step.late()) {
            lastSample.put(key, s);
        }
        return step;
    }

    @Benchmark
    public List<PortInterval> intervalSerde() {
        if (nextEncoded == intervals.size()) {
            nextEncoded = 0;
        }
        final byte[] bytes = serde.serializer().serialize("bench", List.of(intervals.get(nextEncoded++)));
        return serde.deserializer().deserialize("bench", bytes);
    }
}
