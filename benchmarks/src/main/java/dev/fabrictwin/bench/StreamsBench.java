package dev.fabrictwin.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.runtime.AnalyzerApp;
import dev.fabrictwin.analyzer.topology.AnalyzerSettings;
import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.AlertJson;
import dev.fabrictwin.contract.document.JobDocument;
import dev.fabrictwin.contract.document.TopologyDocument;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.evaluation.harness.AnalyzerHarness;
import dev.fabrictwin.evaluation.harness.TempDirs;
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
 * <li>the floor — Kafka Streams with the analyzer's settings copying the capture's records unparsed to another topic,
 *     one pass after the analyzer's: what one record per sample costs before any analysis;</li>
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
                final double warming = analyzerPass(client, topics, big, samples, "bench-analyzer-warm-up-" + pass).perSec();
                progress.accept(String.format(Locale.ROOT, "analyzer warm-up pass %d/%d: %.0f samples/s", pass,
                    WARM_UP_PASSES, warming));
            }
            final Pass[] measured = new Pass[MEASURED_PASSES];
            for (int pass = 1; pass <= MEASURED_PASSES; pass++) {
                measured[pass - 1] = analyzerPass(client, topics, big, samples, "bench-analyzer-" + pass);
                progress.accept(String.format(Locale.ROOT, "analyzer pass %d/%d: %.0f samples/s; CPU per sample: %s",
                    pass, MEASURED_PASSES, measured[pass - 1].perSec(),
                    ThreadCpu.describe(measured[pass - 1].cpuMicrosPerSample())));
            }
            Arrays.sort(measured, Comparator.comparingDouble(Pass::perSec));
            final Pass median = measured[MEASURED_PASSES / 2];
            final double analyzer = median.perSec();
            progress.accept(String.format(Locale.ROOT, "analyzer: %.0f samples/s (median of %d passes); its CPU per "
                + "sample: %s", analyzer, MEASURED_PASSES, ThreadCpu.describe(median.cpuMicrosPerSample())));
            final Pass floor = passThroughPass(client, topics, big, samples, "bench-pass-through");
            progress.accept(String.format(Locale.ROOT, "the floor, Kafka Streams copying the samples unparsed with the "
                + "analyzer's settings: %.0f samples/s; CPU per sample: %s", floor.perSec(),
                ThreadCpu.describe(floor.cpuMicrosPerSample())));
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
            // the median pass's CPU per sample: the instance's own threads, apart from the broker beside it and the JIT
            out.put("instanceCpuMicrosPerSample", ThreadCpu.instance(median.cpuMicrosPerSample()));
            median.cpuMicrosPerSample().forEach((group, micros) -> out.put(group.key + "CpuMicrosPerSample", micros));
            out.put("coreMicrosPerSample", 1e6 / core);
            out.put("passThroughSamplesPerSec", floor.perSec());
            out.put("passThroughRatioVsCore", floor.perSec() / core);
            out.put("passThroughInstanceCpuMicrosPerSample", ThreadCpu.instance(floor.cpuMicrosPerSample()));
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

    /**
     * A timed pass (the analyzer's or the pass-through's): samples/s from the first record processed to the last, and
     * the process's CPU per sample by thread group over the same span (snapshots at least {@value #CPU_SNAPSHOT_MS} ms
     * apart while samples flow).
     */
    record Pass(double perSec, Map<ThreadCpu.Group, Double> cpuMicrosPerSample) {
    }

    private static final long CPU_SNAPSHOT_MS = 250;

    private static Pass analyzerPass(final Properties client, final Topics topics, final Scenario scenario,
                                     final long samples, final String applicationId) throws Exception {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        final AnalyzerSettings settings = new AnalyzerSettings(topics,
            AnalyzerConfig.defaults(scenario.sampleInterval().toMillis()));
        try (AnalyzerHarness analyzer = AnalyzerHarness.start(client, settings, applicationId, registry, 20)) {
            return timedPass(() -> (long) registry.counter("fabric.samples.processed").count(), samples,
                new ThreadCpu(applicationId));
        }
    }

    /**
     * The floor under any Kafka Streams app reading {@code telemetry.samples}: the analyzer's Streams settings
     * ({@link AnalyzerApp#streamsConfig}: exactly-once v2, its commit interval, threads and fetch wait) on a topology
     * that copies each record's bytes to another topic, nothing parsed, timed as an analyzer pass.
     */
    private static Pass passThroughPass(final Properties client, final Topics topics, final Scenario scenario,
                                        final long samples, final String applicationId) throws Exception {
        final String copies = topics.samples().name() + ".copies";
        final AtomicLong copied = new AtomicLong();
        final StreamsBuilder builder = new StreamsBuilder();
        builder.stream(topics.samples().name(), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
            .peek((key, value) -> copied.incrementAndGet())
            .to(copies, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        final Path stateDir = Files.createTempDirectory("bench-pass-through");
        final Properties config = new Properties();
        config.putAll(client);
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(copies, topics.samples().partitions(), (short) 1))).all()
                .get(60, TimeUnit.SECONDS);
            final KafkaStreams streams = new KafkaStreams(builder.build(), AnalyzerApp.streamsConfig(config,
                new AnalyzerSettings(topics, AnalyzerConfig.defaults(scenario.sampleInterval().toMillis()))));
            try {
                streams.start();
                return timedPass(copied::get, samples, new ThreadCpu(applicationId));
            } finally {
                streams.close(Duration.ofSeconds(30));
            }
        } finally {
            TempDirs.delete(stateDir);
        }
    }

    /**
     * Samples/s of a pass from the first record {@code processed} counts to the last (the pass over once 90 % are in
     * and none came for 3 s), and the process's CPU per sample by thread group over the same span.
     */
    private static Pass timedPass(final LongSupplier processed, final long samples, final ThreadCpu cpu)
            throws InterruptedException {
        long first = 0;
        long last = 0;
        long seen = 0;
        long firstCount = 0;
        ThreadCpu.Snapshot firstCpu = null;
        ThreadCpu.Snapshot lastCpu = null;
        long firstCpuCount = 0;
        long lastCpuCount = 0;
        long lastCpuAt = 0;
        final long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        long quietSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            // a sampling interval, not a wait: the pass's progress is a counter read every 50 ms (the app's meter or
            // the pass-through's), which nothing could wake this thread for; the deadline bounds the whole pass
            Thread.sleep(50);
            final long now = processed.getAsLong();
            if (now > seen) {
                if (seen == 0) {
                    first = System.nanoTime();
                    firstCount = now;
                }
                seen = now;
                last = System.nanoTime();
                quietSince = last;
                if (last - lastCpuAt >= CPU_SNAPSHOT_MS * 1_000_000) {
                    lastCpu = cpu.take();
                    lastCpuCount = now;
                    lastCpuAt = last;
                    if (firstCpu == null) {
                        firstCpu = lastCpu;
                        firstCpuCount = now;
                    }
                }
            } else if (seen > 0.9 * samples && System.nanoTime() - quietSince > 3e9) {
                break;
            }
        }
        final double perSec = last > first ? (seen - firstCount) / ((last - first) / 1e9) : 0;
        final Map<ThreadCpu.Group, Double> perSample = lastCpuCount > firstCpuCount
            ? lastCpu.microsPerSampleSince(firstCpu, lastCpuCount - firstCpuCount) : ThreadCpu.unmeasured();
        return new Pass(perSec, perSample);
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
