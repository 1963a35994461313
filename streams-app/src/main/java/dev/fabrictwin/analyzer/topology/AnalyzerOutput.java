package dev.fabrictwin.analyzer.topology;

import java.util.List;

import dev.fabrictwin.analyzer.shard.ShardTick;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;

/**
 * What the analysis published for one batch of intervals: alert records and job-health records, in order; sharded,
 * the shard's closed ticks for the correlation stage instead.
 */
record AnalyzerOutput(List<Alert> alerts, List<JobHealth> jobHealth, List<ShardTick> shardTicks) {

    AnalyzerOutput {
        alerts = List.copyOf(alerts);
        jobHealth = List.copyOf(jobHealth);
        shardTicks = List.copyOf(shardTicks);
    }

    AnalyzerOutput(final List<Alert> alerts, final List<JobHealth> jobHealth) {
        this(alerts, jobHealth, List.of());
    }

    boolean isEmpty() {
        return alerts.isEmpty() && jobHealth.isEmpty() && shardTicks.isEmpty();
    }
}
