package dev.fabrictwin.analyzer.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Notices that a topic the analyzer reads is gone from the cluster: a broker that came back without its data, or a
 * topic deleted under it. Kafka Streams would sit RUNNING at 0 samples/s for good while its global consumer logs the
 * missing partitions (1,300 lines a second); the caller stops with one line instead. Only a definite answer
 * counts, twice in a row: the cluster says the topic does not exist. A cluster that does not answer (a restarting
 * broker) or answers otherwise says nothing here.
 *
 * <p>Cost: one metadata request for three topics per check, whatever the fabric's size.
 */
final class InputTopicWatch implements AutoCloseable {

    private static final long TIMEOUT_S = 5;
    private final Admin admin;
    private final List<String> topics;
    private final String bootstrap;
    private String missingBefore;

    /** Watches {@code topics} (closed with the watch: an admin client of its own from the Streams settings). */
    public InputTopicWatch(final Properties streamsConfig, final List<String> topics) {
        this(Admin.create(AnalyzerApp.adminConfig(streamsConfig)), topics,
            String.valueOf(streamsConfig.get("bootstrap.servers")));
    }

    InputTopicWatch(final Admin admin, final List<String> topics, final String bootstrap) {
        this.admin = admin;
        this.topics = List.copyOf(topics);
        this.bootstrap = bootstrap;
    }

    /**
     * One look: why the analysis cannot go on (a topic the cluster said twice in a row it does not have), or empty.
     * Blocks for at most a few seconds.
     */
    public Optional<String> check() throws InterruptedException {
        final String missing = firstMissing();
        final boolean again = missing != null && missing.equals(missingBefore);
        missingBefore = missing;
        return again ? Optional.of(gone(missing)) : Optional.empty();
    }

    /** As {@link #check()} on a single answer: for when the analysis has already stopped, which confirms it. */
    public Optional<String> checkOnce() throws InterruptedException {
        return Optional.ofNullable(firstMissing()).map(this::gone);
    }

    private String gone(final String topic) {
        return "topic " + topic + " is gone from Kafka at " + bootstrap + " (a broker that came back without its data, "
            + "or the topic deleted)";
    }

    /** The first topic the cluster says it does not have; null when all are there or the cluster did not say. */
    private String firstMissing() throws InterruptedException {
        final var answers = admin.describeTopics(topics).topicNameValues();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        for (final String topic : topics) {
            try {
                answers.get(topic).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    return topic;
                }
            } catch (TimeoutException e) {
                return null;
            }
        }
        return null;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(1));
    }
}
