package dev.fabrictwin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.testing.kafka.KafkaClusterExtension;

/**
 * Every send a command makes is checked: a record the broker refuses fails the command with one line
 * naming the topic and the broker's reason, exit 1. The refusal here is a record over its topic's max.message.bytes;
 * a missing ACL reaches the same check (SecuredKafkaTest has the ACLs).
 */
class RefusedRecordTest {

    @RegisterExtension
    static final KafkaClusterExtension KAFKA = KafkaClusterExtension.singleBroker();

    @TempDir
    Path dir;

    /** Jobs import sent without looking: exit 0 and no job on fabric.jobs. */
    @Test
    void shouldFailJobsImportWhenItsJobIsRefused() throws Exception {
        final String prefix = tinyTopic("jobs", "fabric.jobs");

        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("jobs", "import", "--slurm-json",
            Path.of("src", "test", "resources", "handmade", "small-fabric", "squeue.json").toString(),
            "--bootstrap", KAFKA.bootstrapServers(), "--topic-prefix", prefix);

        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        assertThat(run.errLines()).filteredOn(l -> l.startsWith("fabric-twin")).singleElement().asString()
            .startsWith("fabric-twin jobs import: Kafka refused a record on " + prefix + "fabric.jobs (key ")
            .contains("RecordTooLargeException");
        assertThat(run.errLines()[run.errLines().length - 1]).startsWith("fabric-twin jobs import: Kafka refused");
    }

    /** Topology import waited on its send, but said so in two lines with a wrapped ExecutionException. */
    @Test
    void shouldFailTopologyImportWithOneLineNamingTheTopic() throws Exception {
        final String prefix = tinyTopic("topology", "fabric.topology");
        final List<String> args = new ArrayList<>(List.of("topology", "import"));
        args.addAll(TopologyImportCommandTest.lldpctlArgs());
        args.addAll(List.of("--bootstrap", KAFKA.bootstrapServers(), "--topic-prefix", prefix));

        final FabricTwinCliTest.Run run = FabricTwinCliTest.run(args.toArray(String[]::new));

        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        assertThat(run.errLines()).filteredOn(l -> l.startsWith("fabric-twin")).singleElement().asString()
            .startsWith("fabric-twin topology import: Kafka refused a record on " + prefix + "fabric.topology (key ")
            .contains("RecordTooLargeException");
    }

    /** Ingest noticed, in two lines that named no topic ("failed: IllegalStateException: producing to Kafka failed"). */
    @Test
    void shouldFailIngestWithOneLineNamingTheTopic() throws Exception {
        final String prefix = tinyTopic("ingest", "telemetry.samples");
        final Path in = dir.resolve("in.jsonl");
        Files.writeString(in, "{\"ts\":1735689601000,\"device\":\"leaf-1\",\"port\":\"eth0\",\"counters\":{\"tx_bytes\":10}}\n",
            StandardCharsets.UTF_8);

        final FabricTwinCliTest.Run run = FabricTwinCliTest.run("ingest", "--format", "canonical", "--file", in.toString(),
            "--bootstrap", KAFKA.bootstrapServers(), "--topic-prefix", prefix);

        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString()
            .startsWith("fabric-twin ingest: Kafka refused a record on " + prefix + "telemetry.samples (key leaf-1): ")
            .contains("RecordTooLargeException");
    }

    /** A topic prefix whose {@code topic} accepts no record of a few hundred bytes; the command creates the rest. */
    private static String tinyTopic(final String name, final String topic) throws Exception {
        final String prefix = KAFKA.uniqueTopic(name) + ".";
        final Properties admin = new Properties();
        admin.put("bootstrap.servers", KAFKA.bootstrapServers());
        try (Admin a = Admin.create(admin)) {
            a.createTopics(List.of(new NewTopic(prefix + topic, 1, (short) 1)
                .configs(Map.of("max.message.bytes", "64",
                    "cleanup.policy", topic.startsWith("fabric.") ? "compact" : "delete")))).all().get();
        }
        return prefix;
    }
}
