package dev.fabrictwin.cluster.jobs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * One reading of the scheduler turned into job documents: the running jobs (with hosts) by id, how many were skipped
 * (not running, or running on no host yet), which ran on the default shape because nothing described them, and the
 * source's entries that are no job at all (Kubernetes pods of no training job).
 */
public record JobImport(Map<String, JsonNode> documents, int skipped, List<String> defaulted, List<String> ignored) {

    public JobImport {
        defaulted = List.copyOf(defaulted);
        ignored = List.copyOf(ignored);
    }

    public static JobImport of(final List<ScheduledJob> jobs, final List<JobShape.Rule> rules, final ObjectMapper mapper) {
        return of(jobs, List.of(), rules, mapper);
    }

    public static JobImport of(final List<ScheduledJob> jobs, final List<String> ignored, final List<JobShape.Rule> rules,
                               final ObjectMapper mapper) {
        final Map<String, JsonNode> documents = new LinkedHashMap<>();
        final List<String> defaulted = new ArrayList<>();
        int skipped = 0;
        for (final ScheduledJob job : jobs) {
            if (!job.running() || job.hosts().isEmpty()) {
                skipped++;
                continue;
            }
            final Map.Entry<JobShape, JobShape.Source> shape = JobShape.of(job, rules);
            if (shape.getValue() == JobShape.Source.DEFAULT) {
                defaulted.add(job.id());
            }
            documents.put(job.id(), JobDocuments.toJson(job, shape.getKey(), mapper));
        }
        return new JobImport(documents, skipped, defaulted, ignored);
    }

    /** {@code jobs import: 2 running, 1 skipped (not running or no hosts); 3 pods of no training job ignored (...);
     *  the default shape for: 7}. */
    public String report() {
        return "jobs import: " + documents.size() + " running, " + skipped + " skipped (not running or no hosts)"
            + (ignored.isEmpty() ? "" : "; " + ignored.size() + " pods of no training job ignored ("
                + String.join(", ", ignored.subList(0, Math.min(3, ignored.size()))) + (ignored.size() > 3 ? ", ..." : "") + ")")
            + (defaulted.isEmpty() ? "" : "; the default shape (" + JobShape.DEFAULT.pattern() + ", 1GB per 1s, comm 0.3) "
            + "for: " + String.join(", ", defaulted));
    }
}
