package dev.fabrictwin.analyzer.topology;

import static dev.fabrictwin.analyzer.topology.RatesStage.PortRatesProcessor.SECOND_SLOT;
import static dev.fabrictwin.analyzer.topology.RatesStage.PortRatesProcessor.SENT_MARK;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

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
        round("leaf-1", 1_000, 1);
        driver.advanceWallClockTime(Duration.ofMillis(FLUSH_MS));
        round("leaf-1", 2_000, 1);
        // the interval [1000, 2000] waits in the batch; a commit now would take its sample's offset, so the
        // sample is in the store, numbered past the mark, beside the one the interval starts from
        final Map<String, HeldSample> midBatch = stored();
        assertThat(midBatch).containsOnlyKeys("leaf-1/eth0", "leaf-1/eth0" + SECOND_SLOT);
        assertThat(midBatch.get("leaf-1/eth0").sample().ts()).isEqualTo(EPOCH + 1_000);
        assertThat(midBatch.get("leaf-1/eth0" + SECOND_SLOT).sample().ts()).isEqualTo(EPOCH + 2_000);
        assertThat(midBatch.get("leaf-1/eth0" + SECOND_SLOT).batch()).isEqualTo(1);

        driver.advanceWallClockTime(Duration.ofMillis(FLUSH_MS));
        assertThat(batches.readValuesToList()).singleElement().satisfies(b -> assertThat(b).hasSize(1));
        // sent: the mark says so, and nothing else is written
        final Map<String, HeldSample> afterBatch = stored();
        assertThat(afterBatch.get(SENT_MARK).batch()).isEqualTo(1);
        assertThat(afterBatch).hasSize(3);

        // a task restarted from a commit taken after the batch went out sends nothing of it again
        restartFrom(afterBatch);
        round("leaf-1", 3_000, 1);
        driver.advanceWallClockTime(Duration.ofMillis(FLUSH_MS));
        assertThat(batches.readValuesToList()).extracting(b -> (b.get(0).t0() - EPOCH) + "-" + (b.get(0).t1() - EPOCH))
            .containsExactly("2000-3000");
        assertThat(stored().get("leaf-1/eth0").sample().ts()).as("written over the older slot").isEqualTo(EPOCH + 3_000);

        // a task restarted from a commit taken while [1000, 2000] was pending sends it first, then goes on
        restartFrom(midBatch);
        round("leaf-1", 3_000, 1);
        driver.advanceWallClockTime(Duration.ofMillis(FLUSH_MS));
        assertThat(batches.readValuesToList()).extracting(b -> (b.get(0).t0() - EPOCH) + "-" + (b.get(0).t1() - EPOCH))
            .containsExactly("1000-2000", "2000-3000");
    }

    @Test
    void shouldStartTheIntervalOfSeveralSamplesInOneBatchWhereTheBatchBeforeLeftIt() {
        round("leaf-1", 1_000, 1);
        driver.advanceWallClockTime(Duration.ofMillis(FLUSH_MS));
        batches.readValuesToList();
        round("leaf-1", 1_200, 1); // a port sampled faster than the tick: both intervals in the batch of tick 1
        round("leaf-1", 1_400, 1);

        restartFrom(stored());
        driver.advanceWallClockTime(Duration.ofMillis(FLUSH_MS));

        // the newest sample went over the slot of the one before it, still pending; the other slot kept 1000
        assertThat(batches.readValuesToList()).flatExtracting(b -> b)
            .extracting(i -> (i.t0() - EPOCH) + "-" + (i.t1() - EPOCH)).containsExactly("1000-1400");
    }

    @Test
    void shouldReadAStoreWrittenBeforeBatchesWereNumbered() {
        final Sample base = sample("leaf-1", 1_000);
        final Sample held = sample("leaf-1", 2_000);
        final Sample other = sample("leaf-2", 2_000);

        // then: the port's key held the sample of the last batch sent, the pending key the newest sample
        restartFrom(Map.of("leaf-1/eth0", old(base), "leaf-1/eth0" + SECOND_SLOT, old(held),
            "leaf-2/eth0", old(other), "leaf-2/eth0" + SECOND_SLOT, old(other)));
        driver.advanceWallClockTime(Duration.ofMillis(FLUSH_MS)); // the first flush recovers, before any sample
        assertThat(batches.readValuesToList()).flatExtracting(b -> b)
            .extracting(i -> i.device() + "@" + (i.t0() - EPOCH) + "-" + (i.t1() - EPOCH)).containsExactly("leaf-1@1000-2000");
        // killed after that commit, before leaf-1 reports again: its sample is numbered now, and sent
        restartFrom(stored());
        driver.advanceWallClockTime(Duration.ofMillis(FLUSH_MS));
        assertThat(batches.isEmpty()).isTrue();
        round("leaf-1", 3_000, 1);
        round("leaf-2", 3_000, 1);
        driver.advanceWallClockTime(Duration.ofMillis(FLUSH_MS));

        assertThat(batches.readValuesToList()).flatExtracting(b -> b)
            .extracting(i -> i.device() + "@" + (i.t0() - EPOCH) + "-" + (i.t1() - EPOCH))
            .containsExactly("leaf-1@2000-3000", "leaf-2@2000-3000");
    }

    private static HeldSample old(final Sample sample) {
        return LastSampleSerde.readHeld(LastSampleSerde.write(sample));
    }

    /** What {@link #round} sends for port eth0. */
    private static Sample sample(final String device, final long ts) {
        return new Sample(EPOCH + ts, device, "eth0", "t", Map.of("tx_bytes", ts), Map.of("speed_bps", 400e9));
    }

    /** The store's entries, as a commit now would leave them. */
    private Map<String, HeldSample> stored() {
        final Map<String, HeldSample> out = new TreeMap<>();
        try (var it = driver.<String, HeldSample>getKeyValueStore(RatesStage.LAST_SAMPLE_STORE).all()) {
            it.forEachRemaining(kv -> out.put(kv.key, kv.value));
        }
        return out;
    }

    /** A new task whose store the changelog restored to {@code committed}. */
    private void restartFrom(final Map<String, HeldSample> committed) {
        driver.close();
        setUp();
        final KeyValueStore<String, HeldSample> store = driver.getKeyValueStore(RatesStage.LAST_SAMPLE_STORE);
        committed.forEach(store::put);
    }

    @Test
    void shouldForgetPortsSilentForFifteenMinutesSoAFloodOfNamesExpires() {
        final KeyValueStore<String, HeldSample> store = driver.getKeyValueStore(RatesStage.LAST_SAMPLE_STORE);
        for (int d = 0; d < 20_000; d++) {
            round("stranger-" + d, 1_000, 1); // names no topology knows, each reported once
        }
        for (long minute = 4; minute <= 20; minute += 4) {
            round("leaf-1", minute * 60_000, 1);
        }
        assertThat(count(store)).isGreaterThan(20_000);

        driver.advanceWallClockTime(RatesStage.PortRatesProcessor.FORGET_EVERY);

        // its two slots, and the partition's mark
        assertThat(count(store)).as("only the port that still reports").isEqualTo(3);
        assertThat(stored().values()).filteredOn(held -> !held.isMark()).extracting(held -> held.sample().ts())
            .containsExactlyInAnyOrder(EPOCH + 16 * 60_000, EPOCH + 20 * 60_000);
    }

    private static long count(final KeyValueStore<String, HeldSample> store) {
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
