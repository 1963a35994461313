package dev.fabrictwin.analyzer.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.contract.TopicSpec;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.AlertJson;
import dev.fabrictwin.contract.document.DocumentFormatException;
import dev.fabrictwin.contract.document.JsonDocument;
import dev.fabrictwin.contract.job.JobHealth;

/**
 * The whole analyzer as a pure function of a {@link StreamsBuilder}:
 * <pre>
 * telemetry.samples (bad records → telemetry.deadletter by the deserialization handler)
 *   → port-rates (store port-last-sample, per device partition; samples whose names meet no port of the global
 *     fabric-topology store counted and dropped): intervals, lane = partition
 *   → one repartition topic per lane (…-analyzer-intervals-lane-N-repartition, 1 partition each)
 *   → merged in timestamp order into one task (cross-port checks need every port)
 *   → analyzer (stores open-alerts, analysis-checkpoint, analysis-journal; global stores fabric-topology,
 *     fabric-jobs): one output per batch
 *   ─┬─ its alerts → fabric.alerts
 *    └─ its job health → fabric.job-health
 * </pre>
 * Rates, wrap and reset handling scale out with the samples' partitions; the correlation stage sees the whole
 * fabric, so it runs as one task per fabric (a standby replica takes over on failure).
 *
 * <p>Sharded ({@link AnalyzerSettings#shards()} &gt; 1, docs/analyzer.md "Sharding"), the analysis is cut by fabric
 * domain, each shard a task of its own, and a small stage correlates what they found:
 * <pre>
 *   → port-rates → shard-split: each lane batch cut by shard ({@code ShardMap}: a link belongs to its lower end's domain)
 *   → one repartition topic per lane, a partition per shard (…-lane-N-repartition, partition = shard)
 *   → merged in timestamp order into one task per shard: the analysis of its links (stores analysis-checkpoint,
 *     analysis-journal): one {@code ShardTick} per closed tick (findings, job views, PFC crossing its edge)
 *   → …-analyzer-findings-repartition (1 partition)
 *   → correlation (stores open-alerts, correlation-checkpoint, correlation-journal): root vs victim over the fabric
 *   ─┬─ alerts → fabric.alerts
 *    └─ job health → fabric.job-health
 * </pre>
 */
public final class AnalyzerTopology {

    public static final String OPEN_ALERTS_STORE = "open-alerts";
    public static final String TOPOLOGY_STORE = "fabric-topology";
    public static final String JOBS_STORE = "fabric-jobs";
    /** Values of the global document stores: each document's bytes as written (see {@link #addDocumentStore}). */
    static final Serde<byte[]> DOCUMENT_BYTES = Serdes.ByteArray();
    /** Key of the single analysis partition (one fabric per topic set). */
    static final String FABRIC_KEY = "fabric";

    private AnalyzerTopology() {
    }

    public static Topology build(final AnalyzerSettings settings, final AnalyzerListener listener) {
        return build(settings, listener, new StreamsBuilder());
    }

    /**
     * As above, built under the application's {@code streamsConfig}: with
     * {@link StreamsConfig#ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG} set (as {@code AnalyzerApp} sets it), an
     * internal topic or store left to a generated name fails the build instead of stranding a deployed application's
     * state when a later change shifts the generated names.
     */
    public static Topology build(final AnalyzerSettings settings, final AnalyzerListener listener,
                                 final Properties streamsConfig) {
        return build(settings, listener, new StreamsBuilder(new TopologyConfig(new StreamsConfig(streamsConfig))));
    }

    private static Topology build(final AnalyzerSettings settings, final AnalyzerListener listener,
                                  final StreamsBuilder builder) {
        final var topics = settings.topics();
        // the topology's global store is persistent on purpose: an application with a persistent store keeps its
        // process id (and so its producers' transactional ids) across restarts, so a restarted instance fences what
        // its killed self left open at once (with every store in memory the lanes and changelogs wait out the
        // transaction timeout: chaos test, recoveries after a kill 10 s -> 27 s). A global store is not a task's: a
        // killed run leaves no corrupted task behind it, which a persistent task store does under exactly-once (wiped,
        // and a rebalance of the whole group before the task runs again: 2-3 s of every restart)
        addDocumentStore(builder, Stores.persistentKeyValueStore(TOPOLOGY_STORE), topics.topology(), "topology-source");
        addDocumentStore(builder, Stores.inMemoryKeyValueStore(JOBS_STORE), topics.jobs(), "jobs-source");
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(OPEN_ALERTS_STORE),
            Serdes.String(), AlertJson.SERDE));
        final List<String> stores = new ArrayList<>(settings.sharded() ? List.of() : List.of(OPEN_ALERTS_STORE));
        if (settings.checkpoints()) {
            AnalysisCheckpoints.storeBuilders().forEach(builder::addStateStore);
            stores.addAll(List.of(AnalysisCheckpoints.CHECKPOINT_STORE, AnalysisCheckpoints.JOURNAL_STORE));
        }

        final KStream<String, AnalyzerOutput> analyzed = mergedLanes(builder, settings, listener)
            .process(() -> new AnalyzerProcessor(settings, listener), Named.as("analyzer"), stores.toArray(String[]::new));
        final KStream<String, AnalyzerOutput> outputs = settings.sharded() ? correlated(builder, settings, listener, analyzed)
            : analyzed;
        final TopicSpec<String, Alert> alerts = topics.alerts();
        outputs.flatMap((k, out) -> out.alerts().stream().map(a -> KeyValue.pair(a.id(), a)).toList(), Named.as("alerts"))
            .to(alerts.name(), Produced.with(alerts.keySerde(), alerts.valueSerde()).withName("alerts-sink"));
        final TopicSpec<String, JobHealth> health = topics.jobHealth();
        outputs.flatMap((k, out) -> out.jobHealth().stream().map(h -> KeyValue.pair(h.job(), h)).toList(),
                Named.as("job-health"))
            .to(health.name(), Produced.with(health.keySerde(), health.valueSerde()).withName("job-health-sink"));
        return builder.build();
    }

    /** The shards' ticks, on one partition, through the correlation stage. */
    private static KStream<String, AnalyzerOutput> correlated(final StreamsBuilder builder, final AnalyzerSettings settings,
                                                              final AnalyzerListener listener,
                                                              final KStream<String, AnalyzerOutput> analyzed) {
        final List<String> stores = new ArrayList<>(List.of(OPEN_ALERTS_STORE));
        if (settings.checkpoints()) {
            AnalysisCheckpoints.storeBuilders(AnalysisCheckpoints.CORRELATION_CHECKPOINT_STORE,
                AnalysisCheckpoints.CORRELATION_JOURNAL_STORE, ShardTickSerde.SERDE).forEach(builder::addStateStore);
            stores.addAll(List.of(AnalysisCheckpoints.CORRELATION_CHECKPOINT_STORE, AnalysisCheckpoints.CORRELATION_JOURNAL_STORE));
        }
        return analyzed
            .flatMap((k, out) -> out.shardTicks().stream().map(t -> KeyValue.pair(FABRIC_KEY, t)).toList(),
                Named.as("shard-ticks"))
            .repartition(Repartitioned.with(Serdes.String(), ShardTickSerde.SERDE).withName("analyzer-findings")
                .withNumberOfPartitions(1))
            .process(() -> new CorrelationProcessor(settings, listener), Named.as("correlation"),
                stores.toArray(String[]::new));
    }

    /**
     * A global store of a compacted document topic (topology, jobs): its latest value per key, as the bytes written.
     * Bytes, not the topic's document type: Kafka Streams restores a global store from its topic without running
     * its processor, so the store may hold a document the processor refused, which a reader must skip rather than
     * fail on (and a typed store would parse every document on every read; {@link FabricDocuments} keeps them parsed).
     */
    private static void addDocumentStore(final StreamsBuilder builder, final KeyValueBytesStoreSupplier store,
                                         final TopicSpec<String, ? extends JsonDocument> topic, final String sourceName) {
        builder.addGlobalStore(Stores.keyValueStoreBuilder(store, topic.keySerde(), DOCUMENT_BYTES)
                .withLoggingDisabled(), topic.name(),
            Consumed.with(topic.keySerde(), DOCUMENT_BYTES).withName(sourceName),
            () -> new GlobalDocumentStore(store.name(), topic));
    }

    /**
     * The rates stage's intervals, every lane repartitioned to one partition of its own and the lanes merged: the
     * analysis is then a single task reading one partition per lane, and Kafka Streams hands it the record with
     * the lowest timestamp across its partitions (waiting, up to {@code max.task.idle.ms}, for a lane with
     * data still to come). So the fabric-wide analysis sees event time in order even while a backlog drains and
     * the sample partitions are processed at different speeds: Kafka, not the heap, holds what runs ahead.
     */
    private static KStream<String, List<PortInterval>> mergedLanes(final StreamsBuilder builder,
                                                                   final AnalyzerSettings settings,
                                                                   final AnalyzerListener listener) {
        final KStream<String, RatesStage.LaneBatch> batches = RatesStage.buildBatches(builder, settings.topics(),
            settings.tickMs(), settings.lanes(), settings.batchFlushMs(), TOPOLOGY_STORE, listener);
        KStream<String, List<PortInterval>> merged = null;
        for (int lane = 0; lane < settings.lanes(); lane++) {
            final int id = lane;
            final String name = settings.lanes() == 1 ? "analyzer-intervals" : "analyzer-intervals-lane-" + lane;
            final KStream<String, RatesStage.LaneBatch> laneBatches = settings.lanes() == 1 ? batches
                : batches.filter((device, batch) -> batch.lane() == id, Named.as("lane-" + lane));
            final KStream<String, List<PortInterval>> one = settings.sharded()
                ? laneBatches.process(() -> new ShardSplitter(settings.shards(), settings.tickMs()), Named.as(name + "-by-shard"))
                    .repartition(Repartitioned.with(Serdes.String(), PortIntervalSerde.listSerde()).withName(name)
                        .withNumberOfPartitions(settings.shards())
                        .withStreamPartitioner((topic, shard, batch, partitions) ->
                            Optional.of(Set.of(Integer.parseInt(shard)))))
                : laneBatches
                .map((device, batch) -> KeyValue.pair(FABRIC_KEY, batch.intervals()), Named.as(name + "-by-fabric"))
                .repartition(Repartitioned.with(Serdes.String(), PortIntervalSerde.listSerde())
                    .withName(name).withNumberOfPartitions(1));
            merged = merged == null ? one : merged.merge(one, Named.as("merge-" + name));
        }
        return merged;
    }

    /** Keeps the latest document per key in a global store; a tombstone removes it (a job ended). */
    private static final class GlobalDocumentStore implements Processor<String, byte[], Void, Void> {
        private final String storeName;
        private final TopicSpec<String, ? extends JsonDocument> topic;
        private KeyValueStore<String, byte[]> store;

        GlobalDocumentStore(final String storeName, final TopicSpec<String, ? extends JsonDocument> topic) {
            this.storeName = storeName;
            this.topic = topic;
        }

        @Override
        public void init(final ProcessorContext<Void, Void> context) {
            store = context.getStateStore(storeName);
        }

        @Override
        public void process(final Record<String, byte[]> record) {
            if (record.key() == null) {
                return;
            }
            if (record.value() == null) {
                store.delete(record.key());
            } else {
                requireDocument(record.value());
                store.put(record.key(), record.value());
            }
        }

        /**
         * Throws on a document the topic's serde refuses, so the store keeps the previous one for its key and the
         * handler counts it ({@code bad-document}, logged with its reason); Kafka Streams sends no dead letter from a
         * global store's processor, so it is not on the dead letter topic.
         */
        private void requireDocument(final byte[] document) {
            try {
                topic.valueSerde().deserializer().deserialize(topic.name(), document);
            } catch (DocumentFormatException e) {
                throw new UnreadableDocumentException(storeName, e.getMessage());
            }
        }
    }
}
