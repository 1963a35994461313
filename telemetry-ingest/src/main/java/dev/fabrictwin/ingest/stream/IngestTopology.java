package dev.fabrictwin.ingest.stream;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.Topology;

import dev.fabrictwin.ingest.IngestStats;

/**
 * {@code ingest --from-topic}'s topology: source (the collectors' topic, raw bytes) → {@link IngestProcessor} →
 * {@code telemetry.samples} (serdes from {@code Topics}) and {@code telemetry.deadletter}. Stateless, so it scales
 * by the source topic's partitions: one task each, spread over the instances sharing the application id.
 */
final class IngestTopology {

    static final String SOURCE = "collector-messages";
    static final String PROCESSOR = "ingest";
    static final String SAMPLES_SINK = "samples";
    static final String DEAD_LETTER_SINK = "deadletter";

    private IngestTopology() {
    }

    @SuppressWarnings("unchecked")
    public static Topology build(final IngestTopicSettings settings, final IngestStats stats) {
        final var samples = settings.topics().samples();
        final var dead = settings.topics().deadLetter();
        final Topology t = new Topology();
        t.addSource(SOURCE, Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer(), settings.sourceTopic());
        t.addProcessor(PROCESSOR, () -> new IngestProcessor(settings, stats), SOURCE);
        t.addSink(SAMPLES_SINK, samples.name(), (Serializer<Object>) (Serializer<?>) samples.keySerde().serializer(),
            (Serializer<Object>) (Serializer<?>) samples.valueSerde().serializer(), PROCESSOR);
        t.addSink(DEAD_LETTER_SINK, dead.name(), (Serializer<Object>) (Serializer<?>) dead.keySerde().serializer(),
            (Serializer<Object>) (Serializer<?>) dead.valueSerde().serializer(), PROCESSOR);
        return t;
    }
}
