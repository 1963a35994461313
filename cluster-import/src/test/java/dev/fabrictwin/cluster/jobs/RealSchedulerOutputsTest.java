package dev.fabrictwin.cluster.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The scheduler readers on outputs other projects captured from real clusters (src/test/resources/refdata). */
class RealSchedulerOutputsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static String refdata(final String path) throws IOException {
        try (InputStream in = RealSchedulerOutputsTest.class.getResourceAsStream("/refdata/" + path)) {
            if (in == null) {
                throw new IOException("no fixture /refdata/" + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void squeueJsonOfSlurm21AndOfTheSetNumberSchemaInOneFile() throws Exception {
        final List<ScheduledJob> jobs = SlurmJobs.fromJson(JSON.readTree(refdata("rivos-slurm-exporter/squeue_out.json")));

        assertThat(jobs).extracting(ScheduledJob::id).containsExactly("26515966", "58948420");
        final ScheduledJob running = jobs.get(0);
        assertThat(running.name()).isEqualTo("job_name");
        assertThat(running.running()).isTrue();
        assertThat(running.hosts()).containsExactly("cs75");
        assertThat(running.startMs()).isEqualTo(1_684_114_921_000L);
        assertThat(running.endMs()).isEqualTo(1_686_633_833_000L);
        assertThat(running.metadata()).isEmpty(); // an empty comment is no metadata

        final ScheduledJob pending = jobs.get(1);
        assertThat(pending.state()).isEqualTo("PENDING");
        assertThat(pending.hosts()).isEmpty();
        assertThat(pending.startMs()).isNull();
        assertThat(pending.endMs()).isNull();

        final JobImport imported = JobImport.of(jobs, List.of(), JSON);
        assertThat(imported.report()).startsWith("jobs import: 1 running, 1 skipped");
        assertThat(imported.documents()).containsOnlyKeys("26515966");
        assertThat(imported.defaulted()).containsExactly("26515966");
    }

    /**
     * Slurm-web's captures of slurmrestd's slurmdb job records, the shape {@code sacct --json} prints ({@code
     * state.current} a list, {@code time.start}, {@code nodes} "None assigned" while pending, {@code comment} an
     * object): the running job of Slurm 25.11 becomes a document on its three hosts; the pending and the completed job
     * (Slurm 24.05) are skipped and counted.
     */
    @Test
    void sacctJsonJobRecordsOfSlurm24And25() throws Exception {
        final List<ScheduledJob> jobs = new ArrayList<>();
        for (final String file : List.of("slurmdb-25.11-0.0.42-job-running.json", "slurmdb-25.11-0.0.42-job-pending.json",
            "slurmdb-24.05-0.0.41-job-completed.json")) {
            jobs.addAll(SlurmJobs.fromJson(JSON.readTree(refdata("slurm-web/" + file))));
        }

        assertThat(jobs).extracting(ScheduledJob::id).containsExactly("5658", "5667", "649718");
        final ScheduledJob running = jobs.get(0);
        assertThat(running.running()).isTrue();
        assertThat(running.name()).isEqualTo("wrap");
        assertThat(running.hosts()).containsExactly("cn1", "cn3", "cn4");
        assertThat(running.startMs()).isEqualTo(1_762_786_381_000L);
        assertThat(running.endMs()).isNull(); // time.end 0: still running
        assertThat(running.metadata()).isEmpty(); // comment {"administrator": "", "job": "", "system": ""}
        assertThat(jobs.get(1).state()).isEqualTo("PENDING");
        assertThat(jobs.get(1).hosts()).isEmpty();
        assertThat(jobs.get(2).state()).isEqualTo("COMPLETED");

        final JobImport imported = JobImport.of(jobs, List.of(), JSON);
        assertThat(imported.documents()).containsOnlyKeys("5658");
        assertThat(imported.report()).startsWith("jobs import: 1 running, 2 skipped (not running or no hosts)");
    }

    @Test
    void aJobRecordWithNoStateIsRefusedNamingBothShapes() {
        Assertions.assertThatThrownBy(() -> SlurmJobs.fromJson(JSON.readTree("{\"jobs\": [{\"job_id\": 7, \"nodes\": \"a1\"}]}")))
            .hasMessage("jobs[0] (job 7): no state: expected job_state (squeue/scontrol --json) or state.current "
                + "(sacct --json), found keys [job_id, nodes]");
    }

    /**
     * {@code kubectl get pod NAME -o yaml} as the Kubernetes documentation prints it (one Pod, YAML, no {@code items}):
     * read, and its pod, which belongs to no training job (a Deployment's nginx), counted and named in the report.
     */
    @Test
    void onePodAsYamlIsReadAndAPodOfNoTrainingJobIsCountedInTheReport() throws Exception {
        final KubernetesPods.Pods pods = KubernetesPods.read(refdata("kubernetes-website/debug-running-pod.kubectl-get-pod-o-yaml.yaml"));

        assertThat(pods.jobs()).isEmpty();
        assertThat(pods.ignored()).containsExactly("default/nginx-deployment-67d4bdd6f5-w6kd7");
        assertThat(JobImport.of(pods.jobs(), pods.ignored(), List.of(), JSON).report()).isEqualTo("jobs import: 0 running, "
            + "0 skipped (not running or no hosts); 1 pods of no training job ignored (default/nginx-deployment-67d4bdd6f5-w6kd7)");
    }

    /**
     * One Pod as JSON ({@code kubectl get pod nginx -o json} of a minikube node, k9s's test data; no {@code items}): read,
     * its pod of no training job counted and named. The same pod with a Kubeflow job label is that job, on its node, from
     * its start time.
     */
    @Test
    void onePodAsJsonIsReadAsOnePodOfAList() throws Exception {
        final String pod = refdata("k9s/po.kubectl-get-pod-o-json.json");
        final KubernetesPods.Pods pods = KubernetesPods.read(pod);
        assertThat(pods.jobs()).isEmpty();
        assertThat(pods.ignored()).containsExactly("default/nginx");
        assertThat(JobImport.of(pods.jobs(), pods.ignored(), List.of(), JSON).report()).isEqualTo("jobs import: 0 running, "
            + "0 skipped (not running or no hosts); 1 pods of no training job ignored (default/nginx)");

        final String labelled = pod.replace("\"name\": \"nginx\",\n    \"namespace\"",
            "\"labels\": {\"training.kubeflow.org/job-name\": \"llm-pretrain\"},\n    \"name\": \"nginx\",\n    \"namespace\"");
        assertThat(labelled).isNotEqualTo(pod);
        final List<ScheduledJob> jobs = KubernetesPods.read(labelled).jobs();
        assertThat(jobs).hasSize(1);
        assertThat(jobs.get(0).id()).isEqualTo("llm-pretrain");
        assertThat(jobs.get(0).state()).isEqualTo("RUNNING");
        assertThat(jobs.get(0).hosts()).containsExactly("minikube");
        assertThat(jobs.get(0).startMs()).isEqualTo(Instant.parse("2019-08-09T05:12:19Z").toEpochMilli());
    }

    /** The Volcano documentation's Pod YAML was edited by hand into invalid YAML: refused in one line with where. */
    @Test
    void invalidPodYamlIsRefusedInOneLineNamingTheFormatAndTheLine() throws IOException {
        final String text = refdata("volcano-docs/how_to_use_svc_plugin.L104-223.yaml");
        Assertions.assertThatThrownBy(() -> KubernetesPods.read(text))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("not kubectl get pods -o yaml output (line ")
            .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        Assertions.assertThatThrownBy(() -> KubernetesPods.read("{\"kind\": \"Service\"}"))
            .hasMessage("not kubectl get pods output: expected a list with 'items' or one object of kind Pod, "
                + "found keys [kind] (kind Service)");
    }
}
