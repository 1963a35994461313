package dev.fabrictwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.testing.kafka.KafkaClusterExtension;
import dev.fabrictwin.testing.kafka.KafkaReads;
import dev.fabrictwin.twin.workload.JobJson;

/** {@code jobs import} from SLURM's output to fabric.jobs on the in-JVM broker: a document per running job, then a tombstone. */
class JobsImportCommandTest {

    @RegisterExtension
    static final KafkaClusterExtension KAFKA = KafkaClusterExtension.singleBroker();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SQUEUE = Path.of("src", "test", "resources", "handmade", "small-fabric", "squeue.json");

    @Test
    void writesTheRunningJobsDocumentsToAFileAndReportsWhatItSkipped(@TempDir final Path dir) throws Exception {
        final Path out = dir.resolve("jobs.json");
        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("jobs", "import", "--slurm-json", SQUEUE.toString(),
            "--out", out.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).contains("jobs import: 1 running, 1 skipped (not running or no hosts)");
        final var docs = JSON.readTree(out.toFile());
        assertThat(docs).hasSize(1);
        assertThat(JobJson.fromJson(docs.get(0)).hostList()).containsExactly("gpu01", "gpu02", "gpu03", "gpu04");
        assertThat(docs.get(0).get("startMs").asLong()).isEqualTo(1_735_689_600_000L);
        assertThat(docs.get(0).get("bytesPerIteration").asLong()).isEqualTo(2_000_000_000L);
    }

    @Test
    void aBadSourceIsOneLineAndExitTwo(@TempDir final Path dir) throws Exception {
        final Path bad = Files.writeString(dir.resolve("squeue.json"), "{\"jobs\": [{\"job_id\": 1, \"job_state\": \"RUNNING\", \"nodes\": \"gpu[1-\"}]}");
        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("jobs", "import", "--slurm-json", bad.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).containsExactly("fabric-twin jobs import: " + bad + ": host list 'gpu[1-': unbalanced brackets");
    }

    @Test
    void watchPublishesTheJobThenATombstoneWhenItEnds(@TempDir final Path dir) throws Exception {
        final String prefix = KAFKA.uniqueTopic("jobs") + ".";
        final Path source = Files.copy(SQUEUE, dir.resolve("squeue.json"));
        final CompletableFuture<FabricTwinCliTest.Run> watching = CompletableFuture.supplyAsync(() ->
            FabricTwinCliTest.run("jobs", "import", "--slurm-json", source.toString(), "--watch", "--every", "500ms",
                "--readings", "20", "--bootstrap", KAFKA.bootstrapServers(), "--topic-prefix", prefix));
        try (KafkaConsumer<String, String> reader = reader(prefix + "fabric.jobs")) {
            final List<String> seen = new ArrayList<>(seen(KafkaReads.readUntil(reader,
                read -> seen(read).contains("4211=doc"), Duration.ofSeconds(60))));
            // the job ends: the scheduler no longer lists it
            Files.writeString(source, "{\"jobs\": []}");
            seen.addAll(seen(KafkaReads.readUntil(reader, read -> seen(read).contains("4211=null"), Duration.ofSeconds(60))));
            assertThat(seen).containsExactly("4211=doc", "4211=null");
        }
        final FabricTwinCliTest.Run run = watching.get();
        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).contains("jobs import: running 4211 on 4 hosts", "jobs import: ended 4211 (tombstone)");
    }

    @Test
    void aRestartedWatchTombstonesTheJobsThatEndedWhileItWasDown(@TempDir final Path dir) throws Exception {
        final String prefix = KAFKA.uniqueTopic("jobs-restart") + ".";
        final FabricTwinCliTest.Run first = FabricTwinCliTest.run("jobs", "import", "--slurm-json", SQUEUE.toString(),
            "--bootstrap", KAFKA.bootstrapServers(), "--topic-prefix", prefix);
        assertThat(first.exitCode()).as(first.err()).isZero();

        // the watcher was down while llm-a ended: on its first reading it finds fabric.jobs still holding the job
        final Path none = Files.writeString(dir.resolve("squeue.json"), "{\"jobs\": []}");
        final FabricTwinCliTest.Run restarted = FabricTwinCliTest.run("jobs", "import", "--slurm-json", none.toString(),
            "--watch", "--readings", "1", "--bootstrap", KAFKA.bootstrapServers(), "--topic-prefix", prefix);

        assertThat(restarted.exitCode()).as(restarted.err()).isZero();
        assertThat(restarted.err()).contains("jobs import: ended 4211 (tombstone)");
        try (KafkaConsumer<String, String> reader = reader(prefix + "fabric.jobs")) {
            assertThat(seen(KafkaReads.readUntil(reader, read -> read.size() >= 2, Duration.ofSeconds(30))))
                .containsExactly("4211=doc", "4211=null");
        }
    }

    /** Each record as {@code key=doc}, or {@code key=null} for a tombstone. */
    private static List<String> seen(final List<ConsumerRecord<String, String>> records) {
        return records.stream().map(r -> r.key() + "=" + (r.value() == null ? "null" : "doc")).toList();
    }

    private static KafkaConsumer<String, String> reader(final String topic) {
        final Properties p = new Properties();
        p.put("bootstrap.servers", KAFKA.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "jobs-reader-" + topic);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        final KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
        c.subscribe(List.of(topic));
        return c;
    }
}
