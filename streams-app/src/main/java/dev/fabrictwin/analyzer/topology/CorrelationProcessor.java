package dev.fabrictwin.analyzer.topology;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.analyzer.checkpoint.AnalyzerCheckpoint;
import dev.fabrictwin.analyzer.shard.ShardMap;
import dev.fabrictwin.analyzer.shard.ShardTick;
import dev.fabrictwin.analyzer.shard.ShardedCorrelation;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;

/**
 * The correlation stage of a sharded analysis: every shard's {@link ShardTick}s, from one partition, into one
 * {@link ShardedCorrelation}, which publishes the fabric's alerts and job health. Its state is checkpointed and
 * journaled like the analysis's ({@link AnalysisCheckpoints}), open alerts kept in the
 * {@value AnalyzerTopology#OPEN_ALERTS_STORE} store: exactly-once, a restarted or moved task continues as if it had
 * never stopped. The fabric and the jobs come from the global document stores, followed at the ticks' event time.
 */
final class CorrelationProcessor implements Processor<String, ShardTick, String, AnalyzerOutput> {

    private static final Logger LOG = LoggerFactory.getLogger(CorrelationProcessor.class);
    private static final long DOCUMENT_CHECK_MS = 5_000;

    /** What the task carries from one record to the next (checkpointed whole). */
    static final class Progress implements Serializable {
        private static final long serialVersionUID = 1L;
        ShardedCorrelation correlation;
        /** As {@link AnalysisProgress}'s hashes, and an earlier build's 32-bit versions (read once, to continue it). */
        long documentsHash;
        long topologyHash;
        boolean hashed = true;
        int documentsVersion;
        int topologyVersion;
        long lastCheckMs = Long.MIN_VALUE;
    }

    /**
     * The epoch of the correlation's replica, which never runs: it only says which jobs run when, from their documents.
     * Before any telemetry, so a job runs from its {@code startMs} (or always, without one) whichever shard's tick
     * happened to come first.
     */
    private static final long SCHEDULE_EPOCH_MS = 0;

    private final AnalyzerSettings settings;
    private final AnalyzerListener listener;
    private ProcessorContext<String, AnalyzerOutput> context;
    private KeyValueStore<String, Alert> openAlerts;
    private ReadOnlyKeyValueStore<String, byte[]> topologies;
    private ReadOnlyKeyValueStore<String, byte[]> jobs;
    private AnalysisCheckpoints<Progress, ShardTick> checkpoints;
    private Progress progress = new Progress();
    private final FabricDocuments.Reader documents = new FabricDocuments.Reader();
    private boolean resumed;
    private boolean rebuilt;

    CorrelationProcessor(final AnalyzerSettings settings, final AnalyzerListener listener) {
        this.settings = settings;
        this.listener = listener;
    }

    @Override
    public void init(final ProcessorContext<String, AnalyzerOutput> context) {
        this.context = context;
        progress = new Progress(); // a revived task resumes from its committed state (see AnalyzerProcessor#init)
        resumed = false;
        rebuilt = false;
        openAlerts = context.getStateStore(AnalyzerTopology.OPEN_ALERTS_STORE);
        topologies = context.getStateStore(AnalyzerTopology.TOPOLOGY_STORE);
        jobs = context.getStateStore(AnalyzerTopology.JOBS_STORE);
        checkpoints = settings.checkpoints() ? new AnalysisCheckpoints<>(
            context.getStateStore(AnalysisCheckpoints.CORRELATION_CHECKPOINT_STORE),
            context.getStateStore(AnalysisCheckpoints.CORRELATION_JOURNAL_STORE), Progress.class, t -> 1, null, context::currentSystemTimeMs) : null;
    }

    @Override
    public void process(final Record<String, ShardTick> record) {
        if (record.value() == null) {
            return;
        }
        if (!resumed && checkpoints != null) {
            resume();
        }
        resumed = true;
        final List<Alert> alerts = new ArrayList<>();
        final List<JobHealth> health = new ArrayList<>();
        correlate(record.value(), alerts, health);
        if (progress.correlation != null && checkpoints != null) {
            rebuilt = checkpoints.afterBatch(record.value(), progress, rebuilt);
        }
        if (!alerts.isEmpty() || !health.isEmpty()) {
            context.forward(new Record<>(AnalyzerTopology.FABRIC_KEY, new AnalyzerOutput(alerts, health),
                record.value().endMs()));
        }
    }

    /** One shard tick into the correlation; what it publishes goes to the lists, or nowhere when they are null. */
    private void correlate(final ShardTick tick, final List<Alert> alerts, final List<JobHealth> health) {
        if (progress.correlation == null || tick.endMs() - progress.lastCheckMs >= DOCUMENT_CHECK_MS) {
            progress.lastCheckMs = tick.endMs();
            refresh();
            if (progress.correlation == null) {
                return;
            }
        }
        final ShardedCorrelation.Output out = progress.correlation.accept(tick);
        if (alerts == null) {
            return;
        }
        AnalyzerProcessor.publish(out.alerts(), out.jobHealth(), openAlerts, listener, alerts, health,
            context.currentSystemTimeMs());
        if (out.ticks() > 0) {
            listener.openAlerts(progress.correlation.openAlerts());
        }
    }

    private void resume() {
        try {
            checkpoints.restore().ifPresent(r -> {
                progress = r.progress();
                r.journal().forEach(t -> correlate(t, null, null));
                LOG.info("correlation resumed from its checkpoint and {} journaled shard ticks", r.journal().size());
            });
        } catch (AnalyzerCheckpoint.IncompatibleCheckpointException e) {
            LOG.warn("the correlation checkpoint cannot be continued by this version ({}): it starts afresh, open alerts "
                + "are kept", e.getMessage());
            checkpoints.clear();
            progress = new Progress();
        }
    }

    /** Builds the correlation from the documents, or follows their jobs; a changed topology rebuilds it. */
    private void refresh() {
        final FabricDocuments docs = documents.read(topologies, jobs);
        if (!progress.hashed) {
            progress.documentsHash = docs.versionOfLegacy(progress.documentsVersion);
            progress.topologyHash = docs.topologyVersionOfLegacy(progress.topologyVersion);
            progress.hashed = true;
        }
        if (docs.topology() == null || progress.correlation != null && docs.version() == progress.documentsHash) {
            return;
        }
        try {
            if (progress.correlation != null && docs.topologyVersion() == progress.topologyHash) {
                // a replica never advanced knows which jobs run when from their documents alone
                progress.correlation.follow(TwinReplica.from(docs.topology(), docs.jobs(), SCHEDULE_EPOCH_MS));
            } else {
                final TwinReplica twin = TwinReplica.from(docs.topology(), docs.jobs(), SCHEDULE_EPOCH_MS);
                progress.correlation = new ShardedCorrelation(twin, ShardMap.of(twin.fabric(), settings.shards()),
                    settings.analyzerConfig());
                progress.topologyHash = docs.topologyVersion();
                rebuilt = true;
                final List<Alert> restored = new ArrayList<>();
                try (KeyValueIterator<String, Alert> it = openAlerts.all()) {
                    it.forEachRemaining(kv -> restored.add(kv.value));
                }
                progress.correlation.restore(restored);
                listener.openAlerts(progress.correlation.openAlerts());
            }
            progress.documentsHash = docs.version();
        } catch (IllegalArgumentException e) {
            LOG.error("the topology or jobs documents cannot be correlated over ({}): keeping what was there", e.getMessage());
            progress.documentsHash = docs.version();
        }
    }
}
