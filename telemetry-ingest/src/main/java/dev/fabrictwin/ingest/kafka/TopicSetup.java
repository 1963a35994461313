package dev.fabrictwin.ingest.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import dev.fabrictwin.twin.telemetry.Topics;

/**
 * Creates fabric-twin's topics when they are missing (existing ones are left alone): compacted topology and
 * jobs topics, partitioned samples, and the rest; then waits until every partition has a leader, so the first
 * produce cannot race the topic's creation.
 */
public final class TopicSetup {

    /** Partitions of {@code telemetry.samples} (keyed by device): the analyzer's unit of scale-out. */
    public static final int SAMPLE_PARTITIONS = 6;

    private TopicSetup() {
    }

    public static void ensure(final Properties clientConfig, final Topics topics) {
        try (Admin admin = Admin.create(clientConfig)) {
            final int brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size();
            final short rf = (short) Math.max(1, Math.min(3, brokers));
            final List<NewTopic> wanted = new ArrayList<>();
            for (final String name : topics.all()) {
                final int partitions = name.equals(topics.samples()) || name.equals(topics.deadLetter())
                    || name.equals(topics.alerts()) || name.equals(topics.jobHealth()) ? SAMPLE_PARTITIONS : 1;
                final NewTopic t = new NewTopic(name, partitions, rf);
                if (topics.compacted().contains(name)) {
                    t.configs(Map.of("cleanup.policy", "compact"));
                }
                wanted.add(t);
            }
            for (final var f : admin.createTopics(wanted).values().entrySet()) {
                try {
                    f.getValue().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + f.getKey() + ": " + e.getCause().getMessage(), e);
                    }
                }
            }
            awaitLeaders(admin, topics.all());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot reach Kafka at " + clientConfig.get("bootstrap.servers") + ": "
                + (e.getCause() == null ? e : e.getCause()).getMessage(), e);
        }
    }

    private static void awaitLeaders(final Admin admin, final List<String> names)
            throws InterruptedException, TimeoutException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try {
                final Map<String, org.apache.kafka.clients.admin.TopicDescription> described =
                    admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
                final boolean ready = described.values().stream()
                    .flatMap(d -> d.partitions().stream()).allMatch(p -> p.leader() != null && !p.leader().isEmpty())
                    && leadersServe(admin, described);
                if (ready) {
                    return;
                }
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new IllegalStateException("cannot describe topics: " + e.getCause().getMessage(), e);
                }
            }
            TimeUnit.MILLISECONDS.sleep(20); // pause between polls of a deadline-bounded wait
        }
        throw new TimeoutException("topics " + names + " have partitions without a leader after 60 s");
    }

    /**
     * True once every partition's leader answers a ListOffsets request for it, i.e. has opened the
     * partition's log: metadata naming a leader can precede that, and a produce in the gap risks KAFKA-15591.
     */
    private static boolean leadersServe(final Admin admin,
                                        final Map<String, org.apache.kafka.clients.admin.TopicDescription> described)
            throws InterruptedException {
        final Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest =
            new java.util.HashMap<>();
        described.forEach((name, d) -> d.partitions().forEach(p ->
            latest.put(new org.apache.kafka.common.TopicPartition(name, p.partition()),
                org.apache.kafka.clients.admin.OffsetSpec.latest())));
        try {
            admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
            return true;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }
}
