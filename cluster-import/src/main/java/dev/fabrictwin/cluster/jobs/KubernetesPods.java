package dev.fabrictwin.cluster.jobs;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.fabrictwin.cluster.FoundKeys;

/**
 * Training jobs from {@code kubectl get pods -o json}: the pods of one job share a label — Kubeflow's
 * {@code training.kubeflow.org/job-name} (PyTorchJob, MPIJob), JobSet's {@code jobset.sigs.k8s.io/jobset-name}, the
 * MPI operator's {@code mpi-job-name}, Volcano's {@code volcano.sh/job-name}, LeaderWorkerSet's
 * {@code leaderworkerset.sigs.k8s.io/name} (one job per group: {@code <name>-<group-index>}, the leader pod's name),
 * KubeRay's {@code ray.io/cluster} (head and workers of one RayCluster) — and the job runs on their nodes ({@code spec.nodeName}). A job runs while any
 * of its pods runs; it started when its first pod did. Annotations of its pods are its metadata. Input is a list
 * ({@code kubectl get pods -o json|yaml}: {@code items}) or one Pod ({@code kubectl get pod NAME -o json|yaml}); pods of
 * no training job are ignored and named, so the report can count them.
 */
public final class KubernetesPods {

    /** LeaderWorkerSet: its name; each of its groups ({@value #LWS_GROUP}) is one job, as its pods talk only within it. */
    static final String LWS_NAME = "leaderworkerset.sigs.k8s.io/name";
    static final String LWS_GROUP = "leaderworkerset.sigs.k8s.io/group-index";

    static final List<String> JOB_LABELS = List.of("training.kubeflow.org/job-name", "jobset.sigs.k8s.io/jobset-name",
        "mpi-job-name", "volcano.sh/job-name", LWS_NAME, "ray.io/cluster");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private KubernetesPods() {
    }

    /** The training jobs, and the pods ({@code namespace/name}) that belong to none. */
    public record Pods(List<ScheduledJob> jobs, List<String> ignored) {

        public Pods {
            jobs = List.copyOf(jobs);
            ignored = List.copyOf(ignored);
        }
    }

    public static List<ScheduledJob> fromJson(final JsonNode root) {
        return read(root).jobs();
    }

    /** kubectl's text, {@code -o json} (starts with a brace or a bracket) or {@code -o yaml}. */
    public static Pods read(final String text) {
        final String t = text.stripLeading();
        final boolean json = t.startsWith("{") || t.startsWith("[");
        final JsonNode root;
        try {
            root = (json ? JSON : YAML).readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not kubectl get pods -o " + (json ? "json" : "yaml") + " output"
                + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")") + ": "
                + e.getOriginalMessage().lines().findFirst().orElse(""), e);
        }
        return read(root);
    }

    public static Pods read(final JsonNode root) {
        final List<JsonNode> items = new ArrayList<>();
        if (root != null && root.path("items").isArray()) {
            root.get("items").forEach(items::add);
        } else if (root != null && root.path("kind").asText("").equals("Pod")) {
            items.add(root);
        } else {
            throw new IllegalArgumentException("not kubectl get pods output: expected a list with 'items' or one object of "
                + "kind Pod, found " + (root == null || !root.isObject() ? "no object" : "keys " + FoundKeys.of(root, 8)
                + (root.has("kind") ? " (kind " + FoundKeys.printable(root.get("kind").asText()) + ")" : "")));
        }
        final Map<String, Builder> jobs = new LinkedHashMap<>();
        final List<String> ignored = new ArrayList<>();
        for (final JsonNode pod : items) {
            final String namespace = pod.path("metadata").path("namespace").asText("default");
            final String job = jobName(pod.path("metadata").path("labels"));
            if (job == null) {
                ignored.add(namespace + "/" + pod.path("metadata").path("name").asText("?"));
                continue;
            }
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
        return new Pods(out, ignored);
    }

    private static String jobName(final JsonNode labels) {
        for (final String label : JOB_LABELS) {
            if (labels.hasNonNull(label)) {
                final String name = labels.get(label).asText();
                return label.equals(LWS_NAME) && labels.hasNonNull(LWS_GROUP) ? name + "-" + labels.get(LWS_GROUP).asText() : name;
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
