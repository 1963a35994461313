package dev.fabrictwin.analyzer.topology;

import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.contract.DeadLetter;
import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;

/**
 * Exception handlers that keep the application running and lose nothing: the record that failed — a sample its
 * serde cannot read, a document or interval a processor throws on — goes to the dead letter topic as its raw
 * source bytes with the {@link DeadLetter} headers, and the listener counts it by reason.
 */
public final class DeadLetterHandlers {

    /** Streams config key naming the dead letter topic for the handlers. */
    public static final String TOPIC_CONFIG = "fabric.deadletter.topic";
    /** Streams config key holding the {@link AnalyzerListener} told of each dead letter (an object, not a string). */
    public static final String LISTENER_CONFIG = "fabric.deadletter.listener";
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterHandlers.class);

    private DeadLetterHandlers() {
    }

    /** Installs both handlers (global stores included) writing to {@code deadLetterTopic} and telling {@code listener}. */
    public static void configure(final Properties streamsConfig, final String deadLetterTopic,
                                 final AnalyzerListener listener) {
        streamsConfig.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, Processing.class.getName());
        streamsConfig.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, Deserialization.class.getName());
        // the topology and jobs documents (global stores) get the same handler: a bad document is counted and logged
        // and the previous one kept; Kafka Streams sends no dead letter from a global store's processor
        streamsConfig.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        streamsConfig.put(TOPIC_CONFIG, deadLetterTopic);
        streamsConfig.put(LISTENER_CONFIG, listener);
    }

    /** The dead letter for the record behind {@code context}, and the reason the listener counts it under. */
    static ProducerRecord<byte[], byte[]> deadLetter(final String topic, final ErrorHandlerContext context,
                                                     final RejectReason stage, final Exception e, final AnalyzerListener listener) {
        final SampleFormatException invalid = e instanceof SampleFormatException i ? i : null;
        final String error = invalid != null ? invalid.describe()
            : e instanceof UnreadableDocumentException ? RejectReason.BAD_DOCUMENT.code() + ": " + e.getMessage()
            : stage.code() + ": " + e.getClass().getSimpleName() + ": " + e.getMessage();
        LOG.warn("record {}-{}@{} sent to {}: {}", context.topic(), context.partition(), context.offset(), topic, error);
        listener.rejected(invalid != null ? invalid.reason()
            : e instanceof UnreadableDocumentException ? RejectReason.BAD_DOCUMENT : stage);
        final RecordHeaders headers = new RecordHeaders(context.headers().toArray());
        new DeadLetter(error, "streams-app:" + context.processorNodeId(),
            DeadLetter.position(context.topic(), context.partition(), context.offset())).addTo(headers);
        final byte[] value = DeadLetter.fit(context.sourceRawValue(), headers);
        return new ProducerRecord<>(topic, null, DeadLetter.fitKey(context.sourceRawKey()), value, headers);
    }

    private static String topic(final Map<String, ?> configs) {
        final Object t = configs.get(TOPIC_CONFIG);
        return t == null ? "telemetry.deadletter" : t.toString();
    }

    private static AnalyzerListener listener(final Map<String, ?> configs) {
        return configs.get(LISTENER_CONFIG) instanceof AnalyzerListener l ? l : AnalyzerListener.NONE;
    }

    /** A processor threw: dead-letter the source record and resume. */
    public static final class Processing implements ProcessingExceptionHandler {
        private String topic = "telemetry.deadletter";
        private AnalyzerListener listener = AnalyzerListener.NONE;

        @Override
        public void configure(final Map<String, ?> configs) {
            topic = topic(configs);
            listener = listener(configs);
        }

        @Override
        public Response handleError(final ErrorHandlerContext context, final Record<?, ?> record, final Exception e) {
            return Response.resume(List.of(deadLetter(topic, context, RejectReason.PROCESSING, e, listener)));
        }
    }

    /** A source record could not be deserialized (not a canonical sample, say): dead-letter it and resume. */
    public static final class Deserialization implements DeserializationExceptionHandler {
        private String topic = "telemetry.deadletter";
        private AnalyzerListener listener = AnalyzerListener.NONE;

        @Override
        public void configure(final Map<String, ?> configs) {
            topic = topic(configs);
            listener = listener(configs);
        }

        @Override
        public Response handleError(final ErrorHandlerContext context, final ConsumerRecord<byte[], byte[]> record,
                                    final Exception e) {
            return Response.resume(List.of(deadLetter(topic, context, RejectReason.DESERIALIZATION, e, listener)));
        }
    }
}
