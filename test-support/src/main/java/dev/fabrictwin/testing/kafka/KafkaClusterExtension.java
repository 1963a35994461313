package dev.fabrictwin.testing.kafka;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.fabrictwin.kafka.embedded.EmbeddedKafka;

/**
 * JUnit 5 extension that runs a real KRaft Kafka cluster in this JVM on 127.0.0.1 for one test class.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final KafkaClusterExtension KAFKA = KafkaClusterExtension.singleBroker();
 * }</pre>
 *
 * Ports are free ephemeral ports, so test classes never clash; the data directory is deleted after
 * the class. This wraps {@link EmbeddedKafka}, the same broker {@code fabric-twin demo} runs.
 */
public final class KafkaClusterExtension implements BeforeAllCallback, AfterAllCallback, KafkaFixture {

    private final int brokers;
    private EmbeddedKafka kafka;

    private KafkaClusterExtension(final int brokers) {
        this.brokers = brokers;
    }

    public static KafkaClusterExtension singleBroker() {
        return new KafkaClusterExtension(1);
    }

    /** One controller+broker node plus {@code brokers - 1} brokers; topics get RF min(3, brokers). */
    public static KafkaClusterExtension brokers(final int brokers) {
        return new KafkaClusterExtension(brokers);
    }

    @Override
    public void beforeAll(final ExtensionContext context) {
        kafka = EmbeddedKafka.builder().brokers(brokers).start();
        context.publishReportEntry("kafka", "in-JVM KRaft cluster, " + brokers + " broker(s) at "
            + kafka.bootstrapServers() + ", started in " + kafka.startTime().toMillis() + " ms");
    }

    @Override
    public void afterAll(final ExtensionContext context) {
        if (kafka != null) {
            kafka.close();
            kafka = null;
        }
    }

    @Override
    public String bootstrapServers() {
        return running().bootstrapServers();
    }

    @Override
    public int brokerCount() {
        return running().brokerCount();
    }

    /** The underlying cluster, for tests that need more than the fixture offers. */
    public EmbeddedKafka cluster() {
        return running();
    }

    private EmbeddedKafka running() {
        if (kafka == null) {
            throw new IllegalStateException("Kafka is not running: register the extension on a static field");
        }
        return kafka;
    }
}
