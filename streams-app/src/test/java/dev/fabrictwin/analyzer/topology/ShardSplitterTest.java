package dev.fabrictwin.analyzer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.analyzer.AnalyzerListener;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.sim.Twin;

/** What the shard split writes to a lane's partitions, read from its repartition topic. */
class ShardSplitterTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long T0 = 1_735_689_600_000L;
    private static final int SHARDS = 4;

    @TempDir
    Path stateDir;

    /**
     * Kafka Streams holds a task one of whose partitions is empty for {@code max.task.idle.ms} (60 s) after each start
     * before it processes the others: a lane that carries no port of a shard must still write to that shard's partition,
     * or the shard's analysis waits a minute after every start and every restart.
     */
    @Test
    void shouldWriteEveryShardsPartitionOfALaneEvenWhenTheLaneCarriesNoneOfItsPorts() throws Exception {
        final Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "split-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        DeadLetterHandlers.configure(props, Topics.DEFAULT.deadLetter().name(), AnalyzerListener.NONE);
        final AnalyzerSettings settings = AnalyzerSettings.defaults(1_000).withShards(SHARDS);
        try (TopologyTestDriver driver = new TopologyTestDriver(AnalyzerTopology.build(settings, AnalyzerListener.NONE), props)) {
            final Fabric fabric = Twin.healthy(ScenarioParser.parse(ScenarioParser.tree("""
                name: eight-leaves
                duration: 60s
                fabric: {kind: spine-leaf, spines: 2, leaves: 8, hostsPerLeaf: 1, nicsPerHost: 1, linkSpeed: 100G}
                jobs: []
                """), Path.of(".")), ModelParams.defaults()).fabric();
            driver.createInputTopic(Topics.DEFAULT.topology().name(), new StringSerializer(), new ByteArraySerializer())
                .pipeInput("eight-leaves", JSON.writeValueAsBytes(FabricJson.toJson(fabric, JSON)));
            final TestInputTopic<String, byte[]> samples =
                driver.createInputTopic(Topics.DEFAULT.samples().name(), new StringSerializer(), new ByteArraySerializer());
            final TestOutputTopic<String, List<PortInterval>> lane = driver.createOutputTopic(
                "split-test-analyzer-intervals-repartition", new StringDeserializer(), PortIntervalSerde.listSerde().deserializer());

            // one device only: its lane carries ports of one shard
            for (int t = 0; t <= 10; t++) {
                final String sample = "{\"ts\":" + (T0 + t * 1000L) + ",\"device\":\"host-0\",\"port\":\"nic0\",\"source\":\"test\","
                    + "\"counters\":{\"tx_bytes\":" + t * 1_000_000L + ",\"rx_bytes\":" + t * 1_000_000L + "},"
                    + "\"gauges\":{\"oper_up\":1}}";
                samples.pipeInput("host-0", sample.getBytes(StandardCharsets.UTF_8));
            }

            final Map<String, int[]> byShard = new TreeMap<>(); // shard → {batches, intervals}
            for (final TestRecord<String, List<PortInterval>> r : lane.readRecordsToList()) {
                final int[] n = byShard.computeIfAbsent(r.key(), k -> new int[2]);
                n[0]++;
                n[1] += r.value().size();
            }
            assertThat(byShard).containsOnlyKeys("0", "1", "2", "3");
            // every shard hears from the lane as often; the intervals all go to the device's own shard
            assertThat(byShard.values().stream().mapToInt(n -> n[0]).distinct()).hasSize(1);
            assertThat(byShard.values().stream().mapToInt(n -> n[1]).filter(i -> i > 0).boxed().toList()).containsExactly(10);
        }
    }
}
