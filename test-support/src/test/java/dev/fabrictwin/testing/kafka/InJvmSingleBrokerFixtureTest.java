package dev.fabrictwin.testing.kafka;

import org.junit.jupiter.api.extension.RegisterExtension;

class InJvmSingleBrokerFixtureTest extends KafkaFixtureContract {

    @RegisterExtension
    static final KafkaClusterExtension KAFKA = KafkaClusterExtension.singleBroker();

    @Override
    KafkaFixture kafka() {
        return KAFKA;
    }
}
