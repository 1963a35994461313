package dev.fabrictwin.analyzer.topology;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exception handlers that keep the application running and lose nothing: the record that failed goes to the
 * dead letter topic ({@value #TOPIC_CONFIG}, default {@code telemetry.deadletter}) as its raw source bytes with
 * headers {@code error}, {@code source} and {@code offset}, and is counted.
 */
public final class DeadLetterHandlers {

    /** Streams config key naming the dead letter topic for the handlers. */
    public static final String TOPIC_CONFIG = "fabric.deadletter.topic";
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterHandlers.class);
    private static final AtomicLong HANDLED = new AtomicLong();

    private DeadLetterHandlers() {
    }

    /** Records the handlers have sent to the dead letter topic in this JVM. */
    public static long handled() {
        return HANDLED.get();
    }

    static ProducerRecord<byte[], byte[]> deadLetter(final String topic, final ErrorHandlerContext context,
                                                     final String stage, final Exception e) {
        HANDLED.incrementAndGet();
        final String reason = stage + ": " + e.getClass().getSimpleName() + ": " + e.getMessage();
        LOG.warn("record {}-{}@{} sent to {}: {}", context.topic(), context.partition(), context.offset(), topic, reason);
        final RecordHeaders headers = new RecordHeaders();
        context.headers().forEach(headers::add);
        headers.add("error", reason.getBytes(StandardCharsets.UTF_8));
        headers.add("source", ("streams-app:" + context.processorNodeId()).getBytes(StandardCharsets.UTF_8));
        headers.add("offset", (context.topic() + "-" + context.partition() + "@" + context.offset())
            .getBytes(StandardCharsets.UTF_8));
        return new ProducerRecord<>(topic, null, context.sourceRawKey(), context.sourceRawValue(), headers);
    }

    private static String topic(final Map<String, ?> configs) {
        final Object t = configs.get(TOPIC_CONFIG);
        return t == null ? "telemetry.deadletter" : t.toString();
    }

    /** A processor threw: dead-letter the source record and resume. */
    public static final class Processing implements ProcessingExceptionHandler {
        private String topic = "telemetry.deadletter";

        @Override
        public void configure(final Map<String, ?> configs) {
            topic = topic(configs);
        }

        @Override
        public Response handleError(final ErrorHandlerContext context, final Record<?, ?> record, final Exception e) {
            return Response.resume(List.of(deadLetter(topic, context, "processing", e)));
        }
    }

    /** A source record could not be deserialized: dead-letter it and resume. */
    public static final class Deserialization implements DeserializationExceptionHandler {
        private String topic = "telemetry.deadletter";

        @Override
        public void configure(final Map<String, ?> configs) {
            topic = topic(configs);
        }

        @Override
        public Response handleError(final ErrorHandlerContext context, final ConsumerRecord<byte[], byte[]> record,
                                    final Exception e) {
            return Response.resume(List.of(deadLetter(topic, context, "deserialization", e)));
        }
    }
}
