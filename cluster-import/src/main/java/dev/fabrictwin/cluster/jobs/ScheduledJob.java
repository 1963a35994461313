package dev.fabrictwin.cluster.jobs;

import java.util.List;
import java.util.Map;

/**
 * A job as a scheduler reports it: its id, name, state, the hosts it runs on, when it started and ends (epoch ms,
 * null when unknown) and the metadata that may describe its collectives (a SLURM comment, Kubernetes annotations).
 */
public record ScheduledJob(String id, String name, String state, List<String> hosts, Long startMs, Long endMs,
                           Map<String, String> metadata) {

    public ScheduledJob {
        hosts = List.copyOf(hosts);
        metadata = Map.copyOf(metadata);
    }

    public boolean running() {
        return "RUNNING".equals(state);
    }
}
