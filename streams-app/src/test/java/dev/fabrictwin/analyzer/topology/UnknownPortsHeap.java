package dev.fabrictwin.analyzer.topology;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Properties;

import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

import dev.fabrictwin.analyzer.metrics.AnalyzerMetrics;
import dev.fabrictwin.analyzer.metrics.SeriesLimits;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.twin.fabric.PortRef;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * Measures the analyzer's heap after full GC once {@code N} unknown devices (default 100,000) have each sent two
 * samples beside a small real fabric. Run by hand, not by the build: after
 * {@code ./mvnw -o -q -pl streams-app -am test-compile} and
 * {@code ./mvnw -o -q -pl streams-app dependency:build-classpath -Dmdep.outputFile=cp.txt},
 * {@code java -cp streams-app/target/test-classes:streams-app/target/classes:twin-engine/target/classes:$(cat
 * streams-app/cp.txt) dev.fabrictwin.analyzer.topology.UnknownPortsHeap 100000}
 */
public final class UnknownPortsHeap {

    private UnknownPortsHeap() {
    }

    public static void main(final String[] args) throws Exception {
        final int unknown = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        final Path state = Files.createTempDirectory("unknown-ports-heap");
        final Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "unknown-ports-heap");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, state.toString());
        final var registry = new SimpleMeterRegistry();
        final AnalyzerMetrics metrics = new AnalyzerMetrics(registry, SeriesLimits.defaults());
        DeadLetterHandlers.configure(props, Topics.DEFAULT.deadLetter().name(), metrics);
        final long before = heapAfterGc();
        try (TopologyTestDriver driver = new TopologyTestDriver(AnalyzerTopology.build(AnalyzerSettings.defaults(1_000),
                metrics), props)) {
            final var fabric = TinyFabric.fabric();
            driver.createInputTopic(Topics.DEFAULT.topology().name(), new StringSerializer(), new ByteArraySerializer())
                .pipeInput("tiny", TinyFabric.document(fabric));
            final TestInputTopic<String, byte[]> samples = driver.createInputTopic(Topics.DEFAULT.samples().name(),
                new StringSerializer(), new ByteArraySerializer());
            final long t0 = System.currentTimeMillis() - 120_000;
            int sent = 0;
            for (int round = 0; round < 2; round++) {
                final long ts = t0 + round * 1_000L;
                for (final PortRef p : fabric.ports()) {
                    samples.pipeInput(p.device(), sample(ts, p.device(), p.port(), round));
                }
                for (int d = 0; d < unknown; d++) {
                    final String device = "stranger-" + d;
                    samples.pipeInput(device, sample(ts, device, "eth0", round));
                    if (++sent % 10_000 == 0) {
                        drain(driver);
                    }
                }
            }
            drain(driver);
            final long after = heapAfterGc();
            System.out.printf("unknown devices: %d, port-last-sample entries: %d, unmatched counted: %s%n", unknown,
                driver.getKeyValueStore(RatesStage.LAST_SAMPLE_STORE).approximateNumEntries(),
                AnalyzerMetrics.unmatchedNames(registry));
            System.out.printf("heap after full GC: %.1f MB before the driver, %.1f MB with it after the flood%n",
                before / 1e6, after / 1e6);
        } finally {
            try (var paths = Files.walk(state)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static byte[] sample(final long ts, final String device, final String port, final int round) {
        return ("{\"ts\":" + ts + ",\"device\":\"" + device + "\",\"port\":\"" + port + "\",\"source\":\"t\","
            + "\"counters\":{\"tx_bytes\":" + round * 1000 + ",\"rx_bytes\":" + round * 1000 + "},"
            + "\"gauges\":{\"oper_up\":1,\"speed_bps\":100000000000}}").getBytes(StandardCharsets.UTF_8);
    }

    /** The driver keeps every record produced until read: drop them all, as a broker would hold them, not the heap. */
    private static void drain(final TopologyTestDriver driver) {
        for (final String name : driver.producedTopicNames()) {
            final var topic = driver.createOutputTopic(name, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            while (!topic.isEmpty()) {
                topic.readRecord();
            }
        }
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
