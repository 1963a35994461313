package dev.fabrictwin.testing.kafka;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The same {@link KafkaFixture} backed by the official {@code apache/kafka} image through Testcontainers.
 *
 * <p>Where no Docker engine answers, the test class is reported as skipped (aborted) with the reason;
 * it never fails the build. Everything it covers is also covered by {@link KafkaClusterExtension}.
 */
public final class KafkaContainerExtension
        implements ExecutionCondition, BeforeAllCallback, AfterAllCallback, KafkaFixture {

    static final String NO_DOCKER = "Docker is not available: the Testcontainers Kafka fixture is skipped "
        + "(the in-JVM KRaft fixture covers the same contract)";

    /** Same Kafka release as the client and in-JVM broker jars (see the parent POM). */
    public static final String IMAGE = "apache/kafka:4.3.1";

    private KafkaContainer container;

    /** Disables the whole class, reported as skipped with the reason, when no Docker engine answers. */
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(final ExtensionContext context) {
        return dockerAvailable()
            ? ConditionEvaluationResult.enabled("Docker is available")
            : ConditionEvaluationResult.disabled(NO_DOCKER);
    }

    @Override
    public void beforeAll(final ExtensionContext context) {
        container = new KafkaContainer(IMAGE);
        container.start();
    }

    @Override
    public void afterAll(final ExtensionContext context) {
        if (container != null) {
            container.stop();
            container = null;
        }
    }

    @Override
    public String bootstrapServers() {
        return container.getBootstrapServers();
    }

    @Override
    public int brokerCount() {
        return 1;
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
