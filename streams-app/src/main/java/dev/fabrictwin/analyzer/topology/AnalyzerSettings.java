package dev.fabrictwin.analyzer.topology;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.twin.telemetry.Topics;

/**
 * What the topology needs besides the builder: topic names, the analyzer's settings, and the number of
 * <em>lanes</em> — one per partition of {@code telemetry.samples}. Each sample partition's intervals reach the
 * fabric-wide analysis through a lane of their own (a one-partition repartition topic), so that Kafka Streams
 * merges the lanes in timestamp order (see {@link AnalyzerTopology}).
 */
public record AnalyzerSettings(Topics topics, AnalyzerConfig analyzerConfig, int lanes) {

    public AnalyzerSettings {
        if (lanes < 1) {
            throw new IllegalArgumentException("lanes must be >= 1 (one per telemetry.samples partition), got " + lanes);
        }
    }

    /** One lane: for a single sample partition, and for {@code replay} (one input in file order). */
    public AnalyzerSettings(final Topics topics, final AnalyzerConfig analyzerConfig) {
        this(topics, analyzerConfig, 1);
    }

    public AnalyzerSettings withLanes(final int n) {
        return new AnalyzerSettings(topics, analyzerConfig, n);
    }

    public long tickMs() {
        return analyzerConfig.tickMs();
    }

    public static AnalyzerSettings defaults(final long sampleIntervalMs) {
        return new AnalyzerSettings(Topics.DEFAULT, AnalyzerConfig.defaults(sampleIntervalMs));
    }
}
