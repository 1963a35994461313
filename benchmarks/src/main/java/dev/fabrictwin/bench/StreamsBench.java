package dev.fabrictwin.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.topology.AnalyzerSettings;
import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.AlertJson;
import dev.fabrictwin.contract.document.JobDocument;
import dev.fabrictwin.contract.document.TopologyDocument;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.evaluation.harness.AnalyzerHarness;
import dev.fabrictwin.kafka.common.CheckedSends;
import dev.fabrictwin.kafka.common.ProducerSettings;
import dev.fabrictwin.kafka.embedded.EmbeddedKafka;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.simulator.kafka.KafkaSimulationPublisher;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.telemetry.Sample;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code bench streams}, on an embedded broker:
 * <ul>
 * <li>throughput — a 768-port fabric's capture in {@code telemetry.samples}, read once by a plain consumer and
 *     by the full analyzer topology (exactly-once), {@value #WARM_UP_PASSES} untimed times then
 *     {@value #MEASURED_PASSES} times measured, each pass a fresh application from offset 0 in the same JVM (steady
 *     state, as an always-on analyzer runs); samples/s counted from the first record processed to the last, the
 *     analyzer's median pass, and its ratio to the plain consumer;</li>
 * <li>the core — the same capture's samples without Kafka through the analysis on one thread
 *     ({@link ScaleBench#analyzedPerSec}, what {@code bench streams --ports} times), with the same warm-up and median,
 *     and the analyzer's ratio to it;</li>
 * <li>latency — a faulty scenario produced in accelerated real time ({@value #SPEED}× simulated time); for each
 *     alert record, the wall time it was read (read_committed) minus the wall time the sample that closed its
 *     tick was produced; the p99.</li>
 * </ul>
 */
public final class StreamsBench {

    static final double SPEED = 10;
    /** Untimed analyzer passes over the capture before the measured ones (each pass a fresh application). */
    static final int WARM_UP_PASSES = 3;
    /** Measured passes: a pass lasts a few seconds, so one GC or commit hiccup moves it; the median is reported. */
    static final int MEASURED_PASSES = 3;

    private StreamsBench() {
    }

    public static Map<String, Double> run(final Consumer<String> progress) throws Exception {
        final Map<String, Double> out = new LinkedHashMap<>();
        // read before the minutes of throughput passes, so a wrong working directory fails at once
        final Scenario faulty = latencyScenario();
        try (EmbeddedKafka kafka = EmbeddedKafka.startSingleBroker()) {
            final Properties client = new Properties();
            client.put("bootstrap.servers", kafka.bootstrapServers());
            final Scenario big = BenchWorkloads.streamsThroughput();
            final Topics topics = new Topics("bench.");
            final long samples = KafkaSimulationPublisher.publish(new SyntheticCluster(big, big.telemetry()), client,
                topics, false, n -> { });
            progress.accept(String.format(Locale.ROOT, "throughput input: %d samples of %d ports", samples,
                new SyntheticCluster(big, big.telemetry()).fabric().ports().size()));
            final double consumer = plainConsumerPerSec(client, topics.samples().name(), samples);
            progress.accept(String.format(Locale.ROOT, "plain consumer: %.0f samples/s", consumer));
            // untimed passes first: on a cold JVM the JIT compiler takes most of one of the two cores through the
            // first passes (broker, Streams and analyzer code all turn hot at once), and an always-on analyzer runs warm
            for (int pass = 1; pass <= WARM_UP_PASSES; pass++) {
                final double warming = analyzerPerSec(client, topics, big, samples, "bench-analyzer-warm-up-" + pass);
                progress.accept(String.format(Locale.ROOT, "analyzer warm-up pass %d/%d: %.0f samples/s", pass,
                    WARM_UP_PASSES, warming));
            }
            final double[] measured = new double[MEASURED_PASSES];
            for (int pass = 1; pass <= MEASURED_PASSES; pass++) {
                measured[pass - 1] = analyzerPerSec(client, topics, big, samples, "bench-analyzer-" + pass);
                progress.accept(String.format(Locale.ROOT, "analyzer pass %d/%d: %.0f samples/s", pass,
                    MEASURED_PASSES, measured[pass - 1]));
            }
            Arrays.sort(measured);
            final double analyzer = measured[MEASURED_PASSES / 2];
            progress.accept(String.format(Locale.ROOT, "analyzer: %.0f samples/s (median of %d passes)", analyzer,
                MEASURED_PASSES));
            final CoreRate coreRate = coreSamplesPerSec(big, progress);
            if (coreRate.samples() != samples) {
                throw new IllegalStateException("the core's capture has " + coreRate.samples() + " samples, the topic's "
                    + samples + ": not the same capture");
            }
            final double core = coreRate.perSec();
            progress.accept(String.format(Locale.ROOT, "core: %.0f samples/s (median of %d passes; the same %d samples, "
                + "without Kafka); analyzer/core %.2f", core, MEASURED_PASSES, samples, analyzer / core));
            out.put("samplesPerSec", analyzer);
            out.put("ratioVsPlainConsumer", analyzer / consumer);
            out.put("coreSamplesPerSec", core);
            out.put("ratioVsCore", analyzer / core);
            out.put("p99SampleToAlertMs", p99LatencyMs(client, faulty, progress));
        }
        return out;
    }

    /** Samples of a capture and the core's median rate over them. */
    record CoreRate(long samples, long intervals, double perSec) {
    }

    /**
     * The analysis core without Kafka on the same capture the analyzer passes read: the scenario's samples generated
     * again (the same seed: the same samples), in the order the publisher produced them, turned into intervals untimed,
     * then {@value #WARM_UP_PASSES} untimed and {@value #MEASURED_PASSES} measured passes of
     * {@link ScaleBench#analyzedPerSec}, each a fresh analyzer; the median pass.
     */
    static CoreRate coreSamplesPerSec(final Scenario scenario, final Consumer<String> progress) {
        final CoreInput in = CoreInput.of(scenario);
        for (int pass = 1; pass <= WARM_UP_PASSES; pass++) {
            progress.accept(String.format(Locale.ROOT, "core warm-up pass %d/%d: %.0f samples/s", pass, WARM_UP_PASSES,
                ScaleBench.analyzedPerSec(in)));
        }
        final double[] measured = new double[MEASURED_PASSES];
        for (int pass = 1; pass <= MEASURED_PASSES; pass++) {
            measured[pass - 1] = ScaleBench.analyzedPerSec(in);
            progress.accept(String.format(Locale.ROOT, "core pass %d/%d: %.0f samples/s", pass, MEASURED_PASSES,
                measured[pass - 1]));
        }
        Arrays.sort(measured);
        return new CoreRate(in.samples(), in.intervals().size(), measured[MEASURED_PASSES / 2]);
    }

    private static double plainConsumerPerSec(final Properties client, final String topic, final long expected) {
        final Properties p = new Properties();
        p.putAll(client);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-plain");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long count = 0;
            long first = 0;
            long last = 0;
            long checksum = 0;
            final long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            while (count < expected && System.nanoTime() < deadline) {
                for (final var r : consumer.poll(Duration.ofMillis(200))) {
                    if (count == 0) {
                        first = System.nanoTime();
                    }
                    // one canonical sample per record (docs/contracts.md); every byte is touched, as a reader would
                    count++;
                    checksum += r.value().length;
                }
                last = System.nanoTime();
            }
            return checksum > 0 && last > first ? count / ((last - first) / 1e9) : 0;
        }
    }

    private static double analyzerPerSec(final Properties client, final Topics topics, final Scenario scenario,
                                         final long samples, final String applicationId) throws Exception {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        final AnalyzerSettings settings = new AnalyzerSettings(topics,
            AnalyzerConfig.defaults(scenario.sampleInterval().toMillis()));
        try (AnalyzerHarness analyzer = AnalyzerHarness.start(client, settings, applicationId, registry, 20)) {
            long first = 0;
            long last = 0;
            double seen = 0;
            double firstCount = 0;
            final long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            long quietSince = System.nanoTime();
            while (System.nanoTime() < deadline) {
                Thread.sleep(50); // sampling a meter, not waiting for Kafka
                final double now = registry.counter("fabric.samples.processed").count();
                if (now > seen) {
                    if (seen == 0) {
                        first = System.nanoTime();
                        firstCount = now;
                    }
                    seen = now;
                    last = System.nanoTime();
                    quietSince = last;
                } else if (seen > 0.9 * samples && System.nanoTime() - quietSince > 3e9) {
                    break;
                }
            }
            return last > first ? (seen - firstCount) / ((last - first) / 1e9) : 0;
        }
    }

    private static Scenario latencyScenario() {
        final Path file = Path.of("scenarios", "pfc-storm-small.yaml");
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("bench streams reads " + file + " for its latency half: run it from the"
                + " repository's root (no such file under " + Path.of("").toAbsolutePath() + ")");
        }
        return ScenarioParser.parse(file);
    }

    /** Alert latency with the faulty example scenario produced at {@value #SPEED}× real time. */
    private static double p99LatencyMs(final Properties client, final Scenario scenario,
                                       final Consumer<String> progress) throws Exception {
        final Topics topics = new Topics("bench-live.");
        TopicSetup.ensure(client, topics);
        final SyntheticCluster cluster = new SyntheticCluster(scenario, scenario.telemetry());
        final List<Sample> samples = new ArrayList<>();
        cluster.run(samples::add, n -> { });
        final AnalyzerConfig config = AnalyzerConfig.defaults(scenario.sampleInterval().toMillis());
        final ConcurrentLinkedQueue<long[]> seen = new ConcurrentLinkedQueue<>();
        final long epoch = scenario.epoch().toEpochMilli();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(ProducerSettings.telemetry(client));
             AnalyzerHarness analyzer = AnalyzerHarness.start(client, new AnalyzerSettings(topics, config), "bench-live",
                 new SimpleMeterRegistry(), 20)) {
            final CheckedSends<String, byte[]> sends = new CheckedSends<>(producer);
            sends.send(topics.topology().encoded(cluster.fabric().id(),
                TopologyDocument.of(SimulationFiles.topologyJson(cluster).getBytes(StandardCharsets.UTF_8))));
            for (final var job : new ObjectMapper().readTree(SimulationFiles.jobsJson(cluster))) {
                sends.send(topics.jobs().encoded(job.get("id").asText(),
                    JobDocument.of(job.toString().getBytes(StandardCharsets.UTF_8))));
            }
            sends.flush();
            final AtomicBoolean reading = new AtomicBoolean(true);
            final Thread reader = new Thread(() -> readAlerts(client, topics, seen, reading), "bench-alert-reader");
            reader.setDaemon(true);
            reader.start();
            final long wall0 = System.currentTimeMillis() + 2_000;
            for (final Sample s : samples) {
                final long due = wall0 + (long) ((s.ts() - epoch) / SPEED);
                final long wait = due - System.currentTimeMillis();
                if (wait > 0) {
                    Thread.sleep(wait); // pacing the producer to accelerated real time
                }
                sends.send(new ProducerRecord<>(topics.samples().name(), s.device(), SampleJson.writeBytes(s)));
            }
            sends.flush();
            Thread.sleep(3_000); // let the last ticks close and commit
            reading.set(false);
            reader.join(5_000);
            final List<Double> latencies = new ArrayList<>();
            for (final long[] a : seen) {
                // the tick ending at lastSeen closed when event time passed lastSeen + tick/2 + grace
                final double closingEvent = a[0] + config.tickMs() / 2.0 + config.graceMs();
                final double produced = wall0 + (closingEvent - epoch) / SPEED;
                latencies.add(Math.max(0, a[1] - produced));
            }
            latencies.sort(null);
            progress.accept(String.format(Locale.ROOT, "latency: %d alert records at %.0fx real time; ms min %.0f, "
                + "median %.0f, max %.0f", latencies.size(), SPEED, latencies.isEmpty() ? Double.NaN : latencies.get(0),
                latencies.isEmpty() ? Double.NaN : latencies.get(latencies.size() / 2),
                latencies.isEmpty() ? Double.NaN : latencies.get(latencies.size() - 1)));
            return latencies.isEmpty() ? Double.NaN : latencies.get((int) Math.ceil(0.99 * latencies.size()) - 1);
        }
    }

    private static void readAlerts(final Properties client, final Topics topics, final ConcurrentLinkedQueue<long[]> out,
                                   final AtomicBoolean reading) {
        final Properties p = new Properties();
        p.putAll(client);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-alerts");
        // the reader is the measuring instrument: it must see an alert as soon as it is committed, not at the end
        // of a long poll (fetch.max.wait.ms defaults to 500 ms)
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(),
            new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topics.alerts().name()));
            while (reading.get()) {
                for (final var r : consumer.poll(Duration.ofMillis(50))) {
                    final Alert a = AlertJson.read(r.value());
                    out.add(new long[] {a.lastSeen(), System.currentTimeMillis()});
                }
            }
        }
    }
}
