package dev.fabrictwin.kafka.common;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates topics and waits until they can take writes.
 *
 * <p>Waiting for leaders matters: a broker that has not yet applied a new topic's metadata answers an
 * idempotent producer's first request with a retriable error, a later request can overtake it, and the
 * first batch is then rejected as out of order and lost (KAFKA-15591, open in Kafka 4.3). Producing only
 * once every partition has a leader avoids that window.
 */
public final class KafkaTopics {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private KafkaTopics() {
    }

    /** Creates each topic that does not exist yet, then waits until every partition has a leader. */
    public static void createAndAwait(final Admin admin, final Collection<NewTopic> topics) {
        try {
            final List<String> notOurs = new ArrayList<>();
            for (final var entry : admin.createTopics(topics).values().entrySet()) {
                try {
                    entry.getValue().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof TopicAuthorizationException) {
                        notOurs.add(entry.getKey());
                    } else if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + entry.getKey() + ": "
                            + e.getCause().getMessage(), e.getCause());
                    }
                }
            }
            requireExisting(admin, notOurs);
            awaitLeaders(admin, topics.stream().map(NewTopic::name).toList());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("timed out after " + TIMEOUT + " creating topics " + topics, e);
        }
    }

    /**
     * Topics the principal may not create (no CREATE ACL: the broker answers "not authorized" even when they exist)
     * are fine once an operator has created them; a missing one is named with the ACL that would let us create it.
     */
    private static void requireExisting(final Admin admin, final List<String> names)
            throws InterruptedException, TimeoutException {
        for (final String name : names) {
            try {
                admin.describeTopics(List.of(name)).allTopicNames().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw new KafkaAccessException(e.getCause() instanceof UnknownTopicOrPartitionException
                    ? "topic " + name + " does not exist and this principal may not create it (create it, or grant "
                        + "CREATE on it)"
                    : "not authorized to describe topic " + name + " (grant DESCRIBE on it): " + e.getCause().getMessage(),
                    e.getCause());
            }
        }
    }

    /**
     * Fails with one line naming the first topic this principal may not read or write as a command needs: checked
     * before a client starts, since a denial inside Kafka Streams surfaces as a cascade of thread errors. A broker that
     * does not report authorized operations (no authorizer) is not second-guessed.
     */
    public static void requireAccess(final Admin admin, final Collection<String> reads, final Collection<String> writes) {
        final List<String> names = Stream.concat(reads.stream(), writes.stream()).distinct().toList();
        final Map<String, TopicDescription> described;
        try {
            described = admin.describeTopics(names, new DescribeTopicsOptions()
                .includeAuthorizedOperations(true)).allTopicNames().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new KafkaAccessException("cannot describe topics " + names + ": " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing topics", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("timed out after " + TIMEOUT + " describing topics " + names, e);
        }
        for (final String name : reads) {
            require(described.get(name), AclOperation.READ, "read");
        }
        for (final String name : writes) {
            require(described.get(name), AclOperation.WRITE, "write to");
        }
    }

    private static void require(final TopicDescription topic, final AclOperation operation,
                                final String verb) {
        final Set<AclOperation> allowed = topic.authorizedOperations();
        if (allowed == null || allowed.contains(operation) || allowed.contains(AclOperation.ALL)) {
            return;
        }
        throw new KafkaAccessException("not authorized to " + verb + " topic " + topic.name() + " (grant " + operation
            + " on it to this principal; docs/security.md lists each command's ACLs)",
            new TopicAuthorizationException(Set.of(topic.name())));
    }

    private static void awaitLeaders(final Admin admin, final List<String> names)
            throws InterruptedException, TimeoutException {
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                final Map<String, TopicDescription> described =
                    admin.describeTopics(names).allTopicNames().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                final boolean ready = described.values().stream()
                    .flatMap(d -> d.partitions().stream())
                    .allMatch(p -> p.leader() != null && !p.leader().isEmpty())
                    && leadersServe(admin, described);
                if (ready) {
                    return;
                }
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new IllegalStateException("cannot describe topics " + names, e.getCause());
                }
            }
            TimeUnit.MILLISECONDS.sleep(20); // pause between polls of a deadline-bounded wait
        }
        throw new TimeoutException("partitions of " + names + " have no leader after " + TIMEOUT);
    }

    /**
     * True once every partition's leader answers a ListOffsets request for it, i.e. has opened the
     * partition's log: metadata naming a leader can precede that, and a produce in the gap risks KAFKA-15591.
     */
    private static boolean leadersServe(final Admin admin,
                                        final Map<String, TopicDescription> described)
            throws InterruptedException {
        final Map<TopicPartition, OffsetSpec> latest =
            new HashMap<>();
        described.forEach((name, d) -> d.partitions().forEach(p ->
            latest.put(new TopicPartition(name, p.partition()),
                OffsetSpec.latest())));
        try {
            admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
            return true;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }
}
