package dev.fabrictwin.analyzer.topology;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
import dev.fabrictwin.twin.telemetry.RejectReason;
import dev.fabrictwin.contract.Topics;

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
        return buildBatches(builder, topics, nominalIntervalMs, 1, 0, AnalyzerListener.NONE)
            .flatMapValues(LaneBatch::intervals, Named.as("intervals-one-by-one"));
    }

    /**
     * Adds the stage, reporting each dead-lettered record to {@code listener}; returns batches of intervals tagged
     * with the lane of the sample partition they came from (partition mod {@code lanes}). With
     * {@code batchFlushMs} = 0 a batch is what one input record yielded (one interval for a single sample, one per
     * port for a device's batch; empty ones dropped); with {@code batchFlushMs} &gt; 0 it is everything the task's
     * partition yielded for one tick, sent when a record of another tick arrives or {@code batchFlushMs} of wall
     * time pass — a record per partition and tick instead of per device and tick, which is most of the cost of
     * the lanes (their records are produced, stored, fetched and processed one by one, exactly once).
     */
    public static KStream<String, LaneBatch> buildBatches(final StreamsBuilder builder, final Topics topics,
                                                          final long nominalIntervalMs, final int lanes,
                                                          final long batchFlushMs, final AnalyzerListener listener) {
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(LAST_SAMPLE_STORE),
            Serdes.String(), Serdes.ByteArray()).withCachingEnabled());
        final KStream<String, Object> outcomes = builder
            .stream(topics.samples(), Consumed.with(Serdes.String(), Serdes.ByteArray()).withName("samples-source"))
            .process(() -> new PortRatesProcessor(nominalIntervalMs, lanes, batchFlushMs, listener), Named.as("port-rates"), LAST_SAMPLE_STORE);
        final Map<String, KStream<String, Object>> branches = outcomes.split(Named.as("rates-"))
            .branch((k, v) -> v instanceof byte[], Branched.as("dead"))
            .defaultBranch(Branched.as("intervals"));
        branches.get("rates-dead").mapValues(v -> (byte[]) v, Named.as("dead-bytes"))
            .to(topics.deadLetter(), Produced.with(Serdes.String(), Serdes.ByteArray()).withName("deadletter-sink"));
        return branches.get("rates-intervals").mapValues(v -> (LaneBatch) v, Named.as("intervals"));
    }

    /** The intervals one input record yielded, and the lane (sample partition mod lanes) they travel in. */
    public record LaneBatch(int lane, List<PortInterval> intervals) {
    }

    /** Serializes an interval for topics and tests. */
    public static byte[] toJson(final PortInterval interval) {
        try {
            return JSON.writeValueAsBytes(interval);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Emits {@link LaneBatch}es of the {@link PortInterval}s its records yield, and for each bad sample (or a bad
     * record) its raw bytes with dead-letter headers at once. A record is one canonical sample or a device's batch
     * (a JSON array of them). The store keeps each port's last single sample under {@code device/port} and each
     * device's last batch under {@code device} (cached: written to the changelog once per key and commit).
     *
     * <p>While intervals are held back for batching, so are the store writes of the samples that made them: the
     * store only ever holds samples whose intervals went downstream. A crash (or a task migrating) with a batch
     * pending loses that batch but not its counts — those samples' offsets may be committed, yet the store still
     * holds the samples before them, so each port's next interval spans both and carries the increases
     * (counters are cumulative). Nothing is counted twice and nothing is lost; the port just reports one longer
     * interval, as after a lost sample.
     */
    static final class PortRatesProcessor implements Processor<String, byte[], String, Object> {

        /** A batch is sent at this many intervals at the latest, whatever the tick: bounds the heap. */
        static final int MAX_PENDING = 10_000;

        private final long nominalIntervalMs;
        private final int lanes;
        private final long batchFlushMs;
        private final AnalyzerListener listener;
        private ProcessorContext<String, Object> context;
        private KeyValueStore<String, byte[]> last;
        /** The samples already parsed (pending ones included): saves a parse; the store stays the truth on restart. */
        private final Map<String, Sample> parsed = new java.util.HashMap<>();
        /** Batching: intervals not sent yet, their tick, and the store writes of the samples that made them. */
        private final List<PortInterval> pending = new ArrayList<>();
        private final Map<String, byte[]> pendingWrites = new java.util.LinkedHashMap<>();
        private long pendingTick = Long.MIN_VALUE;
        private int lane;

        PortRatesProcessor(final long nominalIntervalMs, final int lanes, final long batchFlushMs,
                           final AnalyzerListener listener) {
            this.nominalIntervalMs = nominalIntervalMs;
            this.lanes = lanes;
            this.batchFlushMs = batchFlushMs;
            this.listener = listener;
        }

        @Override
        public void init(final ProcessorContext<String, Object> context) {
            this.context = context;
            this.last = context.getStateStore(LAST_SAMPLE_STORE);
            if (batchFlushMs > 0) {
                context.schedule(java.time.Duration.ofMillis(batchFlushMs),
                    org.apache.kafka.streams.processor.PunctuationType.WALL_CLOCK_TIME, now -> flush());
            }
        }

        @Override
        public void process(final Record<String, byte[]> record) {
            if (record.value() == null || record.value().length == 0) {
                reject(record, record.value() == null ? new byte[0] : record.value(),
                    new SampleFormatException(RejectReason.MALFORMED, "empty record"));
                return;
            }
            final List<PortInterval> out = new ArrayList<>();
            String storeKey = null;
            if (!SampleJson.isBatch(record.value())) {
                final Sample sample = parse(record, record.value(), 0, record.value().length);
                if (sample != null && step(sample, out)) {
                    storeKey = sample.device() + "/" + sample.port();
                }
            } else {
                final List<int[]> elements;
                try {
                    elements = SampleJson.elements(record.value());
                } catch (SampleFormatException e) {
                    reject(record, record.value(), e);
                    return;
                }
                boolean stored = false;
                for (final int[] el : elements) {
                    final Sample sample = parse(record, record.value(), el[0], el[1]);
                    stored |= sample != null && step(sample, out);
                }
                if (stored && record.key() != null) {
                    storeKey = record.key(); // the batch is the device's last samples
                }
            }
            lane = context.recordMetadata().map(m -> m.partition() % lanes).orElse(0);
            if (batchFlushMs == 0) {
                if (storeKey != null) {
                    last.put(storeKey, record.value());
                }
                if (!out.isEmpty()) {
                    context.forward(record.withValue((Object) new LaneBatch(lane, out)).withTimestamp(out.get(out.size() - 1).t1()));
                }
                return;
            }
            if (!out.isEmpty()) {
                final long tick = Math.floorDiv(out.get(out.size() - 1).t1() + nominalIntervalMs / 2, nominalIntervalMs);
                if (tick != pendingTick || pending.size() >= MAX_PENDING) {
                    flush();
                    pendingTick = tick;
                }
                pending.addAll(out);
            }
            if (storeKey != null) {
                pendingWrites.put(storeKey, record.value());
            }
        }

        /** Sends the pending batch and makes the store catch up with the samples behind it. */
        private void flush() {
            pendingWrites.forEach(last::put);
            pendingWrites.clear();
            if (pending.isEmpty()) {
                return;
            }
            long newest = Long.MIN_VALUE;
            for (final PortInterval i : pending) {
                newest = Math.max(newest, i.t1());
            }
            context.forward(new Record<String, Object>(null, new LaneBatch(lane, List.copyOf(pending)), newest));
            pending.clear();
        }

        /** One sample of a record; a bad one is dead-lettered on its own (its batch goes on) and null returned. */
        private Sample parse(final Record<String, byte[]> record, final byte[] bytes, final int off, final int len) {
            try {
                return SampleJson.read(bytes, off, len);
            } catch (SampleFormatException e) {
                reject(record, java.util.Arrays.copyOfRange(bytes, off, off + len), e);
                return null;
            }
        }

        /** Advances the sample's port; false for a late sample (its interval is covered by the samples around it). */
        private boolean step(final Sample sample, final List<PortInterval> out) {
            final String portKey = sample.device() + "/" + sample.port();
            final PortRates.Step step = PortRates.next(previous(sample.device(), portKey), sample, nominalIntervalMs);
            if (step.late()) {
                return false;
            }
            parsed.put(portKey, sample);
            step.interval().ifPresent(out::add);
            return true;
        }

        /** The port's last sample: parsed in memory, else from the store (after a restart) by port or device key. */
        private Sample previous(final String device, final String portKey) {
            final Sample cached = parsed.get(portKey);
            if (cached != null) {
                return cached;
            }
            final byte[] single = last.get(portKey);
            final byte[] batch = last.get(device);
            Sample best = null;
            for (final byte[] stored : new byte[][] {single, batch}) {
                if (stored == null) {
                    continue;
                }
                try {
                    if (!SampleJson.isBatch(stored)) {
                        best = newer(best, SampleJson.read(stored));
                        continue;
                    }
                    for (final int[] el : SampleJson.elements(stored)) {
                        final Sample s = SampleJson.read(stored, el[0], el[1]);
                        if ((s.device() + "/" + s.port()).equals(portKey)) {
                            best = newer(best, s);
                        }
                    }
                } catch (SampleFormatException e) {
                    // cannot happen for bytes we stored; the port starts afresh if it does
                }
            }
            return best;
        }

        private static Sample newer(final Sample a, final Sample b) {
            return a == null || b.ts() > a.ts() ? b : a;
        }

        private void reject(final Record<String, byte[]> record, final byte[] bytes, final SampleFormatException e) {
            deadLetter(record.withValue(bytes), e.describe());
            listener.rejected(e.reason().name().toLowerCase(java.util.Locale.ROOT));
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
