package dev.fabrictwin.cli;

import static dev.fabrictwin.cli.FabricTwinCliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.testing.kafka.KafkaClusterExtension;

/** {@code whatif --bootstrap}: the fabric as it runs, from the documents on its topics, and a maintenance window's order. */
class WhatIfLiveCommandTest {

    @RegisterExtension
    static final KafkaClusterExtension KAFKA = KafkaClusterExtension.singleBroker();

    private static final ObjectMapper JSON = new ObjectMapper();

    /** WhatIfFaultCommandTest's three jobs on five leaves (two cross the spines, the ring stays in leaf-4), unseeded. */
    private static final String THREE_JOBS = WhatIfFaultCommandTest.THREE_JOBS.replace("seed: 3\n", "");

    @Test
    void shouldPredictFromThePublishedDocumentsWhatTheSameDocumentsInFilesPredict(@TempDir final Path dir) throws Exception {
        final Path out = dir.resolve("sim");
        assertThat(run("simulate", "--scenario", Files.writeString(dir.resolve("three-jobs.yaml"), THREE_JOBS).toString(),
            "--out", out.toString()).exitCode()).isZero();
        final Topics topics = new Topics("live.");
        publish(topics, out);

        final String[] faults = {"--fault", "drain:spine-1", "--fault", "drain:leaf-4", "--fault", "drain:spine-2"};
        final FabricTwinCliTest.Run live = run(concat(new String[] {"whatif", "--bootstrap", KAFKA.bootstrapServers(),
            "--topic-prefix", "live.", "--json"}, faults));
        // the live mode takes the running jobs in the order of their ids, whatever order they were published in
        final List<JsonNode> byId = new ArrayList<>();
        JSON.readTree(out.resolve("jobs.json").toFile()).forEach(byId::add);
        byId.sort(Comparator.comparing(j -> j.get("id").asText()));
        final Path jobsById = Files.write(dir.resolve("jobs-by-id.json"), JSON.writeValueAsBytes(byId));
        final FabricTwinCliTest.Run files = run(concat(new String[] {"whatif", "--topology",
            out.resolve("topology.json").toString(), "--jobs", jobsById.toString(), "--json"}, faults));

        assertThat(live.exitCode()).as(live.err()).isZero();
        assertThat(files.exitCode()).as(files.err()).isZero();
        // the job ended by a tombstone is not running; the one published twice counts once, as last published
        assertThat(live.err()).contains("whatif: fabric three-jobs and 3 running jobs from live.fabric.jobs");
        assertThat(live.err()).contains("whatif: no learned paths (no analyzer checkpoint on "
            + "fabric-twin-analyzer-analysis-checkpoint-changelog): ECMP hashes are the default seed's");
        // the same prediction; the live mode's JSON also says where the paths came from
        assertThat(live.out().replace(",\"paths\":{\"source\":\"hash\",\"topic\":"
            + "\"fabric-twin-analyzer-analysis-checkpoint-changelog\",\"checkpoints\":0,\"learned\":0,\"dropped\":0}", ""))
            .isEqualTo(files.out());
        final String[] lines = live.out().split("\\R");
        final JsonNode doc = JSON.readTree(lines[lines.length - 1]);
        final List<String> order = new ArrayList<>();
        doc.get("drainOrder").forEach(s -> order.add(s.get("device").asText()));
        // a spine less slows the jobs that cross the spines; leaf-4 holds the ring's hosts: draining it stalls the ring
        assertThat(order).hasSize(3).endsWith("leaf-4");
        assertThat(doc.get("drainOrder").get(2).get("stalled").asBoolean()).isTrue();
        assertThat(doc.get("drainOrder").get(2).get("hurt")).extracting(JsonNode::asText).containsExactly("ring-c");
        assertThat(live.out()).contains("drain order, one at a time (each back in service before the next), least hurt first:",
            "3. leaf-4           hurts ring-c stalled");
    }

    @Test
    void shouldSayInOneLineWhatTheBrokerDoesNotHold() {
        final FabricTwinCliTest.Run none = run("whatif", "--bootstrap", KAFKA.bootstrapServers(), "--topic-prefix",
            "nothing-here.", "--fault", "drain:spine-1");

        assertThat(none.exitCode()).isEqualTo(1);
        assertThat(none.errLines()).singleElement().asString().contains("no topic nothing-here.fabric.topology on the brokers");

        final FabricTwinCliTest.Run both = run("whatif", "--bootstrap", KAFKA.bootstrapServers(), "--scenario", "x.yaml");
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.errLines()).singleElement().asString().contains("give one of --scenario FILE, --topology FILE");
    }

    /** What an operator's publisher does: the topology under its id, each job under its id; one job ended. */
    private static void publish(final Topics topics, final Path sim) throws Exception {
        final Properties client = new Properties();
        client.put("bootstrap.servers", KAFKA.bootstrapServers());
        TopicSetup.ensure(client, topics);
        final JsonNode topology = JSON.readTree(sim.resolve("topology.json").toFile());
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
            KAFKA.bootstrapServers()), new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topics.topology().name(), topology.get("id").asText(),
                JSON.writeValueAsBytes(topology))).get();
            final JsonNode jobs = JSON.readTree(sim.resolve("jobs.json").toFile());
            producer.send(new ProducerRecord<>(topics.jobs().name(), "ended-job", JSON.writeValueAsBytes(jobs.get(0)))).get();
            producer.send(new ProducerRecord<>(topics.jobs().name(), "ended-job", null)).get();
            producer.send(new ProducerRecord<>(topics.jobs().name(), jobs.get(1).get("id").asText(), "{}".getBytes(StandardCharsets.UTF_8))).get();
            for (final JsonNode job : jobs) {
                producer.send(new ProducerRecord<>(topics.jobs().name(), job.get("id").asText(), JSON.writeValueAsBytes(job)))
                    .get();
            }
        }
    }

    private static String[] concat(final String[] a, final String[] b) {
        final String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
