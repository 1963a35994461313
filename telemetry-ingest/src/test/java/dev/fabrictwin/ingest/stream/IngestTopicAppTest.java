package dev.fabrictwin.ingest.stream;

import static dev.fabrictwin.ingest.format.AdapterContract.refdata;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.contract.DeadLetter;
import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.ingest.IngestStats;
import dev.fabrictwin.ingest.format.AdapterContract;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.testing.kafka.KafkaClusterExtension;
import dev.fabrictwin.testing.kafka.KafkaReads;
import dev.fabrictwin.twin.telemetry.Sample;
import dev.fabrictwin.contract.sample.SampleSerde;

/**
 * {@code ingest --from-topic} on the in-JVM broker: collectors' messages in (gnmic event and json, Telegraf influx
 * and json), one canonical sample per record out keyed by device, bad messages to the dead letter with the reason,
 * and exactly-once output across a stop and restart with the same application id.
 */
class IngestTopicAppTest {

    @RegisterExtension
    static final KafkaClusterExtension KAFKA = KafkaClusterExtension.singleBroker();

    private static final Duration DEADLINE = Duration.ofSeconds(90);

    /** The applications' state directories, one per setup, removed after the class's tests. */
    @TempDir
    static Path stateRoot;

    private record Setup(Topics topics, String source, Properties client) {
    }

    private static Setup setup(final int sourcePartitions) {
        final Topics topics = new Topics(KAFKA.uniqueTopic("it") + ".");
        final Properties client = new Properties();
        client.put("bootstrap.servers", KAFKA.bootstrapServers());
        TopicSetup.ensure(client, topics);
        final String source = KAFKA.uniqueTopic("collectors");
        KAFKA.createTopic(source, sourcePartitions);
        client.put("state.dir", tempStateDir());
        return new Setup(topics, source, client);
    }

    private static String tempStateDir() {
        try {
            return Files.createTempDirectory(stateRoot, "ingest-streams").toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static IngestTopicSettings settings(final Setup s, final String format, final String appId) {
        return new IngestTopicSettings(s.source(), format, s.topics(), appId,
            ParseContext.defaults(AdapterContract.CLOCK).withoutTimeWindow());
    }

    private static void produce(final String topic, final List<byte[]> messages) {
        final Map<String, Object> config = KAFKA.producerConfig();
        try (var producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (final byte[] m : messages) {
                producer.send(new ProducerRecord<>(topic, null, m));
            }
            producer.flush();
        }
    }

    private static byte[] fixture(final String path) throws IOException {
        return Files.readAllBytes(refdata(path));
    }

    /** Every JSON object of a gnmic docs capture, each as the one Kafka message gnmic's kafka output writes per notification. */
    private static List<byte[]> gnmicJsonMessages(final String path) throws IOException {
        final List<byte[]> out = new ArrayList<>();
        final ObjectMapper mapper = new ObjectMapper();
        final String text = new String(fixture(path), StandardCharsets.UTF_8);
        try (MappingIterator<JsonNode> it = mapper.readerFor(JsonNode.class).readValues(text.substring(0, text.indexOf("^C")))) {
            while (it.hasNext()) {
                out.add(mapper.writeValueAsBytes(it.next()));
            }
        }
        return out;
    }

    private static List<ConsumerRecord<byte[], byte[]>> consume(final String topic, final BooleanSupplier extraDone,
                                                              final int expected) {
        return KafkaReads.readUntil(KAFKA.consumerConfig(), new ByteArrayDeserializer(), new ByteArrayDeserializer(),
            List.of(topic), read -> read.size() >= expected && extraDone.getAsBoolean(), DEADLINE);
    }

    private static List<Sample> samples(final List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> {
            final Sample s = SampleSerde.read(r.value()); // the topic's own serde: one canonical sample per record
            assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo(s.device()); // keyed as Topics says
            return s;
        }).toList();
    }

    private static Sample only(final List<Sample> samples, final String device, final String port) {
        final List<Sample> found = samples.stream().filter(s -> s.device().equals(device) && s.port().equals(port)).toList();
        assertThat(found).as("samples of %s/%s among %d", device, port, samples.size()).hasSize(1);
        return found.get(0);
    }

    private static void await(final BooleanSupplier condition, final String what) {
        final long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
            Thread.onSpinWait();
            try {
                TimeUnit.MILLISECONDS.sleep(20); // polling a counter the app updates, with a deadline
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    @Test
    void shouldTurnGnmicEventAndJsonMessagesIntoOneSamplePerRecord() throws Exception {
        final Setup s = setup(2);
        final List<byte[]> messages = new ArrayList<>();
        messages.add(fixture("gnmic-docs-outputs/event_strings.L137-159.json")); // format: event
        messages.addAll(gnmicJsonMessages("gnmic-docs-outputs/subscriptions.L421-482.json")); // format: json
        produce(s.source(), messages);
        final IngestStats stats = new IngestStats();
        try (IngestTopicApp app = IngestTopicApp.start(s.client(), settings(s, "gnmic", "gnmic-app"), stats)) {
            final List<Sample> out = samples(consume(s.topics().samples().name(), () -> stats.records() == 5, 3));

            assertThat(out).hasSize(3);
            final Sample mgmt0 = only(out, "172.23.23.2", "mgmt0");
            assertThat(mgmt0.ts()).isEqualTo(1_607_291_271_894L);
            assertThat(mgmt0.counters()).containsEntry("rx_bytes", 65_382_630L).containsEntry("tx_bytes", 64_721_394L);
            // gnmic json: one notification per message, each with one leaf of port 1/1/c1/1
            assertThat(out.stream().filter(x -> x.device().equals("router1.lab.com")).map(Sample::counters))
                .containsExactlyInAnyOrder(Map.of("rx_bytes", 671_552L), Map.of("tx_bytes", 370_930L));
        }
        // the two service-state notifications carry no port counters: dead-lettered with the reason, not dropped
        assertThat(stats.summary()).startsWith("records in: 5, samples out: 3, rejected: 2");
    }

    @Test
    void shouldTurnTelegrafInfluxAndJsonMessagesIntoSamples() throws Exception {
        final Setup s = setup(1);
        produce(s.source(), List.of(fixture("telegraf-readme-examples/ethtool.README.L107-108.text"),
            fixture("telegraf-readme-examples/net.README.L73-73.text")));
        final IngestStats influx = new IngestStats();
        try (IngestTopicApp app = IngestTopicApp.start(s.client(), settings(s, "influx", "influx-app"), influx)) {
            final List<Sample> out = samples(consume(s.topics().samples().name(), () -> influx.records() == 3, 3));

            assertThat(out).hasSize(3); // two lines in the first message, one in the second
            assertThat(only(out, "test01", "mgmt0").counters()).containsEntry("tx_bytes", 427_527_435L)
                .containsEntry("rx_bytes", 2_480_280_632L);
            assertThat(only(out, "test02", "mgmt0").ts()).isEqualTo(1_564_658_090_000L);
            assertThat(only(out, "HOST", "eth0").counters()).containsEntry("rx_bytes", 3_284_081_640L);
        }

        final Setup j = setup(1);
        final byte[] net;
        try (var in = getClass().getResourceAsStream("/handmade/telegraf-json/net-eth0.json")) {
            net = in.readAllBytes(); // hand-written: see handmade/telegraf-json/README.md
        }
        produce(j.source(), List.of(net, fixture("telegraf-readme-examples/serializers_json.README.L61-90.json")));
        final IngestStats json = new IngestStats();
        try (IngestTopicApp app = IngestTopicApp.start(j.client(), settings(j, "telegraf-json", "telegraf-json-app"), json)) {
            final List<Sample> out = samples(consume(j.topics().samples().name(), () -> json.records() == 2, 1));
            assertThat(only(out, "HOST", "eth0").counters()).containsEntry("tx_bytes", 451_838_509L);
            assertThat(out.get(0).source()).isEqualTo("telegraf-json");
            final ConsumerRecord<byte[], byte[]> dead = consume(j.topics().deadLetter().name(), () -> true, 1).get(0);
            assertThat(DeadLetter.from(dead.headers()).orElseThrow().error())
                .isEqualTo("missing-port: no interface/name/device+port tag names the port of docker [host]");
        }
    }

    @Test
    void shouldDeadLetterAMalformedMessageWithItsReasonAndKeepRunning() throws Exception {
        final Setup s = setup(1);
        final IngestStats stats = new IngestStats();
        try (IngestTopicApp app = IngestTopicApp.start(s.client(), settings(s, "gnmic", "dead-letter-app"), stats)) {
            final byte[] truncated = "{\"name\":\"default\",\"timestamp\":1607291271894072397,\"tags\":{".getBytes(StandardCharsets.UTF_8);
            produce(s.source(), List.of(truncated, new byte[0]));
            final List<ConsumerRecord<byte[], byte[]>> dead = consume(s.topics().deadLetter().name(), () -> true, 2);

            assertThat(dead).hasSize(2);
            final DeadLetter first = DeadLetter.from(dead.get(0).headers()).orElseThrow();
            assertThat(first.error()).isEqualTo("malformed: input ends inside a JSON object (truncated)");
            assertThat(first.source()).isEqualTo("ingest:gnmic");
            assertThat(first.offset()).isEqualTo(s.source() + "-0@0 line 1");
            assertThat(dead.get(0).value()).isEqualTo(truncated);
            assertThat(DeadLetter.from(dead.get(1).headers()).orElseThrow().error())
                .isEqualTo("malformed: empty message: no gnmic data in it");

            // the app is still running: a good message after the bad ones comes out
            produce(s.source(), List.of(fixture("gnmic-docs-outputs/event_strings.L137-159.json")));
            final List<Sample> out = samples(consume(s.topics().samples().name(), () -> true, 1));
            assertThat(only(out, "172.23.23.2", "mgmt0").counter("rx_bytes", -1)).isEqualTo(65_382_630L);
            assertThat(stats.summary()).isEqualTo("records in: 3, samples out: 1, rejected: 2 (malformed 2)");
        }
    }

    /** A gnmic event message of the shape of event_strings.L137-159 for port {@code ethernet-1/i}, in-octets = i. */
    private static byte[] event(final int i) {
        return ("{\"name\":\"default\",\"timestamp\":" + (1_607_291_271_894_072_397L + i * 1_000_000L)
            + ",\"tags\":{\"interface_name\":\"ethernet-1/" + i + "\",\"source\":\"leaf-" + (i % 7) + ":57400\"},"
            + "\"values\":{\"/srl_nokia-interfaces:interface/statistics/in-octets\":\"" + i + "\"}}")
            .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldWriteEachSampleExactlyOnceAcrossAStopAndARestartWithTheSameApplicationId() throws Exception {
        final int n = 3000;
        final Setup s = setup(3);
        final List<byte[]> messages = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            messages.add(event(i));
        }
        produce(s.source(), messages);
        final Properties slow = new Properties();
        slow.putAll(s.client());
        slow.put("main.consumer.max.poll.records", "50"); // small steps, so the first run stops mid-way
        final IngestStats first = new IngestStats();
        try (IngestTopicApp app = IngestTopicApp.start(slow, settings(s, "gnmic", "eos-app"), first)) {
            await(() -> first.samples() >= 200, "the first run to be under way");
        }
        assertThat(first.samples()).as("first run stopped mid-way").isBetween(200L, n - 1L);

        final IngestStats second = new IngestStats();
        try (IngestTopicApp app = IngestTopicApp.start(slow, settings(s, "gnmic", "eos-app"), second)) {
            await(() -> first.samples() + second.samples() >= n, "the restarted run to finish");
            final List<Sample> out = samples(consume(s.topics().samples().name(), () -> true, n));
            // read_committed: aborted or reprocessed writes would show as extra records
            final Map<String, Integer> seen = new HashMap<>();
            out.forEach(x -> seen.merge(x.port(), 1, Integer::sum));
            assertThat(out).hasSize(n);
            assertThat(seen).hasSize(n).allSatisfy((port, count) -> assertThat(count).isEqualTo(1));
            assertThat(only(out, "leaf-2", "ethernet-1/1234").counter("rx_bytes", -1)).isEqualTo(1234L);
        }
        assertThat(first.samples() + second.samples()).isEqualTo(n);
    }
}
