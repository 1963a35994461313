package dev.fabrictwin.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.AlertJson;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.contract.truth.TruthRecord;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultTarget;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.telemetry.Sample;

/** The wire contract of docs/contracts.md: topic layout, record shapes on the wire, dead-letter headers, scoring rules. */
class WireContractTest {

    private static final Topics TOPICS = Topics.DEFAULT;

    @Test
    void shouldNameAndLayOutEveryTopicAsTheContractSays() {
        assertThat(TOPICS.all()).extracting(TopicSpec::name).containsExactly("fabric.topology", "fabric.jobs",
            "telemetry.samples", "telemetry.deadletter", "fabric.alerts", "fabric.job-health", "sim.truth");
        assertThat(TOPICS.all()).filteredOn(t -> t.cleanup() == TopicSpec.Cleanup.COMPACT).extracting(TopicSpec::name)
            .containsExactly("fabric.topology", "fabric.jobs");
        assertThat(TOPICS.samples().partitions()).isEqualTo(Topics.PARTITIONS);
        assertThat(new Topics("lab.").alerts().name()).isEqualTo("lab.fabric.alerts");
        assertThat(TOPICS.topology().newTopic((short) 1).configs()).containsEntry("cleanup.policy", "compact");
        assertThatThrownBy(() -> new Topics("bad prefix")).hasMessageContaining("topic prefix");
    }

    @Test
    void shouldWriteAnAlertWithTheContractsFieldsAndEnumNames() {
        final Alert alert = new Alert(Alert.id(FaultType.LINK_DEGRADED, Entity.link("spine-1", "leaf-2")),
            FaultType.LINK_DEGRADED, Alert.State.OPEN, Severity.CRITICAL, Entity.link("spine-1", "leaf-2"), true, null,
            1_000, 2_000, 50, 100, "tx_bytes/s", List.of("llm-a"), "link leaf-2—spine-1 is degraded");

        final String json = AlertJson.writeString(alert);

        assertThat(json).contains("\"id\":\"LINK_DEGRADED:link:leaf-2~spine-1\"", "\"type\":\"LINK_DEGRADED\"",
            "\"state\":\"OPEN\"", "\"severity\":\"CRITICAL\"", "\"entity\":{\"kind\":\"link\",\"device\":\"leaf-2\",\"peer\":\"spine-1\"}",
            "\"causedBy\":null", "\"affectedJobs\":[\"llm-a\"]");
        assertThat(TOPICS.alerts().valueSerde().deserializer().deserialize("t", json.getBytes(StandardCharsets.UTF_8)))
            .isEqualTo(alert);
        assertThat(Entity.ecmpGroup("leaf-0").key()).isEqualTo("ecmp-group:leaf-0");
        assertThatThrownBy(() -> Entity.Kind.of("switch")).hasMessageContaining("unknown entity kind 'switch'");
    }

    @Test
    void shouldRoundTripJobHealthAndTruthThroughTheirTopicsSerdes() {
        final JobHealth h = new JobHealth("llm-a", 5_000, 700, 910, 1.3, 1e9, 7.7e8, 0.95, "link:leaf-2~spine-1", "x");
        final var healthSerde = TOPICS.jobHealth().valueSerde();
        assertThat(healthSerde.deserializer().deserialize("t", healthSerde.serializer().serialize("t", h))).isEqualTo(h);
        final TruthRecord t = new TruthRecord("fault-0", FaultType.PFC_STORM, FaultTarget.port("host-5", "nic0"), 1, 2,
            Map.of("rate", 0.5));
        final var truthSerde = TOPICS.truth().valueSerde();
        assertThat(truthSerde.deserializer().deserialize("t", truthSerde.serializer().serialize("t", t))).isEqualTo(t);
        assertThat(healthSerde.serializer().serialize("t", null)).as("a tombstone stays one").isNull();
    }

    @Test
    void shouldCarryExactlyOneCanonicalSamplePerRecord() {
        final var samples = TOPICS.samples().valueSerde();
        final Sample s = new Sample(1_000, "leaf-2", "eth5", "test", Map.of("tx_bytes", 123L), Map.of("oper_up", 1.0));
        final byte[] wire = samples.serializer().serialize("t", s);

        assertThat(samples.deserializer().deserialize("t", wire)).isEqualTo(s);
        assertThatThrownBy(() -> samples.deserializer().deserialize("t", ("[" + new String(wire, StandardCharsets.UTF_8) + "]")
            .getBytes(StandardCharsets.UTF_8)))
            .isInstanceOf(SampleFormatException.class).hasMessageContaining("JSON array")
            .satisfies(e -> assertThat(((SampleFormatException) e).reason()).isEqualTo(RejectReason.MALFORMED));
        assertThatThrownBy(() -> samples.deserializer().deserialize("t", new byte[0]))
            .isInstanceOf(SampleFormatException.class).hasMessageContaining("empty record");
        assertThatThrownBy(() -> samples.deserializer().deserialize("t", "{\"ts\":1,\"device\":\"d\"}".getBytes(StandardCharsets.UTF_8)))
            .isInstanceOf(SampleFormatException.class)
            .satisfies(e -> assertThat(((SampleFormatException) e).describe()).startsWith("missing-port: "));
    }

    @Test
    void shouldCutAnOversizedRecordSoItsDeadLetterAlwaysFitsAndStillIdentifiesIt() throws Exception {
        final byte[] big = new byte[(1 << 20) - 100];   // just under the producer's 1 MiB request limit
        Arrays.fill(big, (byte) 'x');
        final RecordHeaders headers = new RecordHeaders();

        final byte[] carried = DeadLetter.fit(big, headers);

        assertThat(carried).hasSize(DeadLetter.MAX_PAYLOAD_BYTES);
        assertThat(new String(headers.lastHeader(DeadLetter.ORIGINAL_SIZE).value(), StandardCharsets.UTF_8))
            .isEqualTo(Integer.toString(big.length));
        assertThat(new String(headers.lastHeader(DeadLetter.ORIGINAL_SHA256).value(), StandardCharsets.UTF_8))
            .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(big)));
        final RecordHeaders small = new RecordHeaders();
        assertThat(DeadLetter.fit("{not json".getBytes(StandardCharsets.UTF_8), small)).asString().isEqualTo("{not json");
        assertThat(small.toArray()).isEmpty();
        assertThat(DeadLetter.fitKey(new byte[5_000])).hasSize(1024);
        new DeadLetter("x".repeat(10_000), "s", "o").addTo(small);
        assertThat(small.lastHeader(DeadLetter.ERROR).value().length).isLessThan(2_100);
    }

    @Test
    void shouldWriteAndReadTheDeadLetterHeaders() {
        final RecordHeaders headers = new RecordHeaders();
        headers.add("trace", new byte[] {1});
        new DeadLetter("malformed: x", "ingest:gnmic", DeadLetter.position("telemetry.samples", 3, 42)).addTo(headers);

        assertThat(DeadLetter.from(headers)).contains(new DeadLetter("malformed: x", "ingest:gnmic", "telemetry.samples-3@42"));
        assertThat(headers.lastHeader("trace")).as("the source record's own headers stay").isNotNull();
        assertThat(DeadLetter.from(new RecordHeaders())).isEmpty();
    }

    @Test
    void shouldScoreAnAlertAgainstAFaultByTypeWindowAndExactTarget() {
        final TruthRecord storm = new TruthRecord("f", FaultType.PFC_STORM, FaultTarget.port("host-5", "nic0"), 100_000,
            200_000, Map.of());
        final Entity target = Entity.port(new PortRef("host-5", "nic0"));

        assertThat(storm.localizedBy(alert(FaultType.PFC_STORM, target, 99_000), 1_000)).as("one interval early").isTrue();
        assertThat(storm.detectedBy(alert(FaultType.PFC_STORM, target, 98_999), 1_000)).isFalse();
        assertThat(storm.detectedBy(alert(FaultType.PFC_STORM, target, 203_000), 1_000)).as("three intervals late").isTrue();
        assertThat(storm.detectedBy(alert(FaultType.PFC_STORM, target, 203_001), 1_000)).isFalse();
        assertThat(storm.detectedBy(alert(FaultType.LINK_DOWN, target, 150_000), 1_000)).as("another type").isFalse();
        final Alert elsewhere = alert(FaultType.PFC_STORM, Entity.port(new PortRef("leaf-1", "eth0")), 150_000);
        assertThat(storm.detectedBy(elsewhere, 1_000)).isTrue();
        assertThat(storm.localizedBy(elsewhere, 1_000)).isFalse();
        assertThat(Entity.ecmpGroup("leaf-0").names(FaultTarget.device("leaf-0"))).isTrue();
    }

    private static Alert alert(final FaultType type, final Entity entity, final long firstSeen) {
        return new Alert(Alert.id(type, entity), type, Alert.State.OPEN, Severity.WARNING, entity, true, null, firstSeen,
            firstSeen, 1, 0, "m", List.of(), "s");
    }
}
