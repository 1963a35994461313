package dev.fabrictwin.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class InJvmThreeBrokerFixtureTest extends KafkaFixtureContract {

    @RegisterExtension
    static final KafkaClusterExtension KAFKA = KafkaClusterExtension.brokers(3);

    @Override
    KafkaFixture kafka() {
        return KAFKA;
    }

    @Test
    void shouldListThreeBrokersInTheBootstrapString() {
        assertThat(KAFKA.bootstrapServers().split(",")).hasSize(3).allMatch(s -> s.startsWith("127.0.0.1:"));
        assertThat(KAFKA.replicationFactor()).isEqualTo((short) 3);
    }
}
