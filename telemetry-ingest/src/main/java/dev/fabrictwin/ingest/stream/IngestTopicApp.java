package dev.fabrictwin.ingest.stream;

import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.fabrictwin.ingest.IngestStats;
import dev.fabrictwin.kafka.common.FailureCauses;

/**
 * {@code ingest --from-topic} running against a broker: {@link IngestTopology} with exactly-once v2 (a message's
 * samples, its dead letters and its consumed offset commit in one transaction, so a crash or restart never writes
 * a sample twice or loses one), and a thread-replacing uncaught-exception handler as the analyzer has: a refusal by
 * the broker's ACLs or a full state disk, which replacing cannot cure, stops it at once instead ({@link #failure()}). Client
 * settings (SASL/SSL included) come from the caller's properties; the defaults below apply where those say nothing.
 */
public final class IngestTopicApp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(IngestTopicApp.class);

    private final KafkaStreams streams;
    private final AtomicReference<String> fatal;

    private IngestTopicApp(final KafkaStreams streams, final AtomicReference<String> fatal) {
        this.streams = streams;
        this.fatal = fatal;
    }

    /** Streams settings: the product's defaults, the application id, then everything in {@code client} on top. */
    public static Properties streamsConfig(final Properties client, final IngestTopicSettings settings) {
        final Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, settings.applicationId());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        // samples reach the analyzer only when their transaction commits: keep that short, as the analyzer does
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        // a task reads one partition, so there is no other partition to wait for; idling on (0) made every pass over
        // an empty partition format log text it never wrote, 4 % of the stream thread (docs/performance.md)
        p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        // collectors write before ingest starts: begin at the oldest message the topic still holds
        p.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        p.putAll(client);
        return p;
    }

    /** Builds and starts the app; {@code stats} counts messages, samples and rejections as they are processed. */
    public static IngestTopicApp start(final Properties client, final IngestTopicSettings settings, final IngestStats stats) {
        final Properties config = streamsConfig(client, settings);
        final KafkaStreams streams = new KafkaStreams(IngestTopology.build(settings, stats), config);
        final String stateDir = new StreamsConfig(config).getString(StreamsConfig.STATE_DIR_CONFIG);
        final AtomicReference<String> fatal = new AtomicReference<>();
        streams.setUncaughtExceptionHandler(e -> {
            final Optional<String> incurable = FailureCauses.authorization(e).map(denied -> "not authorized: "
                + denied.getMessage() + " (grant ingest's ACLs: docs/security.md)")
                .or(() -> FailureCauses.diskFull(e, "the state directory " + stateDir));
            if (incurable.isPresent()) {
                fatal.compareAndSet(null, incurable.get());
                LOG.error("ingest stream thread failed; shutting down: {}", incurable.get());
                return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            }
            LOG.error("ingest stream thread failed; replacing it (its tasks restart from the last commit)", e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        streams.start();
        return new IngestTopicApp(streams, fatal);
    }

    /** Why Kafka Streams was shut down, in one line, when it stopped on a cause replacing threads cannot cure. */
    public Optional<String> failure() {
        return Optional.ofNullable(fatal.get());
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    /** Graceful stop: commits the open transaction, leaves the group. */
    @Override
    public void close() {
        streams.close(Duration.ofSeconds(30));
    }
}
