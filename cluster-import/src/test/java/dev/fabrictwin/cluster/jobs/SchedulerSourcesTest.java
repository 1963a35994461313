package dev.fabrictwin.cluster.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.twin.workload.JobJson;
import dev.fabrictwin.twin.workload.JobSpec;
import dev.fabrictwin.twin.workload.Pattern;

/** The three scheduler readers on hand-written outputs (see src/test/resources/handmade/README.md). */
class SchedulerSourcesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static String resource(final String name) throws IOException {
        try (InputStream in = SchedulerSourcesTest.class.getResourceAsStream("/handmade/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void scontrolTextGivesRunningJobsWithHostsTimesAndTheirComment() throws IOException {
        final List<ScheduledJob> jobs = SlurmJobs.fromScontrol(resource("scontrol-show-job.txt"), ZoneId.of("UTC"));

        assertThat(jobs).hasSize(2);
        final ScheduledJob a = jobs.get(0);
        assertThat(a.id()).isEqualTo("4211");
        assertThat(a.name()).isEqualTo("llm-a");
        assertThat(a.running()).isTrue();
        assertThat(a.hosts()).containsExactly("gpu01", "gpu02", "gpu04");
        assertThat(a.startMs()).isEqualTo(1_735_693_200_000L);
        assertThat(a.endMs()).isEqualTo(1_735_779_600_000L);
        assertThat(a.metadata()).containsEntry("comment",
            "fabric-twin: pattern=hierarchical-allreduce bytes=8GB period=2s comm=0.35");
        assertThat(jobs.get(1).running()).isFalse();
        assertThat(jobs.get(1).hosts()).isEmpty();
        assertThat(jobs.get(1).startMs()).isNull();
    }

    @Test
    void squeueJsonReadsStatesAsFlagsAndNumbersAsSetObjectsOrPlain() throws Exception {
        final List<ScheduledJob> jobs = SlurmJobs.fromJson(JSON.readTree("""
            {"jobs": [
              {"job_id": 7, "name": "old-schema", "job_state": "RUNNING", "nodes": "n[1-2]",
               "start_time": 1735689600, "end_time": 0},
              {"job_id": {"set": true, "number": 8}, "name": "new-schema", "job_state": ["RUNNING", "COMPLETING"],
               "nodes": "m1", "start_time": {"set": true, "infinite": false, "number": 1735689601},
               "end_time": {"set": false, "infinite": true, "number": 0}}]}
            """));

        assertThat(jobs).extracting(ScheduledJob::id).containsExactly("7", "8");
        assertThat(jobs.get(0).hosts()).containsExactly("n1", "n2");
        assertThat(jobs.get(0).startMs()).isEqualTo(1_735_689_600_000L);
        assertThat(jobs.get(0).endMs()).isNull();
        assertThat(jobs.get(1).state()).isEqualTo("RUNNING");
        assertThat(jobs.get(1).startMs()).isEqualTo(1_735_689_601_000L);
        assertThat(jobs.get(1).endMs()).isNull();
        assertThatThrownBy(() -> SlurmJobs.fromJson(JSON.readTree("{\"jobs\": [{\"name\": \"x\"}]}")))
            .hasMessage("jobs[0] has no job_id");
        assertThatThrownBy(() -> SlurmJobs.fromJson(JSON.readTree("[]"))).hasMessage("not squeue/scontrol/sacct --json output: "
            + "expected an object with a 'jobs' array, found a JSON array");
    }

    @Test
    void podsOfATrainingJobBecomeOneJobOnTheirNodes() throws IOException {
        final List<ScheduledJob> jobs = KubernetesPods.fromJson(JSON.readTree(resource("kubectl-get-pods.json")));

        assertThat(jobs).extracting(ScheduledJob::id).containsExactly("bert", "research.moe");
        final ScheduledJob bert = jobs.get(0);
        assertThat(bert.running()).isTrue();
        assertThat(bert.hosts()).containsExactly("gpu07", "gpu08");
        assertThat(bert.startMs()).isEqualTo(Instant.parse("2025-01-01T02:00:01Z").toEpochMilli());
        assertThat(bert.metadata()).containsEntry("fabric-twin.dev/iteration-period", "1500ms");
        assertThat(jobs.get(1).running()).isFalse();
    }

    /**
     * Volcano, LeaderWorkerSet and KubeRay pods (hand-written in the labels their projects document: no valid public
     * pod output of these was found, see handmade/README.md): a Volcano Job is one job, each LeaderWorkerSet group one
     * (named as its leader pod), a RayCluster's head and workers one; a pending Ray worker adds no host.
     */
    @Test
    void volcanoLeaderWorkerSetAndRayPodsAreReadAsJobs() throws Exception {
        final KubernetesPods.Pods pods = KubernetesPods.read(resource("kubectl-get-pods-volcano-lws-ray.yaml"));

        assertThat(pods.ignored()).isEmpty();
        assertThat(pods.jobs()).extracting(ScheduledJob::id)
            .containsExactly("llm-pretrain", "serving.vllm-0", "serving.vllm-1", "raycluster-kuberay");
        assertThat(pods.jobs()).extracting(ScheduledJob::hosts).containsExactly(List.of("gpu01", "gpu02"),
            List.of("gpu03", "gpu04"), List.of("gpu05"), List.of("gpu06", "gpu07"));
        assertThat(pods.jobs().get(0).startMs()).isEqualTo(Instant.parse("2025-03-01T08:00:01Z").toEpochMilli());
        assertThat(pods.jobs().get(0).metadata()).containsEntry("volcano.sh/queue-name", "default");
    }

    @Test
    void aJobsShapeComesFromItsMetadataThenTheMappingThenTheDefault() throws Exception {
        final List<JobShape.Rule> rules = JobShape.rules(JSON.readTree("""
            {"rules": [{"match": "^llm-", "pattern": "all-to-all", "bytesPerIteration": "16GB", "iterationPeriod": "4s"}]}
            """));
        final ScheduledJob described = new ScheduledJob("1", "llm-x", "RUNNING", List.of("h1", "h2"), null, null,
            Map.of("comment", "fabric-twin: pattern=tree-allreduce bytes=500MB period=250ms comm=0.5"));
        final ScheduledJob mapped = new ScheduledJob("2", "llm-y", "RUNNING", List.of("h1"), null, null, Map.of());
        final ScheduledJob unknown = new ScheduledJob("3", "etl", "RUNNING", List.of("h1"), null, null, Map.of());

        assertThat(JobShape.of(described, rules)).isEqualTo(Map.entry(new JobShape("tree-allreduce", 500_000_000L,
            Duration.ofMillis(250), 0.5), JobShape.Source.METADATA));
        assertThat(JobShape.of(mapped, rules)).isEqualTo(Map.entry(new JobShape("all-to-all", 16_000_000_000L,
            Duration.ofSeconds(4), 0.3), JobShape.Source.MAPPING));
        assertThat(JobShape.of(unknown, rules)).isEqualTo(Map.entry(JobShape.DEFAULT, JobShape.Source.DEFAULT));
        assertThatThrownBy(() -> JobShape.rules(JSON.readTree("{\"rules\": [{\"match\": \"x\", \"pattern\": \"ring\"}]}")))
            .hasMessageStartingWith("rules[0]: ");
        assertThatThrownBy(() -> JobShape.of(new ScheduledJob("4", "j", "RUNNING", List.of("h"), null, null,
            Map.of("comment", "fabric-twin: bytes=lots")), List.of())).hasMessageStartingWith("job 4: ");
    }

    @Test
    void documentsAreWhatTheTwinReadsPlusStartAndEnd() throws Exception {
        final JobImport imported = JobImport.of(SlurmJobs.fromScontrol(resource("scontrol-show-job.txt"), ZoneId.of("UTC")),
            List.of(), JSON);

        assertThat(imported.skipped()).isEqualTo(1);
        assertThat(imported.defaulted()).isEmpty();
        assertThat(imported.report()).isEqualTo("jobs import: 1 running, 1 skipped (not running or no hosts)");
        final var doc = imported.documents().get("4211");
        assertThat(doc.get("startMs").asLong()).isEqualTo(1_735_693_200_000L);
        assertThat(doc.get("endMs").asLong()).isEqualTo(1_735_779_600_000L);
        final JobSpec spec = JobJson.fromJson(doc);
        assertThat(spec.hostList()).containsExactly("gpu01", "gpu02", "gpu04");
        assertThat(spec.pattern()).isEqualTo(Pattern.HIERARCHICAL_ALLREDUCE);
        assertThat(spec.bytesPerIteration()).isEqualTo(8_000_000_000L);
        assertThat(spec.iterationPeriod()).hasSeconds(2);
        assertThat(spec.commFraction()).isEqualTo(0.35);
    }

    @Test
    void changesAreNewOrChangedDocumentsAndTombstonesForJobsGone() throws Exception {
        final var a = JSON.readTree("{\"id\":\"a\",\"hosts\":2}");
        final var b = JSON.readTree("{\"id\":\"b\",\"hosts\":2}");
        final var b2 = JSON.readTree("{\"id\":\"b\",\"hosts\":4}");
        final var c = JSON.readTree("{\"id\":\"c\",\"hosts\":1}");

        final JobChanges changes = JobChanges.diff(Map.of("a", a, "b", b), Map.of("b", b2, "c", c));

        assertThat(changes.put()).containsOnlyKeys("b", "c");
        assertThat(changes.ended()).containsExactly("a");
        assertThat(JobChanges.diff(Map.of("a", a), Map.of("a", JSON.readTree("{\"id\":\"a\",\"hosts\":2}"))).isEmpty())
            .isTrue();
    }
}
