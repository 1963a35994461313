package dev.fabrictwin.cluster.jobs;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Training jobs from {@code kubectl get pods -o json}: the pods of one job share a label — Kubeflow's
 * {@code training.kubeflow.org/job-name} (PyTorchJob, MPIJob), JobSet's {@code jobset.sigs.k8s.io/jobset-name}, the
 * MPI operator's {@code mpi-job-name} — and the job runs on their nodes ({@code spec.nodeName}). A job runs while any
 * of its pods runs; it started when its first pod did. Annotations of its pods are its metadata.
 */
public final class KubernetesPods {

    static final List<String> JOB_LABELS = List.of("training.kubeflow.org/job-name", "jobset.sigs.k8s.io/jobset-name",
        "mpi-job-name");

    private KubernetesPods() {
    }

    public static List<ScheduledJob> fromJson(final JsonNode root) {
        final JsonNode items = root == null ? null : root.get("items");
        if (items == null || !items.isArray()) {
            throw new IllegalArgumentException("kubectl get pods -o json output needs an 'items' array");
        }
        final Map<String, Builder> jobs = new LinkedHashMap<>();
        for (final JsonNode pod : items) {
            final String job = jobName(pod.path("metadata").path("labels"));
            if (job == null) {
                continue; // not a training job's pod
            }
            final String namespace = pod.path("metadata").path("namespace").asText("default");
            // a job id is a Kafka key and an alert entity: namespace and name joined by a dot, the default namespace left out
            final Builder b = jobs.computeIfAbsent(namespace.equals("default") ? job : namespace + "." + job, Builder::new);
            final boolean running = pod.path("status").path("phase").asText("").equals("Running");
            final String node = pod.path("spec").path("nodeName").asText("");
            if (running && !node.isEmpty()) {
                b.running = true;
                b.hosts.add(node);
                b.start(pod.path("status").path("startTime").asText(null));
            }
            pod.path("metadata").path("annotations").fields()
                .forEachRemaining(e -> b.metadata.putIfAbsent(e.getKey(), e.getValue().asText()));
        }
        final List<ScheduledJob> out = new ArrayList<>();
        jobs.values().forEach(b -> out.add(new ScheduledJob(b.id, b.id, b.running ? "RUNNING" : "PENDING",
            List.copyOf(b.hosts), b.startMs, null, b.metadata)));
        return out;
    }

    private static String jobName(final JsonNode labels) {
        for (final String label : JOB_LABELS) {
            if (labels.hasNonNull(label)) {
                return labels.get(label).asText();
            }
        }
        return null;
    }

    private static final class Builder {
        final String id;
        final Set<String> hosts = new LinkedHashSet<>();
        final Map<String, String> metadata = new LinkedHashMap<>();
        boolean running;
        Long startMs;

        Builder(final String id) {
            this.id = id;
        }

        void start(final String time) {
            if (time == null) {
                return;
            }
            try {
                final long ms = Instant.parse(time).toEpochMilli();
                startMs = startMs == null ? ms : Math.min(startMs, ms);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("pod startTime '" + time + "' is not an RFC 3339 time", e);
            }
        }
    }
}
