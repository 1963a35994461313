package dev.fabrictwin.analyzer.runtime;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.analyzer.metrics.AnalyzerMetrics;
import dev.fabrictwin.analyzer.metrics.SeriesLimits;
import dev.fabrictwin.analyzer.topology.AnalyzerSettings;
import dev.fabrictwin.analyzer.topology.AnalyzerTopology;
import dev.fabrictwin.analyzer.topology.DeadLetterHandlers;
import dev.fabrictwin.kafka.common.FailureCauses;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;

/**
 * The analyzer running against a broker: the topology with exactly-once processing, dead-letter exception
 * handlers, a thread-replacing uncaught-exception handler, configurable standby replicas, and Kafka Streams'
 * own metrics bound to the registry beside the product meters, and a guard that aborts the transactions Kafka leaves
 * hanging on the partitions the analyzer writes ({@link HangingTransactionGuard}). Every Kafka client setting (SASL/SSL included)
 * comes from the properties the caller passes; the defaults below apply only where those say nothing.
 */
public final class AnalyzerApp implements AutoCloseable {

    public static final String DEFAULT_APPLICATION_ID = "fabric-twin-analyzer";
    /**
     * Rates tasks send each tick's intervals as one lane record, or after this much wall time: short beside the
     * commit interval, so batching adds little latency in real time, while a backlog drains in whole ticks.
     */
    static final long BATCH_FLUSH_MS = 20;
    /** A stream thread that fails is replaced, unless this many failed within the window: then the client stops. */
    static final int MAX_THREAD_FAILURES = 3;
    static final Duration THREAD_FAILURE_WINDOW = Duration.ofMinutes(1);
    /** How long the analysis waits for a lane with nothing to read before it analyzes the others ahead of it. */
    public static final long MAX_LANE_WAIT_MS = 60_000;
    private static final Logger LOG = LoggerFactory.getLogger(AnalyzerApp.class);

    /**
     * A transaction open and unchanged this long on a partition the analyzer writes, and unknown as such to its
     * coordinator, is aborted: three times the producers' timeout, which the coordinator enforces within seconds.
     */
    static final long HANGING_TRANSACTION_AGE_MS = 30_000;
    static final long HANGING_TRANSACTION_CHECK_MS = 10_000;

    private final KafkaStreams streams;
    private final KafkaStreamsMetrics streamsMetrics;
    private final AnalyzerMetrics metrics;
    private final HangingTransactionGuard hangingTransactions;
    private final ThreadFailures failures;

    private AnalyzerApp(final KafkaStreams streams, final KafkaStreamsMetrics streamsMetrics, final AnalyzerMetrics metrics,
                        final HangingTransactionGuard hangingTransactions, final ThreadFailures failures) {
        this.streams = streams;
        this.streamsMetrics = streamsMetrics;
        this.metrics = metrics;
        this.hangingTransactions = hangingTransactions;
        this.failures = failures;
    }

    /** Streams settings: the product's defaults, then everything in {@code client} on top. */
    public static Properties streamsConfig(final Properties client, final AnalyzerSettings settings) {
        final Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, DEFAULT_APPLICATION_ID);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        // a sample reaches an alert through two commits in series (its rates task's, making the lane record
        // readable, then the analysis task's): 100 ms took bench streams' alert latency from median 718 / max 920 ms
        // (200 ms) to 529 / 833 ms with no throughput lost
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 0);
        // internal topics and stores are found by name after a restart or an upgrade: a generated name fails the build
        p.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
        // rates (one task per sample partition) and the fabric-wide analysis (one task) are separate sub-topologies;
        // with three threads the analysis shares its thread with fewer rates tasks (bench streams on 2 cores:
        // 2 threads 28.8k-30.0k samples/s, 3 threads 33.4k-33.9k, 4 threads 33.3k-35.1k)
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 3);
        // The analysis merges its lanes (one per sample partition) in timestamp order. A lane can be empty only
        // because its rates task has not committed its next intervals yet (a commit interval, a rebalance, or its
        // instance restarting): wait that long for it rather than analyze ahead of it and see its intervals late.
        // What the analysis reads late it drops, so the wait is what keeps a failure from changing the output: 60 s
        // covers a killed instance coming back under its --instance-name, its restore held up to 36 s by a changelog
        // whose transaction markers wait for a restarted broker (AnalyzerChaosTest; at 30 s such a run dropped 6,816
        // intervals and published 12 alerts fewer), and one that never comes back (its tasks move after the 45 s
        // session timeout). The cost: a lane whose devices all go silent holds the analysis up once, by this much.
        p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, MAX_LANE_WAIT_MS);
        // a transaction left open by a killed instance holds back every read_committed reader of its partitions
        // (the lanes, a restoring changelog) until it times out: 10 s, not a minute
        p.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), 10_000);
        // a lane's records become readable when its rates task commits: a bound on how long a fetch may sit on the
        // broker meanwhile (500 ms by default); a safety bound, bench streams showed no latency change from it alone
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), 50);
        DeadLetterHandlers.configure(p, settings.topics().deadLetter().name(), AnalyzerListener.NONE);
        p.putAll(client);
        return p;
    }

    /**
     * Builds and starts the analyzer, with one lane per partition of {@code telemetry.samples} (which must exist);
     * {@code registry} receives the product meters and Kafka Streams' own.
     */
    public static AnalyzerApp start(final Properties client, final AnalyzerSettings settings, final MeterRegistry registry,
                                    final int topPorts) {
        return start(client, settings, registry, SeriesLimits.ports(topPorts));
    }

    /** As {@link #start(Properties, AnalyzerSettings, MeterRegistry, int)}, with per-device and per-port series bounded by {@code limits}. */
    public static AnalyzerApp start(final Properties client, final AnalyzerSettings settings, final MeterRegistry registry,
                                    final SeriesLimits limits) {
        return start(client, settings, registry, limits, endPreviousTransactions(client, settings));
    }

    /**
     * Ends, in the background, every transaction the previous run of this instance left open (nothing on a first
     * start): a restart overlaps it with its other start-up work, and {@link #start} waits for it before Kafka
     * Streams starts.
     */
    public static CompletableFuture<Void> endPreviousTransactions(final Properties client, final AnalyzerSettings settings) {
        final Properties config = streamsConfig(client, settings);
        return CompletableFuture.runAsync(() -> PreviousTransactions.complete(config, producerConfig(config)), command -> {
            final Thread t = new Thread(command, "previous-transactions");
            t.setDaemon(true); // a start that fails on its topics exits without waiting for it
            t.start();
        });
    }

    /** As {@link #start(Properties, AnalyzerSettings, MeterRegistry, SeriesLimits)}, once {@code previousEnded} is done. */
    public static AnalyzerApp start(final Properties client, final AnalyzerSettings settings, final MeterRegistry registry,
                                    final SeriesLimits limits, final CompletableFuture<Void> previousEnded) {
        // this run's producers take the same transactional ids (the process id is kept): the old ones end first
        previousEnded.join();
        final Properties config = streamsConfig(client, settings);
        final SamplesTopic samples = samplesTopic(config, settings.topics().samples().name());
        // Kafka Streams creates its changelogs and lanes with "the cluster's default" replication, which under KRaft
        // is the controllers' default.replication.factor, 1 unless set: the analysis state would then live on one
        // broker, offline while it restarts (AnalyzerChaosTest lost commit markers there). Replicate them as the
        // telemetry they come from is replicated, unless the operator said otherwise.
        config.putIfAbsent(StreamsConfig.REPLICATION_FACTOR_CONFIG, samples.replicas());
        final AnalyzerSettings laned = settings.withLanes(samples.partitions()).withBatchFlushMs(BATCH_FLUSH_MS);
        final AnalyzerMetrics metrics = new AnalyzerMetrics(registry, limits);
        DeadLetterHandlers.configure(config, settings.topics().deadLetter().name(), metrics);
        final KafkaStreams streams = new KafkaStreams(AnalyzerTopology.build(laned, metrics, config), config);
        final ThreadFailures failures = new ThreadFailures(MAX_THREAD_FAILURES, THREAD_FAILURE_WINDOW,
            stateDirectory(config));
        streams.setUncaughtExceptionHandler(failures);
        final KafkaStreamsMetrics streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(registry);
        final HangingTransactionGuard guard = new HangingTransactionGuard(Admin.create(adminConfig(config)),
            String.valueOf(config.get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG)),
            String.valueOf(config.get(StreamsConfig.APPLICATION_ID_CONFIG)), List.of(settings.topics().alerts().name(),
                settings.topics().jobHealth().name(), settings.topics().deadLetter().name()),
            HANGING_TRANSACTION_AGE_MS, System::currentTimeMillis, registry);
        streams.start();
        return new AnalyzerApp(streams, streamsMetrics, metrics, guard.start(5_000, HANGING_TRANSACTION_CHECK_MS), failures);
    }

    /** The admin client's share of the Streams settings (SASL/SSL included). */
    static Properties adminConfig(final Properties config) {
        final Properties admin = new Properties();
        config.forEach((k, v) -> {
            final String key = k.toString();
            if (AdminClientConfig.configNames().contains(key)) {
                admin.put(key, v);
            } else if (key.startsWith(StreamsConfig.ADMIN_CLIENT_PREFIX)) {
                admin.put(key.substring(StreamsConfig.ADMIN_CLIENT_PREFIX.length()), v);
            }
        });
        return admin;
    }

    /** A producer's share of the Streams settings (SASL/SSL included), as Kafka Streams' own producers get them. */
    static Properties producerConfig(final Properties config) {
        final Properties producer = new Properties();
        config.forEach((k, v) -> {
            final String key = k.toString();
            if (ProducerConfig.configNames().contains(key) && !key.equals(ProducerConfig.TRANSACTIONAL_ID_CONFIG)) {
                producer.put(key, v);
            } else if (key.startsWith(StreamsConfig.PRODUCER_PREFIX)) {
                producer.put(key.substring(StreamsConfig.PRODUCER_PREFIX.length()), v);
            }
        });
        return producer;
    }

    /** The samples topic's partitions (a lane each) and replicas (of its first partition). */
    record SamplesTopic(int partitions, int replicas) {
    }

    /** The samples topic's shape: the topology has a lane per partition, so it must know them up front. */
    static SamplesTopic samplesTopic(final Properties config, final String topic) {
        try (Admin a = Admin.create(adminConfig(config))) {
            final var partitions = a.describeTopics(List.of(topic)).allTopicNames().get(60, TimeUnit.SECONDS).get(topic)
                .partitions();
            return new SamplesTopic(partitions.size(), Math.max(1, partitions.get(0).replicas().size()));
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot describe topic " + topic + " at " + config.get("bootstrap.servers")
                + " (the analyzer reads it; `analyze` creates it when missing): " + e.getCause().getMessage(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka at " + config.get("bootstrap.servers") + " did not answer in 60 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing " + topic, e);
        }
    }

    /** Where Kafka Streams keeps this analyzer's state: {@code state.dir} as set, or Kafka Streams' default. */
    static String stateDirectory(final Properties config) {
        return new StreamsConfig(config).getString(StreamsConfig.STATE_DIR_CONFIG);
    }

    /** Why Kafka Streams was shut down, in one line, when a cause replacing threads cannot cure is known. */
    public Optional<String> failure() {
        return failures.fatal();
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    public KafkaStreams streams() {
        return streams;
    }

    /**
     * Graceful stop: commits, closes state stores, leaves the group (static members too, so their tasks move at once
     * rather than after the session timeout).
     */
    @Override
    public void close() {
        hangingTransactions.close();
        streams.close(new KafkaStreams.CloseOptions().leaveGroup(true).timeout(Duration.ofSeconds(30)));
        streamsMetrics.close();
        metrics.close();
    }

    /**
     * Replaces a failed stream thread (its tasks restart from the last committed state), unless failures repeat:
     * {@code max} within {@code window} means a cause replacing cannot cure (a broken cluster), so the client shuts
     * down and reaches ERROR, and {@code analyze} exits 1 for its supervisor. A refusal by the broker's ACLs or a full
     * state disk shuts it down at the first failure, said in one line ({@link #fatal()}), with no stack trace.
     */
    static final class ThreadFailures implements StreamsUncaughtExceptionHandler {
        private final int max;
        private final long windowNanos;
        private final String stateDir;
        private final ArrayDeque<Long> recent = new ArrayDeque<>();

        ThreadFailures(final int max, final Duration window, final String stateDir) {
            this.max = max;
            this.windowNanos = window.toNanos();
            this.stateDir = stateDir;
        }

        /** Why the client was shut down, when replacing threads could not cure it; null otherwise. */
        private volatile String fatal;

        @Override
        public synchronized StreamThreadExceptionResponse handle(final Throwable e) {
            final Optional<AuthorizationException> denied = FailureCauses.authorization(e);
            if (denied.isPresent()) {
                fatal = "not authorized: " + denied.get().getMessage() + " (grant the analyzer's ACLs: docs/security.md)";
                LOG.error("a stream thread was refused by the broker's ACLs; shutting down: {}", denied.get().getMessage());
                return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            }
            final Optional<String> full = FailureCauses.diskFull(e, "the state directory " + stateDir);
            if (full.isPresent()) {
                fatal = full.get();
                LOG.error("a stream thread failed on a full disk; shutting down: {}", full.get());
                return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            }
            final long now = System.nanoTime();
            recent.addLast(now);
            while (now - recent.peekFirst() > windowNanos) {
                recent.removeFirst();
            }
            if (recent.size() >= max) {
                LOG.error("stream threads failed {} times within {} s; shutting down (exit 1, for a supervisor to restart)",
                    recent.size(), windowNanos / 1_000_000_000L, e);
                return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            }
            LOG.error("stream thread failed; replacing it (its tasks restart from the last committed state)", e);
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        }

        Optional<String> fatal() {
            return Optional.ofNullable(fatal);
        }
    }
}
