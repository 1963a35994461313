package dev.fabrictwin.analyzer.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.analyzer.topology.AnalyzerSettings;
import dev.fabrictwin.analyzer.topology.AnalyzerTopology;
import dev.fabrictwin.analyzer.topology.DeadLetterHandlers;
import dev.fabrictwin.analyzer.topology.StageDriver;
import dev.fabrictwin.contract.TopicSpec;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.AlertJson;
import dev.fabrictwin.contract.document.JobDocument;
import dev.fabrictwin.contract.document.TopologyDocument;
import dev.fabrictwin.twin.scenario.Scenario;

/**
 * Runs the analyzer's real topology over a capture, with no broker: its stages called directly ({@link StageDriver}:
 * several times faster than Kafka's {@link TopologyTestDriver}, same output). It is fed the topology and jobs
 * documents (a scenario's, or files as {@code topology import} and {@code jobs import} write them), then every sample
 * line in file order (as a broker would deliver them), and collects what reaches {@code fabric.alerts}. How a user
 * reproduces an incident from a capture.
 */
public final class Replay {

    /**
     * What a replay read and produced; {@code unmatched} counts the sampled ports whose names meet no topology port,
     * by reason ({@code unknown-device}, {@code unknown-port}), and {@code unmatchedExamples} names the first few.
     */
    public record Result(long samples, long alerts, long deadLettered, long jobHealthRecords, Map<String, Long> unmatched,
                         List<String> unmatchedExamples) {
        public Result {
            unmatched = Collections.unmodifiableMap(new TreeMap<>(unmatched));
            unmatchedExamples = List.copyOf(unmatchedExamples);
        }
    }

    private Replay() {
    }

    public static Result run(final Scenario scenario, final Path samples, final Consumer<Alert> sink,
                             final LongConsumer progress) throws IOException {
        return run(scenario, samples, sink, health -> { }, progress);
    }

    /** As above, also handing each {@code fabric.job-health} record (JSON) to {@code healthSink}. */
    public static Result run(final Scenario scenario, final Path samples, final Consumer<Alert> sink,
                             final Consumer<byte[]> healthSink, final LongConsumer progress) throws IOException {
        return run(scenario, samples, sink, healthSink, progress, 1);
    }

    /**
     * As above, the analysis cut into {@code shards} shards (docs/analyzer.md, "Sharding"), as a cluster runs them
     * across its instances: the shards' analyses on a thread per core, the correlation stage on this one.
     */
    public static Result run(final Scenario scenario, final Path samples, final Consumer<Alert> sink,
                             final Consumer<byte[]> healthSink, final LongConsumer progress, final int shards)
        throws IOException {
        return run(ReplayDocuments.of(scenario), samples, sink, healthSink, progress, shards);
    }

    /** As above, with the fabric and jobs given as the documents {@code analyze} reads from its topics. */
    public static Result run(final ReplayDocuments documents, final Path samples, final Consumer<Alert> sink,
                             final Consumer<byte[]> healthSink, final LongConsumer progress, final int shards)
        throws IOException {
        final AnalyzerSettings settings = AnalyzerSettings.defaults(documents.sampleIntervalMs()).withoutCheckpoints()
            .withShards(shards);
        return onStages(settings, documents, samples, sink, healthSink, progress);
    }

    /** On Kafka's test driver, which the stage driver is held to (StageReplayTest). */
    static Result onTestDriver(final AnalyzerSettings settings, final ReplayDocuments documents, final Path samples,
                               final Consumer<Alert> sink, final Consumer<byte[]> healthSink,
                               final LongConsumer progress) throws IOException {
        final Topics topics = settings.topics();
        final Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "fabric-twin-replay");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "replay:9092");
        DeadLetterHandlers.configure(props, topics.deadLetter().name(), AnalyzerListener.NONE);
        final Path state = Files.createTempDirectory("fabric-twin-replay");
        props.put(StreamsConfig.STATE_DIR_CONFIG, state.toString());
        final long[] tally = new long[3]; // alerts, dead letters, job health records
        final long count;
        final UnmatchedNames names = new UnmatchedNames(documents.resolver());
        try (TopologyTestDriver driver = new TopologyTestDriver(AnalyzerTopology.build(settings, AnalyzerListener.NONE), props)) {
            final TestInputTopic<String, TopologyDocument> topology = input(driver, topics.topology());
            final TestInputTopic<String, JobDocument> jobs = input(driver, topics.jobs());
            final TestInputTopic<String, byte[]> input = driver.createInputTopic(topics.samples().name(),
                new StringSerializer(), new ByteArraySerializer());
            final TestOutputTopic<String, byte[]> alertTopic = driver.createOutputTopic(topics.alerts().name(),
                new StringDeserializer(), new ByteArrayDeserializer());
            final TestOutputTopic<String, byte[]> deadTopic = driver.createOutputTopic(topics.deadLetter().name(),
                new StringDeserializer(), new ByteArrayDeserializer());
            final TestOutputTopic<String, byte[]> healthTopic = driver.createOutputTopic(topics.jobHealth().name(),
                new StringDeserializer(), new ByteArrayDeserializer());

            final Map<String, TestOutputTopic<byte[], byte[]>> others = new HashMap<>();
            topology.pipeInput(documents.fabricId(), TopologyDocument.of(documents.topology()));
            documents.jobs().forEach((id, job) -> jobs.pipeInput(id, JobDocument.of(job)));
            count = eachSample(samples, names, input::pipeInput, n -> {
                tally[0] += drain(alertTopic, sink);
                tally[1] += countDead(driver, deadTopic, topics);
                tally[2] += drainHealth(healthTopic, healthSink);
                discardOthers(driver, others, topics);
                progress.accept(n);
            });
            tally[0] += drain(alertTopic, sink);
            tally[1] += countDead(driver, deadTopic, topics);
            tally[2] += drainHealth(healthTopic, healthSink);
        } finally {
            deleteTree(state);
        }
        progress.accept(count);
        return new Result(count, tally[0], tally[1], tally[2], names.counts(), names.examples());
    }

    /**
     * The topology on {@link StageDriver}: its stages without the test driver's bookkeeping, same output. Sharded, on
     * a machine of several cores, the shards' analyses run on a thread per core beside the reading thread (a 32k-GPU
     * capture in 16 shards on 2 cores: 147 s instead of 181 s on one). Unsharded, on this thread: the reading
     * thread's share of an unsharded replay is too small to gain from it (c02, c04: the same wall time either way).
     */
    static Result onStages(final AnalyzerSettings settings, final ReplayDocuments documents, final Path samples,
                           final Consumer<Alert> sink, final Consumer<byte[]> healthSink,
                           final LongConsumer progress) throws IOException {
        final int cores = Runtime.getRuntime().availableProcessors();
        return onStages(settings, documents, samples, sink, healthSink, progress,
            settings.sharded() && cores > 1 ? cores : 0);
    }

    /** As above, the analysis on {@code analysisThreads} threads of its own (0: on this one). */
    static Result onStages(final AnalyzerSettings settings, final ReplayDocuments documents, final Path samples,
                           final Consumer<Alert> sink, final Consumer<byte[]> healthSink,
                           final LongConsumer progress, final int analysisThreads) throws IOException {
        try (StageDriver driver = new StageDriver(settings, documents.fabricId(), documents.topology(), documents.jobs(),
            analysisThreads)) {
            final UnmatchedNames names = new UnmatchedNames(documents.resolver());
            final long[] tally = new long[2]; // alerts, job health records
            final long count = eachSample(samples, names, driver::sample, n -> {
                tally[0] += drain(driver.takeAlerts(), sink);
                tally[1] += drainHealth(driver.takeJobHealth(), healthSink);
                progress.accept(n);
            });
            driver.finish();
            tally[0] += drain(driver.takeAlerts(), sink);
            tally[1] += drainHealth(driver.takeJobHealth(), healthSink);
            progress.accept(count);
            return new Result(count, tally[0], driver.deadLettered(), tally[1], names.counts(), names.examples());
        }
    }

    /**
     * Hands each non-blank line of the capture to {@code sample} as its device and bytes, after {@code names} saw its
     * device and port; {@code every} is told the count every 10,000 samples. Returns the samples read.
     */
    private static long eachSample(final Path samples, final UnmatchedNames names, final BiConsumer<String, byte[]> sample,
                                   final LongConsumer every) throws IOException {
        long count = 0;
        try (BufferedReader reader = Files.newBufferedReader(samples, StandardCharsets.UTF_8)) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                final String device = deviceOf(line);
                names.see(device, portOf(line));
                sample.accept(device, line.getBytes(StandardCharsets.UTF_8));
                if (++count % 10_000 == 0) {
                    every.accept(count);
                }
            }
        }
        return count;
    }

    /**
     * The test driver keeps every record produced to any topic — changelogs and the lane repartition topic too —
     * until it is read: a replay would hold every sample twice over. Read and drop those no one else reads.
     */
    /** A document topic's input, written with the topic's own serdes. */
    private static <V> TestInputTopic<String, V> input(final TopologyTestDriver driver, final TopicSpec<String, V> spec) {
        return driver.createInputTopic(spec.name(), spec.keySerde().serializer(), spec.valueSerde().serializer());
    }

    private static void discardOthers(final TopologyTestDriver driver, final Map<String, TestOutputTopic<byte[], byte[]>> others,
                                      final Topics topics) {
        for (final String name : driver.producedTopicNames()) {
            if (!name.equals(topics.alerts().name()) && !name.equals(topics.deadLetter().name())
                && !name.equals(topics.jobHealth().name())) {
                final TestOutputTopic<byte[], byte[]> topic = others.computeIfAbsent(name,
                    n -> driver.createOutputTopic(n, new ByteArrayDeserializer(), new ByteArrayDeserializer()));
                while (!topic.isEmpty()) {
                    topic.readRecord();
                }
            }
        }
    }

    /** Reads only once something was dead-lettered: the driver warns on every read of a topic nothing wrote to yet. */
    private static long countDead(final TopologyTestDriver driver, final TestOutputTopic<String, byte[]> deadTopic,
                                  final Topics topics) {
        return driver.producedTopicNames().contains(topics.deadLetter().name()) ? deadTopic.readRecordsToList().size() : 0;
    }

    private static long drain(final TestOutputTopic<String, byte[]> topic, final Consumer<Alert> sink) {
        return drain(topic.readValuesToList(), sink);
    }

    private static long drain(final List<byte[]> values, final Consumer<Alert> sink) {
        values.forEach(v -> sink.accept(AlertJson.read(v)));
        return values.size();
    }

    private static long drainHealth(final TestOutputTopic<String, byte[]> topic, final Consumer<byte[]> sink) {
        return drainHealth(topic.readValuesToList(), sink);
    }

    private static long drainHealth(final List<byte[]> values, final Consumer<byte[]> sink) {
        values.forEach(sink);
        return values.size();
    }

    /** The record key a producer would use (the device), read cheaply; a line without one keys as null. */
    static String deviceOf(final String line) {
        return stringField(line, "\"device\"");
    }

    /** The sample's port, read as cheaply: only to say which names meet no topology port. */
    static String portOf(final String line) {
        return stringField(line, "\"port\"");
    }

    private static String stringField(final String line, final String quotedName) {
        final int at = line.indexOf(quotedName);
        if (at < 0) {
            return null;
        }
        final int open = line.indexOf('"', line.indexOf(':', at) + 1);
        final int close = open < 0 ? -1 : line.indexOf('"', open + 1);
        return close < 0 ? null : line.substring(open + 1, close);
    }

    private static void deleteTree(final Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
