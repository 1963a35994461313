package dev.fabrictwin.analyzer.topology;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.shard.ShardMap;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.fabric.PortNames;
import dev.fabrictwin.twin.fabric.Technology;

/**
 * Cuts each lane batch into one batch per analysis shard ({@link ShardMap}), keyed by the shard's number: the lane's
 * repartition topic has a partition per shard, so each shard's analysis task reads every lane's intervals of its
 * links, in timestamp order. Intervals whose names meet no topology port (or all of them, before a topology arrives)
 * go to shard 0, whose analysis reports them as it does unsharded. A shard that got nothing from the lane for a tick
 * gets an empty batch at the batch's time, so no shard's partition of a lane stays empty (see {@link #process}).
 */
final class ShardSplitter implements Processor<String, RatesStage.LaneBatch, String, List<PortInterval>> {

    /** How often (event time) the topology document is compared with the one routed by. */
    private static final long DOCUMENT_CHECK_MS = 5_000;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The router of the latest topology, shared by every splitter of the process (one fabric, many tasks). */
    private static volatile Router shared;

    private final int shards;
    private final long tickMs;
    /** The newest time this task wrote to each shard's partition. */
    private final long[] lastSentMs;
    private ProcessorContext<String, List<PortInterval>> context;
    private ReadOnlyKeyValueStore<String, byte[]> topologies;
    private Router router;
    private long lastCheckMs = Long.MIN_VALUE;

    ShardSplitter(final int shards, final long tickMs) {
        this.shards = shards;
        this.tickMs = tickMs;
        this.lastSentMs = new long[shards];
    }

    /** A topology's ports by name, and their shards. */
    private record Router(int version, int shards, Fabric fabric, PortNames.Resolver names, ShardMap map) {
        int shardOf(final PortInterval i) {
            final PortNames.Resolution r = names.resolve(i.device(), i.port());
            if (!r.matched()) {
                return 0;
            }
            final int port = fabric.portIndex(r.port());
            return port < 0 ? 0 : map.ofPort(port);
        }
    }

    @Override
    public void init(final ProcessorContext<String, List<PortInterval>> context) {
        this.context = context;
        this.topologies = context.getStateStore(AnalyzerTopology.TOPOLOGY_STORE);
        this.router = null;
        this.lastCheckMs = Long.MIN_VALUE;
        Arrays.fill(lastSentMs, Long.MIN_VALUE);
    }

    @Override
    public void process(final Record<String, RatesStage.LaneBatch> record) {
        final List<PortInterval> batch = record.value().intervals();
        if (batch.isEmpty()) {
            return;
        }
        if (router == null || batch.get(0).t1() - lastCheckMs >= DOCUMENT_CHECK_MS) {
            lastCheckMs = batch.get(0).t1();
            router = current();
        }
        final Map<Integer, List<PortInterval>> byShard = new TreeMap<>();
        long batchNewest = Long.MIN_VALUE;
        for (final PortInterval i : batch) {
            byShard.computeIfAbsent(router == null ? 0 : router.shardOf(i), s -> new ArrayList<>()).add(i);
            batchNewest = Math.max(batchNewest, i.t1());
        }
        for (int shard = 0; shard < shards; shard++) {
            final List<PortInterval> part = byShard.get(shard);
            if (part == null) {
                // a shard none of whose ports this lane carries still hears from it once a tick: Kafka Streams holds a
                // task one of whose partitions is empty for max.task.idle.ms (60 s) after each start
                if (lastSentMs[shard] == Long.MIN_VALUE || batchNewest - lastSentMs[shard] >= tickMs) {
                    context.forward(new Record<>(String.valueOf(shard), List.of(), batchNewest));
                    lastSentMs[shard] = batchNewest;
                }
                continue;
            }
            long newest = Long.MIN_VALUE;
            for (final PortInterval i : part) {
                newest = Math.max(newest, i.t1());
            }
            context.forward(new Record<>(String.valueOf(shard), List.copyOf(part), newest));
            lastSentMs[shard] = Math.max(lastSentMs[shard], newest);
        }
    }

    /** The router of the topology in the store (built once per topology and process); null before one arrives. */
    private Router current() {
        byte[] doc = null;
        int version = 17;
        try (KeyValueIterator<String, byte[]> it = topologies.all()) {
            while (it.hasNext()) {
                final byte[] value = it.next().value;
                if (value != null) {
                    doc = value;
                    version = 31 * version + Arrays.hashCode(value);
                }
            }
        }
        if (doc == null) {
            return null;
        }
        final Router known = shared;
        if (known != null && known.version() == version && known.shards() == shards) {
            return known;
        }
        try {
            final JsonNode topology = JSON.readTree(doc);
            final Fabric fabric = FabricJson.fromJson(topology, "fabric", Technology.ROCE_V2);
            final Router built = new Router(version, shards, fabric, PortNames.fromJson(topology.get("names")).bind(fabric),
                ShardMap.of(fabric, shards));
            shared = built;
            return built;
        } catch (IOException | IllegalArgumentException e) {
            return router; // the analysis reports a bad document; route as before meanwhile
        }
    }
}
