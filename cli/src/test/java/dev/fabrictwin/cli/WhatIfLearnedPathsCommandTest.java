package dev.fabrictwin.cli;

import static dev.fabrictwin.cli.FabricTwinCliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.fabrictwin.analyzer.checkpoint.LearnedState;
import dev.fabrictwin.analyzer.topology.LearnedPaths;
import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.testing.kafka.KafkaClusterExtension;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.routing.Router;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.sim.Twin;
import dev.fabrictwin.twin.workload.JobJson;
import dev.fabrictwin.twin.workload.PlacedJob;
import dev.fabrictwin.twin.workload.Transfer;

/** {@code whatif --bootstrap}: the paths the analyzer learned, read off its checkpoints, pin the job flows. */
class WhatIfLearnedPathsCommandTest {

    @RegisterExtension
    static final KafkaClusterExtension KAFKA = KafkaClusterExtension.singleBroker();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ANALYZER = "paths-analyzer";
    private static final Instant CHECKPOINT_AT = Instant.parse("2025-01-01T00:02:00Z");

    /** An all-to-all over two leaves whose uplinks (100G) are the bottleneck: where its flows hash decides its comm time. */
    private static final String A2A = """
        name: paths
        duration: 10s
        fabric: {kind: spine-leaf, spines: 2, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G, hostLinkSpeed: 400G}
        jobs:
          - {id: a2a, hosts: 4, pattern: all-to-all, bytesPerIteration: 8GB, iterationPeriod: 2s, commFraction: 0.3}
        """;

    @Test
    void shouldPinTheFlowsToThePathsTheAnalyzerLearnedInEverySeed() throws Exception {
        final Twin twin = Twin.healthy(ScenarioParser.parse(ScenarioParser.tree(A2A), Path.of(".")), ModelParams.defaults());
        final Topics topics = new Topics("paths.");
        publish(topics, twin);
        // the analyzer learned each leaf's cross-leaf flows spread evenly over its uplinks; two shards, two checkpoints
        final List<byte[]> pins = balancedPins(twin);
        checkpoints(pins.subList(0, pins.size() / 2), pins.subList(pins.size() / 2, pins.size()));

        final FabricTwinCliTest.Run hashed = run("whatif", "--bootstrap", KAFKA.bootstrapServers(), "--topic-prefix", "paths.",
            "--application-id", "no-such-analyzer", "--seeds", "4", "--json");
        final FabricTwinCliTest.Run pinned = run("whatif", "--bootstrap", KAFKA.bootstrapServers(), "--topic-prefix", "paths.",
            "--application-id", ANALYZER, "--seeds", "4", "--json");

        assertThat(hashed.exitCode()).as(hashed.err()).isZero();
        assertThat(pinned.exitCode()).as(pinned.err()).isZero();
        assertThat(hashed.errLines()).containsExactly("whatif: fabric paths and 1 running jobs from paths.fabric.jobs",
            "whatif: no learned paths (no analyzer checkpoint on no-such-analyzer-analysis-checkpoint-changelog): "
                + "ECMP hashes are the default seed's");
        assertThat(pinned.errLines()).containsExactly("whatif: fabric paths and 1 running jobs from paths.fabric.jobs",
            "whatif: " + (pins.size() - 1) + " learned paths from analyzer " + ANALYZER + " (2 checkpoints, the latest at "
                + CHECKPOINT_AT + "), 1 dropped (flow or first hop not in the fabric)");
        final JsonNode hashedRow = lastJson(hashed).get("rows").get(0);
        final JsonNode pinnedDoc = lastJson(pinned);
        final JsonNode pinnedRow = pinnedDoc.get("rows").get(0);
        assertThat(pinnedDoc.get("paths").get("source").asText()).isEqualTo("analyzer");
        assertThat(pinnedDoc.get("paths").get("learned").asInt()).isEqualTo(pins.size() - 1);
        assertThat(pinnedDoc.get("paths").get("dropped").asInt()).isEqualTo(1);
        assertThat(lastJson(hashed).get("paths").get("source").asText()).isEqualTo("hash");
        // spread evenly, every uplink carries two of the job's flows; every flow with a choice is pinned, so no seed
        // moves one: the same comm time in all four
        assertThat(pinnedRow.get("commTimeMs").asDouble()).isEqualTo(325.0);
        assertThat(pinnedRow.get("commP90Ms").asDouble()).isEqualTo(325.0);
        // hashed, flows collide on uplinks: the median over the seeds is far slower, and the worst seed puts all four of
        // a leaf's flows on one uplink (twice the pinned comm time)
        assertThat(hashedRow.get("commTimeMs").asDouble()).isEqualTo(568.7); // Harrell–Davis over the four seeds
        assertThat(hashedRow.get("commP90Ms").asDouble()).isEqualTo(647.6);
    }

    /** The documents, as an operator's publisher puts them on the topics. */
    private static void publish(final Topics topics, final Twin twin) throws Exception {
        final Properties client = new Properties();
        client.put("bootstrap.servers", KAFKA.bootstrapServers());
        TopicSetup.ensure(client, topics);
        try (KafkaProducer<String, byte[]> producer = producer()) {
            producer.send(new ProducerRecord<>(topics.topology().name(), twin.fabric().id(),
                JSON.writeValueAsBytes(FabricJson.toJson(twin.fabric(), JSON)))).get();
            for (final PlacedJob job : twin.jobs()) {
                producer.send(new ProducerRecord<>(topics.jobs().name(), job.id(),
                    JSON.writeValueAsBytes(JobJson.toJson(job, JSON)))).get();
            }
        }
    }

    /**
     * The pins, as the analyzer's codec names them (source NIC, destination NIC, the source switch's port of the first
     * hop): each leaf's flows with a choice of uplink, dealt out over them in turn; and one to a host the fabric lacks.
     */
    private static List<byte[]> balancedPins(final Twin twin) {
        final Fabric fabric = twin.fabric();
        final Map<Integer, Integer> dealt = new HashMap<>();
        final List<byte[]> pins = new ArrayList<>();
        for (final Transfer t : twin.jobs().get(0).transfers()) {
            final Router.Choices c = twin.simulation().choices(t.source(), t.destination());
            if (c.firstHops().length > 1) {
                final int hop = c.firstHops()[dealt.merge(c.node(), 1, Integer::sum) % c.firstHops().length];
                pins.add(pin(t.source(), t.destination(), fabric.link(hop).portOf(c.node())));
            }
        }
        pins.add(pin(new PortRef("host-99", "eth0"), twin.jobs().get(0).transfers().get(0).destination(),
            new PortRef("leaf-1", "eth99")));
        return pins;
    }

    private static byte[] pin(final PortRef... ports) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            for (final PortRef p : ports) {
                out.writeUTF(p.device());
                out.writeUTF(p.port());
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return bytes.toByteArray();
    }

    /** One checkpoint store per shard on the analyzer's changelog, each with the learned section of its pins. */
    @SafeVarargs
    private static void checkpoints(final List<byte[]>... shards) throws Exception {
        final String topic = LearnedPaths.changelogTopic(ANALYZER);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", KAFKA.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, shards.length, (short) 1))).all().get();
        }
        try (KafkaProducer<String, byte[]> producer = producer()) {
            for (int shard = 0; shard < shards.length; shard++) {
                final ByteArrayOutputStream part = new ByteArrayOutputStream();
                try (DataOutputStream out = new DataOutputStream(part)) {
                    out.writeInt(shards[shard].size());
                    for (final byte[] pin : shards[shard]) {
                        out.write(pin);
                    }
                }
                final byte[] section = new LearnedState(0, Map.of("learned-paths", new LearnedState.Part(1,
                    part.toByteArray()))).toBytes();
                final long at = CHECKPOINT_AT.toEpochMilli() - shard * 1000L;
                producer.send(new ProducerRecord<>(topic, shard, at, "learned-chunk-0", section)).get();
                producer.send(new ProducerRecord<>(topic, shard, at, LearnedPaths.sectionKey(),
                    ByteBuffer.allocate(Integer.BYTES).putInt(1).array())).get();
            }
        }
    }

    private static KafkaProducer<String, byte[]> producer() {
        return new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", KAFKA.bootstrapServers()),
            new StringSerializer(), new ByteArraySerializer());
    }

    private static JsonNode lastJson(final FabricTwinCliTest.Run run) throws Exception {
        final String[] lines = run.out().split("\\R");
        return JSON.readTree(lines[lines.length - 1]);
    }
}
