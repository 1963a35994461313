package dev.fabrictwin.analyzer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;

/**
 * What the analyzer does with each sample a producer writes to {@code telemetry.samples} that is not one of the
 * fabric's ports' telemetry, through the whole topology: names no topology port meets are
 * counted and cost no per-port state; a sample that is not telemetry is dead-lettered with ingest's reason and message.
 */
class SampleVerdictsTest {

    /** A minute ago: within the wall-clock gate. */
    private static final long NOW = System.currentTimeMillis() - 60_000;

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> samples;
    private TestOutputTopic<String, byte[]> dead;
    private Fabric fabric;
    private final List<String> unmatched = new ArrayList<>();
    private final List<String> rejected = new ArrayList<>();

    @BeforeEach
    void setUp() {
        final AnalyzerListener listener = new AnalyzerListener() {
            @Override
            public void unmatched(final String reason) {
                unmatched.add(reason);
            }

            @Override
            public void rejected(final RejectReason reason) {
                rejected.add(reason.code());
            }
        };
        final Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "sample-verdicts-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        DeadLetterHandlers.configure(props, Topics.DEFAULT.deadLetter().name(), listener);
        driver = new TopologyTestDriver(AnalyzerTopology.build(AnalyzerSettings.defaults(1_000), listener), props);
        fabric = TinyFabric.fabric();
        driver.createInputTopic(Topics.DEFAULT.topology().name(), new StringSerializer(), new ByteArraySerializer())
            .pipeInput("tiny", TinyFabric.document(fabric));
        samples = driver.createInputTopic(Topics.DEFAULT.samples().name(), new StringSerializer(), new ByteArraySerializer());
        dead = driver.createOutputTopic(Topics.DEFAULT.deadLetter().name(), new StringDeserializer(), new ByteArrayDeserializer());
    }

    @AfterEach
    void tearDown() {
        driver.close();
    }

    private void send(final String device, final String port, final long ts, final String values) {
        samples.pipeInput(device, ("{\"ts\":" + ts + ",\"device\":\"" + device + "\",\"port\":\"" + port
            + "\",\"source\":\"t\"" + values + "}").getBytes(StandardCharsets.UTF_8));
    }

    /** Every port of the fabric, one sampling round at {@code ts}. */
    private void round(final long ts) {
        for (final PortRef p : fabric.ports()) {
            send(p.device(), p.port(), ts, ",\"counters\":{\"tx_bytes\":" + ts / 1000 + "},\"gauges\":{\"oper_up\":1}");
        }
    }

    private List<String> deadLetterErrors() {
        return dead.readRecordsToList().stream()
            .map(r -> new String(r.headers().lastHeader("error").value(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void shouldCountUnknownDevicesAndKeepNoPerPortStateForThem() {
        final int strangers = 3_000;
        for (int round = 0; round < 3; round++) {
            round(NOW + round * 1_000L);
            for (int d = 0; d < strangers; d++) {
                send("stranger-" + d, "eth0", NOW + round * 1_000L, ",\"counters\":{\"tx_bytes\":" + round + "}");
            }
            send("leaf-0", "eth99", NOW + round * 1_000L, ",\"counters\":{\"tx_bytes\":" + round + "}");
        }

        final KeyValueStore<String, HeldSample> store = driver.getKeyValueStore(RatesStage.LAST_SAMPLE_STORE);
        final List<String> kept = new ArrayList<>();
        try (var it = store.all()) {
            it.forEachRemaining(kv -> kept.add(kv.key));
        }
        assertThat(kept).as("one entry per port of the fabric, none for a name it does not know")
            .hasSize(fabric.ports().size()).noneMatch(k -> k.startsWith("stranger-") || k.endsWith("/eth99"));
        assertThat(unmatched).filteredOn("unknown-device"::equals).hasSize(3 * strangers);
        assertThat(unmatched).filteredOn("unknown-port"::equals).hasSize(3);
        assertThat(deadLetterErrors()).isEmpty();
    }

    @Test
    void shouldKeepADeviceOnceTheTopologyDeclaresIt() {
        send("host-5", "nic0", NOW, ",\"counters\":{\"tx_bytes\":1}");
        driver.createInputTopic(Topics.DEFAULT.topology().name(), new StringSerializer(), new ByteArraySerializer())
            .pipeInput("tiny", TinyFabric.document(TinyFabric.fabric(3)));
        send("host-5", "nic0", NOW + 1_000, ",\"counters\":{\"tx_bytes\":2}");
        send("host-5", "nic0", NOW + KnownPorts.CHECK_EVERY_MS, ",\"counters\":{\"tx_bytes\":3}");

        assertThat(unmatched).as("until the rates stage looks at the topology again").containsExactly("unknown-device",
            "unknown-device");
        assertThat(driver.<String, HeldSample>getKeyValueStore(RatesStage.LAST_SAMPLE_STORE).get("host-5/nic0"))
            .satisfies(s -> assertThat(s.sample().counters()).containsEntry("tx_bytes", 3L));
    }

    @Test
    void shouldDeadLetterASampleWithNeitherCountersNorGaugesOnARealPortAsIngestDoes() {
        round(NOW);
        send("leaf-0", "eth0", NOW + 1_000, ",\"counters\":{},\"gauges\":{}");
        send("leaf-0", "eth1", NOW + 1_000, "");

        assertThat(deadLetterErrors()).containsExactly(
            "no-counters: sample for leaf-0/eth0 carries no counters or gauges",
            "no-counters: sample for leaf-0/eth1 carries no counters or gauges");
        assertThat(rejected).containsExactly("no-counters", "no-counters");
    }

    @Test
    void shouldDeadLetterASampleOfMoreValuesThanTheLanesCountAsIngestDoes() {
        round(NOW);
        final StringBuilder counters = new StringBuilder();
        for (int c = 0; c < 70_000; c++) { // more than a 16-bit count: the lane record would have been written wrong
            counters.append(c == 0 ? "" : ",").append("\"c").append(c).append("\":1");
        }
        send("leaf-0", "eth0", NOW + 1_000, ",\"counters\":{" + counters + "}");

        assertThat(deadLetterErrors()).containsExactly("oversized: sample for leaf-0/eth0 carries 70000 counters and 0 "
            + "gauges: more than the 16384 of each a sample may carry");
        assertThat(rejected).containsExactly("oversized");
    }

    @Test
    void shouldDeadLetterTimestampsThatAreNotEpochMillisAsIngestDoesWhateverTheDevice() {
        round(NOW);
        for (final long ts : new long[] {1, 1000}) {
            send("stranger-1", "eth0", ts, ",\"counters\":{\"rx_bytes\":1}");
            send("leaf-0", "eth0", ts, ",\"counters\":{\"rx_bytes\":1}");
        }

        assertThat(deadLetterErrors()).containsExactly(
            "timestamp-out-of-range: timestamp 1 (1970-01-01T00:00:00.001Z) is before 2000-01-01T00:00:00Z: not epoch milliseconds",
            "timestamp-out-of-range: timestamp 1 (1970-01-01T00:00:00.001Z) is before 2000-01-01T00:00:00Z: not epoch milliseconds",
            "timestamp-out-of-range: timestamp 1000 (1970-01-01T00:00:01Z) is before 2000-01-01T00:00:00Z: not epoch milliseconds",
            "timestamp-out-of-range: timestamp 1000 (1970-01-01T00:00:01Z) is before 2000-01-01T00:00:00Z: not epoch milliseconds");
        assertThat(rejected).containsExactly("timestamp-out-of-range", "timestamp-out-of-range", "timestamp-out-of-range",
            "timestamp-out-of-range");
        assertThat(unmatched).isEmpty();
    }
}
