package dev.fabrictwin.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

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
}
