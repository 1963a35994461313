package dev.fabrictwin.analyzer.topology;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.twin.telemetry.Topics;

/** What the topology needs besides the builder: topic names and the analyzer's settings. */
public record AnalyzerSettings(Topics topics, AnalyzerConfig analyzerConfig) {

    public long tickMs() {
        return analyzerConfig.tickMs();
    }

    public static AnalyzerSettings defaults(final long sampleIntervalMs) {
        return new AnalyzerSettings(Topics.DEFAULT, AnalyzerConfig.defaults(sampleIntervalMs));
    }
}
