package dev.fabrictwin.analyzer.runtime;

import java.time.Duration;
import java.util.Properties;

import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.fabrictwin.analyzer.metrics.AnalyzerMetrics;
import dev.fabrictwin.analyzer.topology.AnalyzerSettings;
import dev.fabrictwin.analyzer.topology.AnalyzerTopology;
import dev.fabrictwin.analyzer.topology.DeadLetterHandlers;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;

/**
 * The analyzer running against a broker: the topology with exactly-once processing, dead-letter exception
 * handlers, a thread-replacing uncaught-exception handler, configurable standby replicas, and Kafka Streams'
 * own metrics bound to the registry beside the product meters. Every Kafka client setting (SASL/SSL included)
 * comes from the properties the caller passes; the defaults below apply only where those say nothing.
 */
public final class AnalyzerApp implements AutoCloseable {

    public static final String DEFAULT_APPLICATION_ID = "fabric-twin-analyzer";
    private static final Logger LOG = LoggerFactory.getLogger(AnalyzerApp.class);

    private final KafkaStreams streams;
    private final KafkaStreamsMetrics streamsMetrics;

    private AnalyzerApp(final KafkaStreams streams, final KafkaStreamsMetrics streamsMetrics) {
        this.streams = streams;
        this.streamsMetrics = streamsMetrics;
    }

    /** Streams settings: the product's defaults, then everything in {@code client} on top. */
    public static Properties streamsConfig(final Properties client, final AnalyzerSettings settings) {
        final Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, DEFAULT_APPLICATION_ID);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 0);
        // rates (per device partition) and the fabric-wide analysis are separate sub-topologies: two threads let
        // them run side by side
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2);
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandlers.Processing.class.getName());
        p.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandlers.Deserialization.class.getName());
        p.put(DeadLetterHandlers.TOPIC_CONFIG, settings.topics().deadLetter());
        p.putAll(client);
        return p;
    }

    /** Builds and starts the analyzer; {@code registry} receives the product meters and Kafka Streams' own. */
    public static AnalyzerApp start(final Properties client, final AnalyzerSettings settings, final MeterRegistry registry,
                                    final int topPorts) {
        final Properties config = streamsConfig(client, settings);
        final KafkaStreams streams = new KafkaStreams(
            AnalyzerTopology.build(settings, new AnalyzerMetrics(registry, topPorts)), config);
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("stream thread failed; replacing it (its tasks restart from the last committed state)", e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        final KafkaStreamsMetrics streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(registry);
        streams.start();
        return new AnalyzerApp(streams, streamsMetrics);
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    public KafkaStreams streams() {
        return streams;
    }

    /** Graceful stop: commits, closes state stores, leaves the group. */
    @Override
    public void close() {
        streams.close(Duration.ofSeconds(30));
        streamsMetrics.close();
    }
}
