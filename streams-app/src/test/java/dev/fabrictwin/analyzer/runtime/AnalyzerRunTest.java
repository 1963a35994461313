package dev.fabrictwin.analyzer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.topology.AnalyzerSettings;

/** The Kafka Streams configuration a run is built with: its options, under whatever the client properties set. */
class AnalyzerRunTest {

    private static Properties client(final String... keyValues) {
        final Properties p = new Properties();
        p.put("bootstrap.servers", "127.0.0.1:9092");
        for (int i = 0; i < keyValues.length; i += 2) {
            p.put(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    @Test
    void optionsBecomeStreamsProperties() {
        final Properties streams = AnalyzerRun.builder(client(), AnalyzerSettings.defaults(1_000)).applicationId("app-1")
            .standbyReplicas(1).instanceName("node-a").stateDir(Path.of("/var/lib/ft")).build().streamsConfig();

        assertThat(streams).containsEntry(StreamsConfig.APPLICATION_ID_CONFIG, "app-1")
            .containsEntry(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 1)
            .containsEntry(StreamsConfig.STATE_DIR_CONFIG, "/var/lib/ft")
            .containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "node-a")
            .containsEntry("bootstrap.servers", "127.0.0.1:9092");
    }

    @Test
    void defaultsLeaveStateDirAndInstanceUnsetAndClientPropertiesWin() {
        final Properties streams = AnalyzerRun.builder(client(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "2"),
            AnalyzerSettings.defaults(1_000)).build().streamsConfig();

        assertThat(streams).containsEntry(StreamsConfig.APPLICATION_ID_CONFIG, AnalyzerApp.DEFAULT_APPLICATION_ID)
            .containsEntry(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "2")
            .doesNotContainKeys(StreamsConfig.STATE_DIR_CONFIG, ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    }
}
