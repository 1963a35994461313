package dev.fabrictwin.testing.kafka;

import org.junit.jupiter.api.extension.RegisterExtension;

/** Runs the fixture contract on a containerized broker; skipped with the reason where Docker is absent. */
class ContainerFixtureTest extends KafkaFixtureContract {

    @RegisterExtension
    static final KafkaContainerExtension KAFKA = new KafkaContainerExtension();

    @Override
    KafkaFixture kafka() {
        return KAFKA;
    }
}
