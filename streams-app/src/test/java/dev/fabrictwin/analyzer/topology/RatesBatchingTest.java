package dev.fabrictwin.analyzer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

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
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.twin.telemetry.Sample;

/** The rates stage with batching on (as {@code analyze} runs it): one lane record per tick, store writes held back. */
class RatesBatchingTest {

    private static final Topics TOPICS = Topics.DEFAULT;
    private static final String BATCHES = "test.batches";
    private static final long FLUSH_MS = 20;
    /** Samples carry epoch milliseconds (not before 2000): the tests count their times from 2025-01-01. */
    private static final long EPOCH = 1_735_689_600_000L;

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> samples;
    private TestOutputTopic<String, List<PortInterval>> batches;

    @BeforeEach
    void setUp() {
        final StreamsBuilder builder = new StreamsBuilder();
        RatesStage.buildBatches(builder, TOPICS, 1_000, 1, FLUSH_MS)
            .mapValues(RatesStage.LaneBatch::intervals, Named.as("batch-intervals"))
            .to(BATCHES, Produced.with(Serdes.String(), PortIntervalSerde.listSerde()));
        final Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "rates-batching-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        driver = new TopologyTestDriver(builder.build(props), props);
        samples = driver.createInputTopic(TOPICS.samples().name(), new StringSerializer(), new ByteArraySerializer());
        batches = driver.createOutputTopic(BATCHES, new StringDeserializer(),
            PortIntervalSerde.listSerde().deserializer());
    }

    @AfterEach
    void tearDown() {
        driver.close();
    }

    /** One sampling round of a device: ports eth0..eth{n-1}, tx_bytes = ts + port. */
    private void round(final String device, final long ts, final int ports) {
        for (int p = 0; p < ports; p++) {
            final Sample s = new Sample(EPOCH + ts, device, "eth" + p, "t", Map.of("tx_bytes", ts + p),
                Map.of("speed_bps", 400e9));
            samples.pipeInput(device, SampleJson.writeBytes(s), EPOCH + ts);
        }
    }

    @Test
    void shouldSendATicksIntervalsAsOneRecordWhenTheInputMovesToTheNextTick() {
        round("leaf-1", 1_000, 3);
        round("leaf-2", 1_010, 2);
        round("leaf-1", 2_000, 3);
        round("leaf-2", 1_990, 2);
        assertThat(batches.isEmpty()).as("tick 2's intervals are held back").isTrue();

        round("leaf-1", 3_000, 1);

        final List<TestRecord<String, List<PortInterval>>> out = batches.readRecordsToList();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).value()).extracting(i -> i.device() + "/" + i.port() + "@" + (i.t1() - EPOCH))
            .containsExactly("leaf-1/eth0@2000", "leaf-1/eth1@2000", "leaf-1/eth2@2000", "leaf-2/eth0@1990",
                "leaf-2/eth1@1990");
        assertThat(out.get(0).value()).as("tx_bytes grow by one per ms").allSatisfy(
            i -> assertThat(i.increases()).containsEntry("tx_bytes", i.t1() - i.t0()));
        assertThat(out.get(0).timestamp()).as("the batch's newest interval end").isEqualTo(EPOCH + 2_000);
    }

    /**
     * A device stamped 90 s ahead made its lane record 90 s ahead, and the analysis's timestamp-ordered
     * merge then held every later record of that lane back until the rest of the fabric got there (a sixth of the
     * fabric blinded for a minute, its intervals then late). Its intervals still travel, stamped with the time the
     * partition's devices support together.
     */
    @Test
    void shouldNotLetOneDeviceWhoseClockRunsAheadStampItsLaneAhead() {
        for (long ts = 1_000; ts <= 3_000; ts += 1_000) {
            round("leaf-1", ts, 1);
            round("leaf-2", ts, 1);
            round("leaf-3", ts, 1);
            round("host-9", ts + 90_000, 1);
        }
        round("leaf-1", 4_000, 1);
        driver.advanceWallClockTime(Duration.ofMillis(FLUSH_MS));

        final List<TestRecord<String, List<PortInterval>>> out = batches.readRecordsToList();
        assertThat(out).extracting(TestRecord::timestamp).allSatisfy(ts -> assertThat(ts).isLessThanOrEqualTo(EPOCH + 4_000L));
        assertThat(out).flatExtracting(TestRecord::value).extracting(i -> i.device() + "@" + (i.t1() - EPOCH))
            .contains("host-9@92000", "host-9@93000", "leaf-1@4000");
    }

    @Test
    void shouldSendAPendingBatchOnceTheFlushIntervalOfWallTimePasses() {
        round("leaf-1", 1_000, 2);
        round("leaf-1", 2_000, 2);
        driver.advanceWallClockTime(Duration.ofMillis(FLUSH_MS / 2));
        assertThat(batches.isEmpty()).isTrue();

        driver.advanceWallClockTime(Duration.ofMillis(FLUSH_MS));

        assertThat(batches.readValuesToList()).singleElement().satisfies(b -> assertThat(b).hasSize(2));
    }

    @Test
    void shouldKeepAPendingSampleInTheStoreSoARestartedTaskSendsItsIntervalAgain() {
        final KeyValueStore<String, Sample> store = driver.getKeyValueStore(RatesStage.LAST_SAMPLE_STORE);
        round("leaf-1", 1_000, 1);
        driver.advanceWallClockTime(Duration.ofMillis(FLUSH_MS));
        assertThat(store.get("leaf-1/eth0").ts()).isEqualTo(EPOCH + 1_000);

        round("leaf-1", 2_000, 1);

        // the interval [1000, 2000] waits in the batch; a commit now would take its sample's offset, so the
        // sample is in the store beside the one the interval starts from
        assertThat(store.get("leaf-1/eth0").ts()).isEqualTo(EPOCH + 1_000);
        assertThat(store.get("leaf-1/eth0" + RatesStage.PortRatesProcessor.PENDING_SUFFIX).ts()).isEqualTo(EPOCH + 2_000);
        final Sample base = store.get("leaf-1/eth0");
        final Sample held = store.get("leaf-1/eth0" + RatesStage.PortRatesProcessor.PENDING_SUFFIX);
        driver.advanceWallClockTime(Duration.ofMillis(FLUSH_MS));
        assertThat(batches.readValuesToList()).singleElement().satisfies(b -> assertThat(b).hasSize(1));
        assertThat(store.get("leaf-1/eth0").ts()).isEqualTo(EPOCH + 2_000);
        // sent: the pending key stays (no delete to log), no newer than the port's sample
        assertThat(store.get("leaf-1/eth0" + RatesStage.PortRatesProcessor.PENDING_SUFFIX).ts()).isEqualTo(EPOCH + 2_000);

        // a task restarted from a commit taken after the batch went out sends nothing of it again
        driver.close();
        setUp();
        final KeyValueStore<String, Sample> after = driver.getKeyValueStore(RatesStage.LAST_SAMPLE_STORE);
        after.put("leaf-1/eth0", held);
        after.put("leaf-1/eth0" + RatesStage.PortRatesProcessor.PENDING_SUFFIX, held);
        round("leaf-1", 3_000, 1);
        driver.advanceWallClockTime(Duration.ofMillis(FLUSH_MS));
        assertThat(batches.readValuesToList()).extracting(b -> (b.get(0).t0() - EPOCH) + "-" + (b.get(0).t1() - EPOCH))
            .containsExactly("2000-3000");

        // a task restarted from a commit taken while [1000, 2000] was pending sends it first, then goes on
        driver.close();
        setUp();
        final KeyValueStore<String, Sample> restored = driver.getKeyValueStore(RatesStage.LAST_SAMPLE_STORE);
        restored.put("leaf-1/eth0", base);
        restored.put("leaf-1/eth0" + RatesStage.PortRatesProcessor.PENDING_SUFFIX, held);
        round("leaf-1", 3_000, 1);
        driver.advanceWallClockTime(Duration.ofMillis(FLUSH_MS));

        assertThat(batches.readValuesToList()).extracting(b -> (b.get(0).t0() - EPOCH) + "-" + (b.get(0).t1() - EPOCH))
            .containsExactly("1000-2000", "2000-3000");
    }

    @Test
    void shouldForgetPortsSilentForFifteenMinutesSoAFloodOfNamesExpires() {
        final KeyValueStore<String, Sample> store = driver.getKeyValueStore(RatesStage.LAST_SAMPLE_STORE);
        for (int d = 0; d < 20_000; d++) {
            round("stranger-" + d, 1_000, 1); // names no topology knows, each reported once
        }
        for (long minute = 4; minute <= 20; minute += 4) {
            round("leaf-1", minute * 60_000, 1);
        }
        assertThat(count(store)).isGreaterThan(20_000);

        driver.advanceWallClockTime(RatesStage.PortRatesProcessor.FORGET_EVERY);

        // its sample, and its pending key (left in place once sent)
        assertThat(count(store)).as("only the port that still reports").isEqualTo(2);
        assertThat(store.get("leaf-1/eth0").ts()).isEqualTo(EPOCH + 20 * 60_000);
    }

    private static long count(final KeyValueStore<String, Sample> store) {
        long n = 0;
        try (var it = store.all()) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }
}
