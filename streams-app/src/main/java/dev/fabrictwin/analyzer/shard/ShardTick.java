package dev.fabrictwin.analyzer.shard;

import java.io.Serializable;
import java.util.List;

import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.analyzer.detect.PfcBoundary;
import dev.fabrictwin.contract.job.JobHealth;

/**
 * What one shard's analysis found in one closed tick, for the correlation stage: its detectors' findings, its view
 * of the jobs with NICs in it, and the PFC pauses that cross its edge ({@link PfcBoundary}). Sent for every tick the
 * shard closes, findings or not: it is also how the correlation stage knows the shard has got that far.
 */
public record ShardTick(int shard, long index, long startMs, long endMs, List<Finding> findings,
                        List<JobHealth> jobHealth, PfcBoundary pfc) implements Serializable {

    public ShardTick {
        findings = List.copyOf(findings);
        jobHealth = List.copyOf(jobHealth);
    }
}
