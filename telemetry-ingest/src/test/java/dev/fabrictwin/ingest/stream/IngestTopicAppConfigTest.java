package dev.fabrictwin.ingest.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.Properties;

import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.ingest.format.ParseContext;

class IngestTopicAppConfigTest {

    private static final IngestTopicSettings SETTINGS = new IngestTopicSettings("collectors", "gnmic", new Topics("t."),
        "app", ParseContext.defaults(Clock.systemUTC()));

    @Test
    void shouldNotIdleTasksSinceEachReadsOnePartitionOnly() {
        final Properties p = IngestTopicApp.streamsConfig(new Properties(), SETTINGS);

        assertThat(p.get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG)).isEqualTo(StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        assertThat(p.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)).isEqualTo(StreamsConfig.EXACTLY_ONCE_V2);
        assertThat(p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo(100);
    }

    @Test
    void shouldLetTheClientPropertiesOverrideTheDefaults() {
        final Properties client = new Properties();
        client.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "0");
        client.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "500");

        final Properties p = IngestTopicApp.streamsConfig(client, SETTINGS);

        assertThat(p.get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG)).isEqualTo("0");
        assertThat(p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo("500");
    }
}
