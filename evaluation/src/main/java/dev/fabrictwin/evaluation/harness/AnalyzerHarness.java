package dev.fabrictwin.evaluation.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;

import dev.fabrictwin.analyzer.runtime.AnalyzerApp;
import dev.fabrictwin.analyzer.topology.AnalyzerSettings;
import dev.fabrictwin.contract.DeadLetter;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The analyzer running against a broker exactly as {@code analyze} runs it (exactly-once, lanes, dead letters),
 * plus a {@code read_committed} reader of everything it publishes: the one setup that {@code demo}, {@code eval
 * --kafka}, {@code bench streams} and the end-to-end tests share. Owns a scratch state directory, removed on close.
 */
public final class AnalyzerHarness implements AutoCloseable {

    /** What one read of the output topics returned, typed by the contract's serdes. */
    public record Output(List<Alert> alerts, List<JobHealth> jobHealth, List<DeadLetter> deadLetters) {

        /** The newest event time (ms) the analysis has published about: its progress through the telemetry. */
        public long latestEventMs() {
            long latest = Long.MIN_VALUE;
            for (final JobHealth h : jobHealth) {
                latest = Math.max(latest, h.ts());
            }
            for (final Alert a : alerts) {
                latest = Math.max(latest, a.lastSeen());
            }
            return latest;
        }

        void addAll(final Output more) {
            alerts.addAll(more.alerts);
            jobHealth.addAll(more.jobHealth);
            deadLetters.addAll(more.deadLetters);
        }
    }

    private final Topics topics;
    private final Path stateDir;
    private final AnalyzerApp app;
    private final KafkaConsumer<String, byte[]> reader;

    private AnalyzerHarness(final Topics topics, final Path stateDir, final AnalyzerApp app,
                            final KafkaConsumer<String, byte[]> reader) {
        this.topics = topics;
        this.stateDir = stateDir;
        this.app = app;
        this.reader = reader;
    }

    /**
     * Starts the analyzer with {@code client} (bootstrap servers and any security settings) under
     * {@code applicationId}, reporting to {@code registry} (per-port meters for the {@code topPorts} largest
     * residuals), and subscribes the reader to alerts, job health and dead letters from their beginning.
     */
    public static AnalyzerHarness start(final Properties client, final AnalyzerSettings settings,
                                        final String applicationId, final MeterRegistry registry, final int topPorts) {
        final Path stateDir;
        try {
            stateDir = Files.createTempDirectory("fabric-twin-" + applicationId + "-state");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the analyzer's state directory", e);
        }
        final Properties streams = new Properties();
        streams.putAll(client);
        streams.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        streams.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        AnalyzerApp app = null;
        try {
            app = AnalyzerApp.start(streams, settings, registry, topPorts);
            return new AnalyzerHarness(settings.topics(), stateDir, app, reader(client, settings.topics()));
        } catch (RuntimeException e) {
            if (app != null) {
                app.close();
            }
            TempDirs.delete(stateDir);
            throw e;
        }
    }

    private static KafkaConsumer<String, byte[]> reader(final Properties client, final Topics topics) {
        final Properties c = new Properties();
        c.putAll(client);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "fabric-twin-reader-" + UUID.randomUUID());
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        final KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(c, new StringDeserializer(),
            new ByteArrayDeserializer());
        consumer.subscribe(List.of(topics.alerts().name(), topics.jobHealth().name(), topics.deadLetter().name()));
        return consumer;
    }

    /** One poll of the output topics, waiting at most {@code timeout} for records. */
    public Output poll(final Duration timeout) {
        final Output out = new Output(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (final ConsumerRecord<String, byte[]> r : reader.poll(timeout)) {
            if (r.topic().equals(topics.deadLetter().name())) {
                DeadLetter.from(r.headers()).ifPresent(out.deadLetters()::add);
            } else if (r.value() == null) {
                continue; // no tombstones on these topics; nothing to read
            } else if (r.topic().equals(topics.alerts().name())) {
                out.alerts().add(topics.alerts().valueSerde().deserializer().deserialize(r.topic(), r.value()));
            } else {
                out.jobHealth().add(topics.jobHealth().valueSerde().deserializer().deserialize(r.topic(), r.value()));
            }
        }
        return out;
    }

    /**
     * Reads until {@code done} holds for everything read so far, or the analysis publishes nothing for
     * {@code firstProgress} (exactly-once start-up, restoring the global stores, building the twin) or nothing
     * newer for {@code quiet} afterwards (it has analyzed all it will), or {@code deadline} passes; returns
     * everything read. A bounded wait on Kafka, never a sleep.
     */
    public Output readUntil(final Predicate<Output> done, final Duration firstProgress, final Duration quiet,
                            final Duration deadline) {
        final Output all = new Output(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        final long end = System.nanoTime() + deadline.toNanos();
        long progressAt = System.nanoTime() + firstProgress.toNanos() - quiet.toNanos();
        long latest = Long.MIN_VALUE;
        while (!done.test(all) && System.nanoTime() < end && System.nanoTime() - progressAt < quiet.toNanos()) {
            final Output more = poll(Duration.ofMillis(250));
            all.addAll(more);
            if (more.latestEventMs() > latest) {
                latest = more.latestEventMs();
                progressAt = System.nanoTime();
            }
        }
        // what the last ticks published is committed with them: one more poll takes it
        all.addAll(poll(Duration.ofMillis(500)));
        return all;
    }

    public AnalyzerApp app() {
        return app;
    }

    @Override
    public void close() {
        try {
            reader.close(Duration.ofSeconds(5));
        } finally {
            app.close();
            TempDirs.delete(stateDir);
        }
    }
}
