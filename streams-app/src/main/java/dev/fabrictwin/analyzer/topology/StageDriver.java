package dev.fabrictwin.analyzer.topology;

import java.io.File;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Queue;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.shard.ShardTick;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.alert.AlertJson;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * The analyzer topology's stages — port-rates, the lane repartition, the analyzer (sharded: the shard split, each
 * shard's analysis and the correlation stage), the alerts and job-health sinks — run on one thread as Kafka's test
 * driver runs them, minus the driver: each sample goes through the same processors and their stores in the same
 * order, and the same serdes at the topology's input and output topics (the internal repartition topics and the
 * last-sample store, whose serdes read back what they write, pass their immutable values as they are). Replay's fast
 * path: the test driver spends most of a replay on its own bookkeeping (per-record topic lookups, changelog capture,
 * task commits), not on the analysis.
 *
 * <p>Each processor gets its records in the order the driver hands them to it: every processor reads one upstream
 * only, FIFO, and no two share a writable store. Sharded, one analyzer keeps one analysis per shard, as a test
 * driver's single task does. With analysis threads ({@link AnalysisThreads}) the analysis runs off the caller's
 * thread — sharded, each thread an analyzer for its shards, as a cluster gives each shard its own task — and what
 * follows it gets the outputs in the same order.
 *
 * <p>What the driver never does in a replay, this does not either: wall-clock punctuations (its clock stands still),
 * output at close. A processing exception dead-letters the record and goes on, as {@link DeadLetterHandlers} does.
 */
public final class StageDriver implements AutoCloseable {

    private final Topics topics;
    private final long startMs = System.currentTimeMillis();
    private final RatesStage.PortRatesProcessor rates;
    /** The analysis on the caller's thread; null: on {@link #analysisThreads}. */
    private final AnalyzerProcessor analyzer;
    /** Sharded: the lane batches' split by shard, and the stage correlating the shards' ticks; else null. */
    private final ShardSplitter splitter;
    private final CorrelationProcessor correlation;
    /** The analysis off the caller's thread; null: on it. */
    private final AnalysisThreads analysisThreads;
    private final boolean sharded;
    private final Queue<Record<String, RatesStage.LaneBatch>> laneRecords = new ArrayDeque<>();
    private final Queue<Record<String, List<PortInterval>>> shardBatches = new ArrayDeque<>();
    private final Queue<Record<String, ShardTick>> shardTicks = new ArrayDeque<>();
    private final List<byte[]> alerts = new ArrayList<>();
    private final List<byte[]> jobHealth = new ArrayList<>();
    private long deadLettered;

    /** The stages, their global stores holding the fabric's topology document and its jobs; all on the caller's thread. */
    public StageDriver(final AnalyzerSettings settings, final String fabricId, final byte[] topology,
                       final Map<String, byte[]> jobs) {
        this(settings, fabricId, topology, jobs, 0);
    }

    /**
     * As above, the analysis on {@code threads} threads of its own (at most one per shard; 0: on the caller's),
     * everything else on the caller's: call {@link #finish} before taking the last output, {@link #close} after.
     */
    public StageDriver(final AnalyzerSettings settings, final String fabricId, final byte[] topology,
                       final Map<String, byte[]> jobs, final int threads) {
        if (threads < 0) {
            throw new IllegalArgumentException("analysis threads must be >= 0, got " + threads);
        }
        if (settings.checkpoints()) {
            throw new IllegalArgumentException("the stage driver runs the analysis without checkpoints");
        }
        this.topics = settings.topics();
        final ByteStore<String, byte[]> topologies = new ByteStore<>(AnalyzerTopology.TOPOLOGY_STORE,
            topics.topology().keySerde(), AnalyzerTopology.DOCUMENT_BYTES);
        topologies.put(fabricId, topology);
        final ByteStore<String, byte[]> jobStore = new ByteStore<>(AnalyzerTopology.JOBS_STORE,
            topics.jobs().keySerde(), AnalyzerTopology.DOCUMENT_BYTES);
        jobs.forEach(jobStore::put);
        // samples are immutable: held as they are, not serialized at each of the stage's writes (one per sample)
        final ByteStore<String, HeldSample> last = ByteStore.holding(RatesStage.LAST_SAMPLE_STORE, Serdes.String());
        final ByteStore<String, ?> openAlerts = new ByteStore<>(AnalyzerTopology.OPEN_ALERTS_STORE, Serdes.String(),
            AlertJson.SERDE);
        final Map<String, StateStore> stores = Map.of(topologies.name(), topologies, jobStore.name(), jobStore,
            last.name(), last, openAlerts.name(), openAlerts);

        rates = new RatesStage.PortRatesProcessor(settings.tickMs(), settings.lanes(), settings.batchFlushMs(),
            AnalyzerTopology.TOPOLOGY_STORE, AnalyzerListener.NONE);
        rates.init(new Context<>(stores, laneRecords::add));
        sharded = settings.sharded();
        final Consumer<Record<String, AnalyzerOutput>> analyzed;
        if (sharded) {
            splitter = new ShardSplitter(settings.shards(), settings.tickMs());
            splitter.init(new Context<>(stores, shardBatches::add));
            // the findings repartition topic: the shard ticks as they are (immutable records, which its serde copies)
            analyzed = r -> r.value().shardTicks().forEach(
                t -> shardTicks.add(new Record<>(AnalyzerTopology.FABRIC_KEY, t, r.timestamp())));
            correlation = new CorrelationProcessor(settings, AnalyzerListener.NONE);
            correlation.init(new Context<String, AnalyzerOutput>(stores, r -> publish(r.value())));
        } else {
            splitter = null;
            correlation = null;
            analyzed = r -> publish(r.value());
        }
        if (threads == 0) {
            analyzer = analyzerInto(settings, stores, analyzed);
            analysisThreads = null;
        } else {
            analyzer = null;
            analysisThreads = new AnalysisThreads(Math.min(threads, settings.shards()),
                out -> analyzerInto(settings, stores, out), analyzed);
        }
    }

    private AnalyzerProcessor analyzerInto(final AnalyzerSettings settings, final Map<String, StateStore> stores,
                                           final Consumer<Record<String, AnalyzerOutput>> out) {
        final AnalyzerProcessor made = new AnalyzerProcessor(settings, AnalyzerListener.NONE);
        made.init(new Context<>(stores, out));
        return made;
    }

    /** One record of {@code telemetry.samples}, keyed by its device, as the topic holds it. */
    public void sample(final String device, final byte[] value) {
        final Sample sample;
        try {
            sample = topics.samples().valueSerde().deserializer().deserialize(topics.samples().name(), value);
        } catch (RuntimeException e) {
            deadLettered++;
            return;
        }
        deadLetterOnFailure(rates::process, new Record<>(device, sample, startMs));
        Record<String, RatesStage.LaneBatch> batch;
        while ((batch = laneRecords.poll()) != null) {
            if (splitter == null) {
                // the lane repartition topic: the immutable intervals as they are, since its serde reads back what it
                // wrote (PortIntervalSerdeTest) and the round trip was a tenth of a replay
                analyze(new Record<>(AnalyzerTopology.FABRIC_KEY, batch.value().intervals(), batch.timestamp()));
            } else {
                deadLetterOnFailure(splitter::process, batch);
            }
        }
        Record<String, List<PortInterval>> part;
        while ((part = shardBatches.poll()) != null) {
            analyze(part);
        }
        correlate();
    }

    /** Into the analysis: on this thread, or handed to its threads (the empty batches it skips stay here). */
    private void analyze(final Record<String, List<PortInterval>> batch) {
        if (analysisThreads == null) {
            deadLetterOnFailure(analyzer::process, batch);
        } else if (!batch.value().isEmpty()) {
            analysisThreads.hand(batch, sharded);
        }
    }

    private void correlate() {
        Record<String, ShardTick> tick;
        while ((tick = shardTicks.poll()) != null) {
            deadLetterOnFailure(correlation::process, tick);
        }
    }

    private <T> void deadLetterOnFailure(final Consumer<Record<String, T>> processor, final Record<String, T> record) {
        try {
            processor.accept(record);
        } catch (RuntimeException e) {
            deadLettered++;
        }
    }

    private void publish(final AnalyzerOutput out) {
        out.alerts().forEach(a -> alerts.add(topics.alerts().valueSerde().serializer().serialize(topics.alerts().name(), a)));
        out.jobHealth().forEach(h -> jobHealth.add(
            topics.jobHealth().valueSerde().serializer().serialize(topics.jobHealth().name(), h)));
    }

    /** The {@code fabric.alerts} values produced since the last call, as the topic would hold them. */
    public List<byte[]> takeAlerts() {
        return take(alerts);
    }

    /** The {@code fabric.job-health} values produced since the last call. */
    public List<byte[]> takeJobHealth() {
        return take(jobHealth);
    }

    /** Records whose processing threw, as the topology dead-letters them; all of them once {@link #finish} returned. */
    public long deadLettered() {
        return deadLettered + (analysisThreads == null ? 0 : analysisThreads.deadLettered());
    }

    /** Waits for the analysis threads to analyze every sample given, and passes on what they found. */
    public void finish() {
        if (analysisThreads != null) {
            analysisThreads.finish();
            correlate();
        }
    }

    /** Stops the analysis threads. */
    @Override
    public void close() {
        if (analysisThreads != null) {
            analysisThreads.close();
        }
    }

    private static List<byte[]> take(final List<byte[]> from) {
        final List<byte[]> taken = List.copyOf(from);
        from.clear();
        return taken;
    }

    /** What the processors ask of their context: stores, the clock (standing still), forwarding; task 0_0. */
    private final class Context<K, V> implements ProcessorContext<K, V> {
        private final Map<String, StateStore> stores;
        private final Consumer<Record<K, V>> downstream;

        Context(final Map<String, StateStore> stores, final Consumer<Record<K, V>> downstream) {
            this.stores = stores;
            this.downstream = downstream;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <S extends StateStore> S getStateStore(final String name) {
            return (S) stores.get(name);
        }

        @Override
        @SuppressWarnings("unchecked")
        public <K2 extends K, V2 extends V> void forward(final Record<K2, V2> record) {
            downstream.accept((Record<K, V>) record);
        }

        @Override
        public <K2 extends K, V2 extends V> void forward(final Record<K2, V2> record, final String childName) {
            forward(record);
        }

        @Override
        public Cancellable schedule(final Duration interval, final PunctuationType type, final Punctuator callback) {
            return () -> { }; // wall-clock punctuations: the test driver's clock never moves in a replay either
        }

        @Override
        public Cancellable schedule(final Instant start, final Duration interval, final PunctuationType type,
                                    final Punctuator callback) {
            return () -> { };
        }

        @Override
        public long currentSystemTimeMs() {
            return startMs;
        }

        @Override
        public long currentStreamTimeMs() {
            return startMs;
        }

        @Override
        public TaskId taskId() {
            return new TaskId(0, 0);
        }

        @Override
        public String applicationId() {
            return "fabric-twin-replay";
        }

        @Override
        public Optional<RecordMetadata> recordMetadata() {
            return Optional.empty();
        }

        @Override
        public Serde<?> keySerde() {
            throw new UnsupportedOperationException("the stage driver has no default serdes: the analyzer's processors name theirs");
        }

        @Override
        public Serde<?> valueSerde() {
            throw new UnsupportedOperationException("the stage driver has no default serdes: the analyzer's processors name theirs");
        }

        @Override
        public File stateDir() {
            throw new UnsupportedOperationException("the stage driver has no state directory: its stores live on the heap");
        }

        @Override
        public StreamsMetrics metrics() {
            throw new UnsupportedOperationException("the stage driver has no Streams metrics: the analyzer's processors report through AnalyzerListener");
        }

        @Override
        public void commit() {
        }

        @Override
        public Map<String, Object> appConfigs() {
            return Map.of();
        }

        @Override
        public Map<String, Object> appConfigsWithPrefix(final String prefix) {
            return Map.of();
        }
    }

    /**
     * A key-value store as the topology's stores behave to their processor: values serialized on put and read back
     * on get (a processor never holds the stored object), iterated in the order of the serialized keys. One
     * {@link #holding} immutable values keeps them as they are: what a processor reads back is the same either way.
     */
    private static final class ByteStore<K, V> implements KeyValueStore<K, V> {
        private final String name;
        private final Serde<K> keys;
        private final Function<V, Object> encode;
        private final Function<Object, V> decode;
        /**
         * By serialized key, in its order; or, for a store {@link #holding} immutable values, by the key itself (its
         * serialization is one-to-one: keys decoded from UTF-8, which makes no lone surrogate) in a hash map, sorted
         * by serialized key only when iterated: the rates stage writes the last-sample store once per sample and
         * iterates it once, at its first.
         */
        private final Map<Object, Object> map;
        private final boolean byKey;

        ByteStore(final String name, final Serde<K> keys, final Serde<V> values) {
            this(name, keys, v -> values.serializer().serialize(name, v),
                bytes -> values.deserializer().deserialize(name, (byte[]) bytes));
        }

        private ByteStore(final String name, final Serde<K> keys, final Function<V, Object> encode,
                          final Function<Object, V> decode, final boolean byKey) {
            this.name = name;
            this.keys = keys;
            this.encode = encode;
            this.decode = decode;
            this.byKey = byKey;
            this.map = byKey ? new HashMap<>() : new TreeMap<>();
        }

        private ByteStore(final String name, final Serde<K> keys, final Function<V, Object> encode,
                          final Function<Object, V> decode) {
            this(name, keys, encode, decode, false);
        }

        /** A store of immutable values, held as they are, by their String keys. */
        @SuppressWarnings("unchecked")
        static <V> ByteStore<String, V> holding(final String name, final Serde<String> keys) {
            return new ByteStore<>(name, keys, v -> v, stored -> (V) stored, true);
        }

        private Bytes serialized(final K key) {
            return Bytes.wrap(keys.serializer().serialize(name, key));
        }

        private Object key(final K key) {
            return byKey ? key : serialized(key);
        }

        private V value(final Object stored) {
            return stored == null ? null : decode.apply(stored);
        }

        @Override
        public void put(final K key, final V value) {
            if (value == null) {
                map.remove(key(key));
            } else {
                map.put(key(key), encode.apply(value));
            }
        }

        @Override
        public V putIfAbsent(final K key, final V value) {
            final V old = get(key);
            if (old == null) {
                put(key, value);
            }
            return old;
        }

        @Override
        public void putAll(final List<KeyValue<K, V>> entries) {
            entries.forEach(e -> put(e.key, e.value));
        }

        @Override
        public V delete(final K key) {
            return value(map.remove(key(key)));
        }

        @Override
        public V get(final K key) {
            return value(map.get(key(key)));
        }

        @Override
        public KeyValueIterator<K, V> range(final K from, final K to) {
            final Bytes low = serialized(from);
            final Bytes high = serialized(to);
            return iterator(sorted().subMap(low, true, high, true));
        }

        @Override
        public KeyValueIterator<K, V> all() {
            return iterator(sorted());
        }

        /** The entries by serialized key, in its order. */
        @SuppressWarnings("unchecked")
        private NavigableMap<Bytes, Object> sorted() {
            if (!byKey) {
                return (NavigableMap<Bytes, Object>) (NavigableMap<?, Object>) map;
            }
            final TreeMap<Bytes, Object> out = new TreeMap<>();
            map.forEach((k, v) -> out.put(serialized((K) k), v));
            return out;
        }

        @Override
        public long approximateNumEntries() {
            return map.size();
        }

        /** Over a copy: a processor may delete while it iterates, as the in-memory store allows. */
        private KeyValueIterator<K, V> iterator(final NavigableMap<Bytes, Object> entries) {
            final List<Map.Entry<Bytes, Object>> copy = new ArrayList<>();
            entries.forEach((k, v) -> copy.add(Map.entry(k, v)));
            final Iterator<Map.Entry<Bytes, Object>> it = copy.iterator();
            return new KeyValueIterator<>() {
                private Map.Entry<Bytes, Object> peeked;

                @Override
                public boolean hasNext() {
                    return peeked != null || it.hasNext();
                }

                @Override
                public KeyValue<K, V> next() {
                    final Map.Entry<Bytes, Object> e = peeked != null ? peeked : it.next();
                    peeked = null;
                    return KeyValue.pair(keys.deserializer().deserialize(name, e.getKey().get()), value(e.getValue()));
                }

                @Override
                public K peekNextKey() {
                    if (peeked == null) {
                        peeked = it.next();
                    }
                    return keys.deserializer().deserialize(name, peeked.getKey().get());
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public void init(final StateStoreContext context, final StateStore root) {
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }

        @Override
        public boolean persistent() {
            return false;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public Position getPosition() {
            return Position.emptyPosition();
        }
    }
}
