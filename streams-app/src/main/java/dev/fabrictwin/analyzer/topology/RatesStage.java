package dev.fabrictwin.analyzer.topology;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.rates.PortRates;
import dev.fabrictwin.twin.telemetry.Sample;
import dev.fabrictwin.twin.telemetry.SampleFormatException;
import dev.fabrictwin.twin.telemetry.SampleJson;
import dev.fabrictwin.twin.telemetry.Topics;

/**
 * First stage of the analyzer: {@code telemetry.samples} → per-port intervals. Keeps each port's last sample
 * in the {@value #LAST_SAMPLE_STORE} store and turns each new one into a {@link PortInterval} with
 * {@link PortRates} (wrap/reset safe, late samples ignored). A record that is not a canonical sample goes to
 * {@code telemetry.deadletter} with its raw bytes and headers {@code error}, {@code source}, {@code offset};
 * processing goes on.
 */
public final class RatesStage {

    public static final String LAST_SAMPLE_STORE = "port-last-sample";
    static final ObjectMapper JSON = new ObjectMapper();

    private RatesStage() {
    }

    /** Adds the stage to {@code builder}; returns the intervals keyed by device (same partitioning as samples). */
    public static KStream<String, PortInterval> build(final StreamsBuilder builder, final Topics topics,
                                                      final long nominalIntervalMs) {
        return build(builder, topics, nominalIntervalMs, AnalyzerListener.NONE);
    }

    /** As {@link #build(StreamsBuilder, Topics, long)}, reporting each dead-lettered record to {@code listener}. */
    public static KStream<String, PortInterval> build(final StreamsBuilder builder, final Topics topics,
                                                      final long nominalIntervalMs, final AnalyzerListener listener) {
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(LAST_SAMPLE_STORE),
            Serdes.String(), Serdes.ByteArray()));
        final KStream<String, Object> outcomes = builder
            .stream(topics.samples(), Consumed.with(Serdes.String(), Serdes.ByteArray()).withName("samples-source"))
            .process(() -> new PortRatesProcessor(nominalIntervalMs, listener), Named.as("port-rates"), LAST_SAMPLE_STORE);
        final Map<String, KStream<String, Object>> branches = outcomes.split(Named.as("rates-"))
            .branch((k, v) -> v instanceof byte[], Branched.as("dead"))
            .defaultBranch(Branched.as("intervals"));
        branches.get("rates-dead").mapValues(v -> (byte[]) v, Named.as("dead-bytes"))
            .to(topics.deadLetter(), Produced.with(Serdes.String(), Serdes.ByteArray()).withName("deadletter-sink"));
        return branches.get("rates-intervals").mapValues(v -> (PortInterval) v, Named.as("intervals"));
    }

    /** Serializes an interval for topics and tests. */
    public static byte[] toJson(final PortInterval interval) {
        try {
            return JSON.writeValueAsBytes(interval);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Emits either a {@link PortInterval} or, for a bad record, its raw bytes with dead-letter headers. */
    static final class PortRatesProcessor implements Processor<String, byte[], String, Object> {

        private final long nominalIntervalMs;
        private final AnalyzerListener listener;
        private ProcessorContext<String, Object> context;
        private KeyValueStore<String, byte[]> last;
        /** The store's values already parsed: the store stays the truth (restored after a restart), this saves a parse. */
        private final Map<String, Sample> parsed = new java.util.HashMap<>();

        PortRatesProcessor(final long nominalIntervalMs, final AnalyzerListener listener) {
            this.nominalIntervalMs = nominalIntervalMs;
            this.listener = listener;
        }

        @Override
        public void init(final ProcessorContext<String, Object> context) {
            this.context = context;
            this.last = context.getStateStore(LAST_SAMPLE_STORE);
        }

        @Override
        public void process(final Record<String, byte[]> record) {
            final Sample sample;
            try {
                if (record.value() == null) {
                    throw new SampleFormatException(dev.fabrictwin.twin.telemetry.RejectReason.MALFORMED, "empty record");
                }
                sample = SampleJson.read(record.value());
            } catch (SampleFormatException e) {
                deadLetter(record, e.describe());
                listener.rejected(e.reason().name().toLowerCase(java.util.Locale.ROOT));
                return;
            }
            final String portKey = sample.device() + "/" + sample.port();
            Sample previous = parsed.get(portKey);
            final byte[] previousBytes = previous == null ? last.get(portKey) : null;
            if (previousBytes != null) {
                try {
                    previous = SampleJson.read(previousBytes);
                } catch (SampleFormatException e) {
                    previous = null; // cannot happen for bytes we stored; start the port afresh if it does
                }
            }
            final PortRates.Step step = PortRates.next(previous, sample, nominalIntervalMs);
            if (step.late()) {
                return; // its interval is covered by the samples around it
            }
            last.put(portKey, record.value());
            parsed.put(portKey, sample);
            step.interval().ifPresent(i -> context.forward(record.withKey(sample.device()).withValue(i)
                .withTimestamp(sample.ts())));
        }

        private void deadLetter(final Record<String, byte[]> record, final String error) {
            final RecordHeaders headers = new RecordHeaders(record.headers().toArray());
            headers.add("error", error.getBytes(StandardCharsets.UTF_8));
            headers.add("source", "streams-app:telemetry.samples".getBytes(StandardCharsets.UTF_8));
            final String offset = context.recordMetadata()
                .map(m -> m.topic() + "-" + m.partition() + "@" + m.offset()).orElse("unknown");
            headers.add("offset", offset.getBytes(StandardCharsets.UTF_8));
            context.forward(new Record<String, Object>(record.key(), record.value() == null ? new byte[0] : record.value(),
                record.timestamp(), headers));
        }
    }
}
