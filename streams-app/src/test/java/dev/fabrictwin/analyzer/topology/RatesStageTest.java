package dev.fabrictwin.analyzer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.twin.telemetry.Sample;

class RatesStageTest {

    private static final Topics TOPICS = Topics.DEFAULT;
    private static final String INTERVALS = "test.intervals";
    /** Samples carry epoch milliseconds (not before 2000): the tests count their times from 2025-01-01. */
    private static final long EPOCH = 1_735_689_600_000L;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> samples;
    private TestOutputTopic<String, byte[]> intervals;
    private TestOutputTopic<String, byte[]> dead;
    private final List<String> rejected = new ArrayList<>();

    @BeforeEach
    void setUp() {
        final StreamsBuilder builder = new StreamsBuilder();
        // each interval on its own, as JSON: what the assertions read
        RatesStage.buildBatches(builder, TOPICS, 1_000, 1, 0)
            .flatMapValues(RatesStage.LaneBatch::intervals, Named.as("intervals-one-by-one")).mapValues(RatesStageTest::toJson)
            .to(INTERVALS, Produced.with(Serdes.String(), Serdes.ByteArray()));
        final Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "rates-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
        DeadLetterHandlers.configure(props, TOPICS.deadLetter().name(), new AnalyzerListener() {
            @Override
            public void rejected(final RejectReason reason) {
                rejected.add(reason.code());
            }
        });
        driver = new TopologyTestDriver(builder.build(props), props);
        samples = driver.createInputTopic(TOPICS.samples().name(), new StringSerializer(), new ByteArraySerializer());
        intervals = driver.createOutputTopic(INTERVALS, new StringDeserializer(), new ByteArrayDeserializer());
        dead = driver.createOutputTopic(TOPICS.deadLetter().name(), new StringDeserializer(), new ByteArrayDeserializer());
    }

    @AfterEach
    void tearDown() {
        driver.close();
    }

    private void send(final long ts, final String port, final long txBytes) {
        final Sample s = new Sample(EPOCH + ts, "leaf-1", port, "t", Map.of("tx_bytes", txBytes), Map.of("speed_bps", 400e9));
        samples.pipeInput("leaf-1", SampleJson.writeBytes(s), EPOCH + ts);
    }

    @Test
    void shouldEmitOneIntervalPerPortPerSampleAfterTheFirst() {
        send(1_000, "eth0", 100);
        send(1_010, "eth1", 7);
        send(2_000, "eth0", 1_100);
        send(2_030, "eth1", 57);
        send(1_500, "eth0", 600); // late: ignored
        send(3_000, "eth0", 2_100);

        final List<JsonNode> out = intervals.readValuesToList().stream().map(RatesStageTest::json).toList();
        assertThat(out).hasSize(3);
        assertThat(out.get(0).get("port").asText()).isEqualTo("eth0");
        assertThat(out.get(0).get("increases").get("tx_bytes").asLong()).isEqualTo(1_000);
        assertThat(out.get(1).get("increases").get("tx_bytes").asLong()).isEqualTo(50);
        assertThat(out.get(2).get("t0").asLong()).isEqualTo(EPOCH + 2_000);
        assertThat(out.get(2).get("increases").get("tx_bytes").asLong()).isEqualTo(1_000);
        assertThat(dead.isEmpty()).isTrue();
    }

    @Test
    void shouldSendABadRecordToTheDeadLetterWithItsReasonAndKeepGoing() {
        send(1_000, "eth0", 100);
        samples.pipeInput("leaf-1", "{\"ts\":1,\"device\":\"leaf-1\"}".getBytes(StandardCharsets.UTF_8), 1_500L);
        send(2_000, "eth0", 200);

        final TestRecord<String, byte[]> letter = dead.readRecord();
        assertThat(new String(letter.value(), StandardCharsets.UTF_8)).isEqualTo("{\"ts\":1,\"device\":\"leaf-1\"}");
        assertThat(header(letter, "error")).isEqualTo("missing-port: missing \"port\"");
        assertThat(header(letter, "source")).isEqualTo("streams-app:samples-source");
        assertThat(header(letter, "offset")).startsWith("telemetry.samples-0@");
        assertThat(intervals.readValuesToList()).hasSize(1);
        assertThat(rejected).containsExactly("missing-port");
    }

    @Test
    void shouldDeadLetterAnythingButOneCanonicalSamplePerRecord() {
        final byte[] batch = ("[" + new String(SampleJson.writeBytes(new Sample(1_000, "leaf-1", "eth0", "t",
            Map.of("tx_bytes", 1L), Map.of())), StandardCharsets.UTF_8) + "]").getBytes(StandardCharsets.UTF_8);
        samples.pipeInput("leaf-1", batch, 1_000L);
        samples.pipeInput("leaf-1", new byte[0], 1_000L);
        samples.pipeInput("leaf-1", (byte[]) null, 1_000L);

        assertThat(dead.readRecordsToList()).extracting(r -> header(r, "error")).containsExactly(
            "malformed: a JSON array: telemetry.samples carries one canonical sample object per record",
            "malformed: empty record: telemetry.samples carries one canonical sample per record",
            "malformed: empty record: telemetry.samples carries one canonical sample per record");
        assertThat(rejected).containsExactly("malformed", "malformed", "malformed");
        assertThat(intervals.isEmpty()).isTrue();
    }

    @Test
    void shouldChangelogEachPortsLastSampleInTheCompactForm() {
        send(1_000, "eth0", 100);

        final TestOutputTopic<String, byte[]> changelog = driver.createOutputTopic(
            "rates-test-" + RatesStage.LAST_SAMPLE_STORE + "-changelog", new StringDeserializer(), new ByteArrayDeserializer());
        final TestRecord<String, byte[]> written = changelog.readRecord();
        final Sample sent = new Sample(EPOCH + 1_000, "leaf-1", "eth0", "t", Map.of("tx_bytes", 100L),
            Map.of("speed_bps", 400e9));
        assertThat(written.key()).isEqualTo("leaf-1/eth0");
        assertThat(written.value()[0]).as("version byte of the binary form with its batch number, not JSON")
            .isEqualTo((byte) 2);
        assertThat(LastSampleSerde.readHeld(written.value()).sample()).isEqualTo(sent);
        assertThat(written.value().length).isLessThan(SampleJson.writeBytes(sent).length);
    }

    @Test
    void shouldKeepEachPortsLastSampleInANamedStore() {
        send(1_000, "eth0", 100);

        assertThat(driver.<String, HeldSample>getKeyValueStore(RatesStage.LAST_SAMPLE_STORE).get("leaf-1/eth0"))
            .satisfies(last -> assertThat(last.sample().counters()).containsEntry("tx_bytes", 100L));
    }

    private static String header(final TestRecord<?, ?> r, final String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static byte[] toJson(final PortInterval interval) {
        try {
            return JSON.writeValueAsBytes(interval);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static JsonNode json(final byte[] bytes) {
        try {
            return JSON.readTree(bytes);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
