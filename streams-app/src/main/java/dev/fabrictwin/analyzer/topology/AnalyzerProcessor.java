package dev.fabrictwin.analyzer.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.analyzer.FabricAnalyzer;
import dev.fabrictwin.analyzer.TickReport;
import dev.fabrictwin.analyzer.checkpoint.AnalyzerCheckpoint;
import dev.fabrictwin.analyzer.checkpoint.LearnedState;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.shard.ShardMap;
import dev.fabrictwin.analyzer.shard.ShardTick;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.analyzer.twin.ReplicaSync;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.contract.sample.RejectReason;

/**
 * Drives one {@link FabricAnalyzer} per fabric from the repartitioned intervals. The twin replica is built from
 * the global topology and jobs stores when the first interval arrives and rebuilt when the topology changes; jobs
 * that start or end are followed by the replica at event time (no rebuild, no state lost). The whole analysis
 * state is checkpointed and journaled ({@link AnalysisCheckpoints}), and open alerts are kept in the
 * {@value AnalyzerTopology#OPEN_ALERTS_STORE} store, all changelogged: with exactly-once a restarted or moved task
 * continues as if it had never stopped. Forwards one {@link AnalyzerOutput} per input batch that published anything:
 * its {@link Alert}s and {@link JobHealth}s, stamped with their latest event time.
 */
final class AnalyzerProcessor implements Processor<String, List<PortInterval>, String, AnalyzerOutput> {

    private static final Logger LOG = LoggerFactory.getLogger(AnalyzerProcessor.class);
    /** How often (event time) the declared jobs are checked for changes. */
    private static final long DOCUMENT_CHECK_MS = 5_000;

    private final AnalyzerSettings settings;
    private final AnalyzerListener listener;
    private ProcessorContext<String, AnalyzerOutput> context;
    private KeyValueStore<String, Alert> openAlerts;
    private ReadOnlyKeyValueStore<String, byte[]> topologies;
    private ReadOnlyKeyValueStore<String, byte[]> jobs;
    private AnalysisCheckpoints<AnalysisProgress, List<PortInterval>> checkpoints;
    /** The analysis of the shard being processed; sharded, one per shard this task is given (one, on a cluster). */
    private AnalysisProgress progress = new AnalysisProgress();
    private final Map<Integer, AnalysisProgress> byShard = new HashMap<>();
    private final FabricDocuments.Reader documents = new FabricDocuments.Reader();
    private int shard;
    private boolean resumed;
    /** The replica was (re)built during this batch: checkpoint at its end, so no journal predates a checkpoint. */
    private boolean rebuilt;
    private long rejectedVersion;
    /** What a checkpoint of another build had learned, for the analysis built next to take back (null: none). */
    private LearnedState previousLearned;
    private long waitingForTopology;

    AnalyzerProcessor(final AnalyzerSettings settings, final AnalyzerListener listener) {
        this.settings = settings;
        this.listener = listener;
    }

    @Override
    public void init(final ProcessorContext<String, AnalyzerOutput> context) {
        this.context = context;
        // init runs again on this same instance when Kafka Streams revives a task it closed dirty: the analysis in
        // memory has taken batches the committed state never saw, so it resumes from the checkpoint and journal as
        // after a restart (else those batches would be analyzed twice)
        progress = new AnalysisProgress();
        byShard.clear();
        resumed = false;
        rebuilt = false;
        // sharded, the open alerts are the correlation stage's
        this.openAlerts = settings.sharded() ? null : context.getStateStore(AnalyzerTopology.OPEN_ALERTS_STORE);
        this.topologies = context.getStateStore(AnalyzerTopology.TOPOLOGY_STORE);
        this.jobs = context.getStateStore(AnalyzerTopology.JOBS_STORE);
        this.checkpoints = settings.checkpoints() ? AnalysisCheckpoints.ofAnalysis(context) : null;
    }

    @Override
    public void process(final Record<String, List<PortInterval>> record) {
        if (record.value() == null || record.value().isEmpty()) {
            return; // (an empty batch only keeps a shard's lane partition from being waited for: ShardSplitter)
        }
        selectShard(record.key());
        if (!resumed && checkpoints != null) {
            resume();
            byShard.put(shard, progress);
        }
        resumed = true;
        final List<Alert> alerts = new ArrayList<>();
        final List<JobHealth> health = new ArrayList<>();
        final List<ShardTick> shardTicks = new ArrayList<>();
        analyze(record.value(), alerts, health, shardTicks);
        listener.intervals(record.value().size());
        if (progress.analyzer != null && checkpoints != null) {
            rebuilt = checkpoints.afterBatch(record.value(), progress, rebuilt);
        }
        final AnalyzerOutput out = new AnalyzerOutput(alerts, health, shardTicks);
        if (!out.isEmpty()) {
            long stamp = Long.MIN_VALUE;
            for (final ShardTick t : shardTicks) {
                stamp = Math.max(stamp, t.endMs());
            }
            for (final Alert a : alerts) {
                stamp = Math.max(stamp, a.lastSeen());
            }
            for (final JobHealth h : health) {
                stamp = Math.max(stamp, h.ts());
            }
            context.forward(new Record<>(AnalyzerTopology.FABRIC_KEY, out, stamp));
        }
    }

    /**
     * Sharded, the record's key is its shard: a cluster gives each task one (its partition), a test driver all of
     * them to one task, which then keeps one analysis per shard. A checkpointed task must hold only its own.
     */
    private void selectShard(final String key) {
        if (!settings.sharded()) {
            return;
        }
        final int s = Integer.parseInt(key);
        if (checkpoints != null && s != context.taskId().partition()) {
            throw new IllegalStateException("shard " + s + " reached the task of partition " + context.taskId().partition()
                + ": the lanes must be partitioned by shard");
        }
        shard = s;
        progress = byShard.computeIfAbsent(s, k -> new AnalysisProgress());
    }

    /**
     * Runs one batch through the analyzer; what it publishes goes to {@code alerts}, {@code health} and
     * {@code shardTicks}, or nowhere when they are null (a journal replayed after a restart: it was published before).
     */
    private void analyze(final List<PortInterval> batch, final List<Alert> alerts, final List<JobHealth> health,
                         final List<ShardTick> shardTicks) {
        for (final PortInterval interval : batch) {
            if (progress.analyzer == null || interval.t1() - progress.lastCheckMs >= DOCUMENT_CHECK_MS) {
                progress.lastCheckMs = interval.t1();
                refreshTwin(interval);
                if (progress.analyzer == null) {
                    continue;
                }
            }
            final long duplicates = progress.analyzer.duplicateIntervals();
            final FabricAnalyzer.Output out = progress.analyzer.accept(interval);
            if (alerts != null) {
                if (progress.analyzer.duplicateIntervals() > duplicates) {
                    listener.rejected(RejectReason.DUPLICATE_INTERVAL);
                }
                publish(out, alerts, health, shardTicks);
            }
        }
    }

    /**
     * After a start, continues from where the last committed transaction left the analysis: its checkpoint, then
     * the batches journaled after it, replayed silently. A checkpoint this build cannot read starts afresh (the
     * open alerts in their store are still taken back).
     */
    private void resume() {
        try {
            checkpoints.restore().ifPresent(r -> {
                final long start = System.nanoTime();
                progress = r.progress();
                r.journal().forEach(batch -> analyze(batch, null, null, null));
                LOG.info("analysis resumed from its checkpoint and {} journaled intervals in {} ms",
                    r.journal().stream().mapToInt(List::size).sum(),
                    (System.nanoTime() - start) / 1_000_000);
            });
        } catch (AnalyzerCheckpoint.IncompatibleCheckpointException e) {
            LOG.warn("the analysis checkpoint cannot be continued by this version ({}): analysis starts afresh, "
                + "open alerts are kept{}", e.getMessage(), e.learned().isPresent()
                ? ", and what it had learned is taken back where this version reads it" : "");
            previousLearned = e.learned().orElse(null);
            checkpoints.clear();
            progress = new AnalysisProgress();
        }
    }

    private void refreshTwin(final PortInterval first) {
        final FabricDocuments docs = documents.read(topologies, jobs);
        if (!progress.hashed) {
            progress.documentsHash = docs.versionOfLegacy(progress.documentsVersion);
            progress.topologyHash = docs.topologyVersionOfLegacy(progress.topologyVersion);
            progress.hashed = true;
        }
        if (docs.topology() == null) {
            if (waitingForTopology++ % 100_000 == 0) {
                LOG.warn("no fabric topology yet on the topology topic: intervals are not analyzed until one arrives");
            }
            listener.rejected(RejectReason.NO_TOPOLOGY);
            return;
        }
        if (progress.analyzer != null && docs.version() == progress.documentsHash) {
            return;
        }
        if (progress.analyzer != null && docs.topologyVersion() == progress.topologyHash) {
            try {
                progress.analyzer.twin().steer(ReplicaSync.jobs(docs.jobs(), first.t1()));
                LOG.info("declared jobs changed: the replica follows at event time {}", first.t1());
            } catch (IllegalArgumentException e) {
                LOG.error("a job document cannot be used ({}): keeping the jobs as they were", e.getMessage());
                listener.rejected(RejectReason.BAD_DOCUMENT);
            }
            progress.documentsHash = docs.version();
            return;
        }
        if (progress.analyzer != null) {
            LOG.info("topology changed: rebuilding the twin replica");
        }
        final long epoch = Math.floorDiv(first.t0(), settings.tickMs()) * settings.tickMs();
        final AnalyzerConfig config = settings.analyzerConfig();
        final FabricAnalyzer analyzer;
        try {
            final TwinReplica twin = TwinReplica.from(docs.topology(), docs.jobs(), epoch);
            analyzer = settings.sharded()
                ? new FabricAnalyzer(twin, config, ShardMap.of(twin.fabric(), settings.shards()), shard)
                : new FabricAnalyzer(twin, config);
        } catch (IllegalArgumentException e) {
            if (docs.version() != rejectedVersion) {
                LOG.error("the topology or jobs documents cannot be used ({}): {}", e.getMessage(),
                    progress.analyzer == null ? "nothing is analyzed until they are fixed" : "keeping the previous ones");
                rejectedVersion = docs.version();
                listener.rejected(RejectReason.BAD_DOCUMENT);
            }
            return;
        }
        if (progress.analyzer == null && previousLearned != null) {
            LOG.info("took back what the previous version had learned: {} (anything else is learned afresh)",
                analyzer.relearn(previousLearned));
            previousLearned = null;
        }
        progress.analyzer = analyzer;
        progress.documentsHash = docs.version();
        progress.topologyHash = docs.topologyVersion();
        rebuilt = true;
        if (settings.sharded()) {
            return; // the open alerts are the correlation stage's
        }
        final List<Alert> restored = new ArrayList<>();
        try (KeyValueIterator<String, Alert> it = openAlerts.all()) {
            it.forEachRemaining(kv -> restored.add(kv.value));
        }
        progress.analyzer.restore(restored);
    }

    /**
     * Records what a step published: alerts into the open-alerts store (a resolved one leaves it) and, with job health,
     * into the listener (metrics) and the lists that go out.
     */
    static void publish(final List<Alert> published, final List<JobHealth> jobHealth, final KeyValueStore<String, Alert> open,
                        final AnalyzerListener listener, final List<Alert> alerts, final List<JobHealth> health,
                        final long now) { // now: wall clock (the context's), which the alert lag is against event time
        for (final Alert a : published) {
            if (a.state() == Alert.State.RESOLVED) {
                open.delete(a.id());
            } else {
                open.put(a.id(), a);
            }
            listener.alert(a, now);
            alerts.add(a);
        }
        for (final JobHealth h : jobHealth) {
            listener.jobHealth(h);
            health.add(h);
        }
    }

    private void publish(final FabricAnalyzer.Output out, final List<Alert> alerts, final List<JobHealth> health,
                         final List<ShardTick> shardTicks) {
        if (out.unmatched() != null) {
            listener.unmatched(out.unmatched());
            return;
        }
        if (settings.sharded()) { // what the shard found goes to the correlation stage, which publishes
            shardTicks.addAll(out.shardTicks());
            for (final Tick t : out.ticks()) {
                listener.tick(new TickReport(progress.analyzer.twin().fabric(), t, List.of(), progress.analyzer.lastTwinMs(),
                    progress.analyzer.lateIntervals(), progress.analyzer.clocksAhead(), shard));
            }
            return;
        }
        publish(out.alerts(), out.jobHealth(), openAlerts, listener, alerts, health, context.currentSystemTimeMs());
        if (!out.ticks().isEmpty()) {
            final List<Alert> open = progress.analyzer.openAlerts();
            for (final Tick t : out.ticks()) {
                listener.tick(new TickReport(progress.analyzer.twin().fabric(), t, open, progress.analyzer.lastTwinMs(),
                    progress.analyzer.lateIntervals(), progress.analyzer.clocksAhead()));
            }
        }
    }
}
