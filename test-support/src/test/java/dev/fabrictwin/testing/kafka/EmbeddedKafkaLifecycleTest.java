package dev.fabrictwin.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.fabrictwin.kafka.embedded.EmbeddedKafka;
import dev.fabrictwin.kafka.embedded.PortInUseException;

class EmbeddedKafkaLifecycleTest {

    @Test
    void shouldFailWithAOneLineErrorWhenTheRequestedPortIsTaken() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            final int port = taken.getLocalPort();

            assertThatThrownBy(() -> EmbeddedKafka.builder().port(port).start())
                .isInstanceOf(PortInUseException.class)
                .hasMessage("port " + port + " on 127.0.0.1 is already in use; choose another port, or 0 for any free port")
                .hasMessageNotContaining("\n");
        }
    }

    @Test
    void shouldServeOnTheRequestedPortAndDeleteItsDataOnClose() throws IOException {
        final int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = probe.getLocalPort();
        }
        final Path dataDir;
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().port(port).start()) {
            assertThat(kafka.bootstrapServers()).isEqualTo("127.0.0.1:" + port);
            dataDir = kafka.dataDir();
            assertThat(Files.list(dataDir)).isNotEmpty();
        }
        assertThat(dataDir).doesNotExist();
    }

    @Test
    void shouldRejectImpossibleSettingsAtConfigurationTime() {
        assertThatThrownBy(() -> EmbeddedKafka.builder().brokers(0)).hasMessageContaining("brokers must be 1..5");
        assertThatThrownBy(() -> EmbeddedKafka.builder().port(70_000)).hasMessageContaining("port must be 0..65535");
    }

    @Test
    void shouldRestartOnItsOwnDataDirectoryWithItsTopicsAndRecords(@TempDir final Path dir)
        throws Exception {
        final Properties client = new Properties();
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().dataDir(dir).start()) {
            client.put("bootstrap.servers", kafka.bootstrapServers());
            try (Admin admin = Admin.create(client)) {
                admin.createTopics(List.of(new NewTopic("kept", 1, (short) 1)))
                    .all().get();
            }
            try (var producer = new KafkaProducer<String, String>(client,
                new StringSerializer(),
                new StringSerializer())) {
                producer.send(new ProducerRecord<>("kept", "k", "before the restart")).get();
            }
        }
        assertThat(dir).isDirectoryContaining(p -> p.getFileName().toString().equals("node-0"));

        try (EmbeddedKafka kafka = EmbeddedKafka.builder().dataDir(dir).start()) {
            final Properties c = new Properties();
            c.put("bootstrap.servers", kafka.bootstrapServers());
            c.put("auto.offset.reset", "earliest");
            c.put("group.id", "restart-check");
            try (var consumer = new KafkaConsumer<String, String>(c,
                new StringDeserializer(),
                new StringDeserializer())) {
                consumer.subscribe(List.of("kept"));
                final List<ConsumerRecord<String, String>> read = KafkaReads.readUntil(consumer, r -> !r.isEmpty(),
                    Duration.ofSeconds(60));
                assertThat(read).extracting(ConsumerRecord::value).containsExactly("before the restart");
            }
        }
    }

    @Test
    void aBrokerOfThreeStopsAndRestartsUnderLoadWithNothingLost() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().dedicatedController().brokers(3)
            .brokerConfig("min.insync.replicas", "2").start()) {
            final Properties client = new Properties();
            client.put("bootstrap.servers", kafka.bootstrapServers());
            client.put("acks", "all");
            kafka.createTopics(List.of(new NewTopic("replicated", 3, (short) 3)));
            final List<String> sent = new ArrayList<>();
            try (var producer = new KafkaProducer<String, String>(client, new StringSerializer(), new StringSerializer())) {
                for (int broker = 0; broker < 3; broker++) {
                    kafka.stopBroker(broker); // two replicas of three stay in sync: acks=all still succeeds
                    for (int i = 0; i < 20; i++) {
                        final String value = broker + "-" + i;
                        producer.send(new ProducerRecord<>("replicated", Integer.toString(i), value)).get(60, TimeUnit.SECONDS);
                        sent.add(value);
                    }
                    kafka.startBroker(broker);
                }
            }
            try (Admin admin = kafka.admin()) {
                assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).extracting(n -> n.id())
                    .containsExactlyInAnyOrder(1, 2, 3);
            }
            final Properties c = new Properties();
            c.put("bootstrap.servers", kafka.bootstrapServers());
            c.put("auto.offset.reset", "earliest");
            c.put("group.id", "replicated-check");
            try (var consumer = new KafkaConsumer<String, String>(c, new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of("replicated"));
                final List<ConsumerRecord<String, String>> read = KafkaReads.readUntil(consumer,
                    r -> r.size() >= sent.size(), Duration.ofSeconds(60));
                assertThat(read).extracting(ConsumerRecord::value).containsExactlyInAnyOrderElementsOf(sent);
            }
        }
    }
}
