package dev.fabrictwin.analyzer.topology;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.contract.Topics;

/**
 * What the topology needs besides the builder: topic names, the analyzer's settings, and the number of
 * <em>lanes</em> — one per partition of {@code telemetry.samples}. Each sample partition's intervals reach the
 * fabric-wide analysis through a lane of their own (a one-partition repartition topic), so that Kafka Streams
 * merges the lanes in timestamp order (see {@link AnalyzerTopology}).
 *
 * <p>{@code batchFlushMs} &gt; 0 makes each rates task hold its intervals back until its input moves to the next
 * tick, or that many wall-clock milliseconds pass, and send them as one lane record (see {@link RatesStage});
 * 0 sends each input record's intervals at once (replay, tests).
 *
 * <p>{@code checkpoints} keeps the analysis state in changelogged stores so a restarted task resumes it exactly
 * ({@link AnalysisCheckpoints}); off only where nothing will ever resume (a one-pass {@code replay}).
 *
 * <p>{@code shards} &gt; 1 cuts the analysis by fabric domain ({@code ShardMap}): each shard is a task of its own
 * (any instance may run it), and a small correlation stage puts their findings together (see {@link AnalyzerTopology}).
 */
public record AnalyzerSettings(Topics topics, AnalyzerConfig analyzerConfig, int lanes, long batchFlushMs,
                               boolean checkpoints, int shards) {

    public AnalyzerSettings {
        if (lanes < 1) {
            throw new IllegalArgumentException("lanes must be >= 1 (one per telemetry.samples partition), got " + lanes);
        }
        if (batchFlushMs < 0) {
            throw new IllegalArgumentException("batchFlushMs must be >= 0 (0 = no batching), got " + batchFlushMs);
        }
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be >= 1 (1 = the whole fabric in one task), got " + shards);
        }
    }

    public AnalyzerSettings(final Topics topics, final AnalyzerConfig analyzerConfig, final int lanes,
                            final long batchFlushMs, final boolean checkpoints) {
        this(topics, analyzerConfig, lanes, batchFlushMs, checkpoints, 1);
    }

    /** One lane, no batching: for a single sample partition, and for {@code replay} (one input in file order). */
    public AnalyzerSettings(final Topics topics, final AnalyzerConfig analyzerConfig) {
        this(topics, analyzerConfig, 1, 0, true);
    }

    public AnalyzerSettings withLanes(final int n) {
        return new AnalyzerSettings(topics, analyzerConfig, n, batchFlushMs, checkpoints, shards);
    }

    public AnalyzerSettings withBatchFlushMs(final long ms) {
        return new AnalyzerSettings(topics, analyzerConfig, lanes, ms, checkpoints, shards);
    }

    /** For a single pass over a capture: the state is never checkpointed (nothing will resume it). */
    public AnalyzerSettings withoutCheckpoints() {
        return new AnalyzerSettings(topics, analyzerConfig, lanes, batchFlushMs, false, shards);
    }

    public AnalyzerSettings withShards(final int n) {
        return new AnalyzerSettings(topics, analyzerConfig, lanes, batchFlushMs, checkpoints, n);
    }

    public boolean sharded() {
        return shards > 1;
    }

    public long tickMs() {
        return analyzerConfig.tickMs();
    }

    public static AnalyzerSettings defaults(final long sampleIntervalMs) {
        return new AnalyzerSettings(Topics.DEFAULT, AnalyzerConfig.defaults(sampleIntervalMs));
    }
}
