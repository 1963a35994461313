package dev.fabrictwin.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.fabrictwin.contract.TopicSetup;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.ingest.IngestStats;
import dev.fabrictwin.ingest.format.AdapterContract;
import dev.fabrictwin.ingest.format.CanonicalAdapter;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.kafka.common.ProducerSettings;
import dev.fabrictwin.testing.kafka.KafkaClusterExtension;
import dev.fabrictwin.testing.kafka.KafkaReads;

/** Ingest to a real broker: samples keyed by device, bad input to the dead letter with its reason. */
class KafkaIngestSinkTest {

    @RegisterExtension
    static final KafkaClusterExtension KAFKA = KafkaClusterExtension.singleBroker();

    @Test
    void shouldProduceSamplesByDeviceAndDeadLetterBadLinesWithHeaders() throws Exception {
        final Topics topics = new Topics(KAFKA.uniqueTopic("t") + ".");
        final Properties client = new Properties();
        client.put("bootstrap.servers", KAFKA.bootstrapServers());
        TopicSetup.ensure(client, topics);
        final String input = String.join("\n",
            "{\"ts\":1735689601000,\"device\":\"leaf-1\",\"port\":\"eth0\",\"counters\":{\"tx_bytes\":10}}",
            "{\"ts\":1735689601000,\"device\":\"leaf-1\",\"port\":\"eth0\",\"counters\":{\"tx_bytes\":\"NaN\"}}",
            "{\"ts\":1735689602000,\"device\":\"host-3\",\"port\":\"nic0\",\"counters\":{\"tx_bytes\":20}}");
        final IngestStats stats = new IngestStats();
        try (var producer = new KafkaProducer<String, byte[]>(ProducerSettings.telemetry(client))) {
            final KafkaIngestSink sink = new KafkaIngestSink(producer, topics, "test-input", stats);
            new CanonicalAdapter().parse(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                ParseContext.defaults(AdapterContract.CLOCK).withoutTimeWindow(), sink);
            producer.flush();
            sink.checkErrors();
        }

        assertThat(stats.summary()).isEqualTo("records in: 3, samples out: 2, rejected: 1 (non-numeric 1)");
        final List<ConsumerRecord<String, byte[]>> samples = consume(topics.samples().name(), 2);
        assertThat(samples).extracting(ConsumerRecord::key).containsExactlyInAnyOrder("leaf-1", "host-3");
        assertThat(SampleJson.read(samples.stream().filter(r -> r.key().equals("host-3")).findFirst().orElseThrow().value())
            .counter("tx_bytes", -1)).isEqualTo(20);
        final ConsumerRecord<String, byte[]> dead = consume(topics.deadLetter().name(), 1).get(0);
        assertThat(new String(dead.value(), StandardCharsets.UTF_8)).contains("\"NaN\"");
        assertThat(header(dead, "error")).startsWith(RejectReason.NON_NUMERIC.code() + ": counter tx_bytes");
        assertThat(header(dead, "source")).isEqualTo("test-input:canonical");
        assertThat(header(dead, "offset")).isEqualTo("line 2");
    }

    private static String header(final ConsumerRecord<?, ?> r, final String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static List<ConsumerRecord<String, byte[]>> consume(final String topic, final int expected) {
        return KafkaReads.readUntil(KAFKA.consumerConfig(), new StringDeserializer(), new ByteArrayDeserializer(),
            List.of(topic), read -> read.size() >= expected, Duration.ofSeconds(60));
    }
}
