package dev.fabrictwin.contract;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;

import dev.fabrictwin.kafka.common.BrokerProbe;
import dev.fabrictwin.kafka.common.KafkaAccessException;
import dev.fabrictwin.kafka.common.KafkaTopics;

/**
 * Creates fabric-twin's topics when they are missing (existing ones are left alone): compacted topology and
 * jobs topics, partitioned samples, and the rest; then waits until every partition's leader serves it, so the first
 * produce cannot race the topic's creation.
 */
public final class TopicSetup {

    private TopicSetup() {
    }

    /** How long the first answer may take before {@link BrokerProbe} looks for a cause (the wait goes on if none). */
    private static final long PROBE_AFTER_S = 3;
    private static final long REACH_TIMEOUT_S = 30;

    public static void ensure(final Properties clientConfig, final Topics topics) {
        final Admin admin = Admin.create(clientConfig);
        try {
            create(admin, clientConfig, topics);
        } finally {
            // a call still retrying would otherwise hold close() for the client's whole api timeout (60 s)
            admin.close(Duration.ofSeconds(1));
        }
    }

    private static void create(final Admin admin, final Properties clientConfig, final Topics topics) {
        final int brokers = brokers(admin, clientConfig);
        final short rf = (short) Math.max(1, Math.min(3, brokers));
        final List<NewTopic> wanted = new ArrayList<>();
        for (final TopicSpec<?, ?> spec : topics.all()) {
            wanted.add(spec.newTopic(rf));
        }
        KafkaTopics.createAndAwait(admin, wanted);
    }

    /**
     * {@link #ensure} then {@link #requireAccess} on one admin client (a start-up pays one connection, not two): the
     * topics exist, and the principal may read {@code reads} and write {@code writes}.
     */
    public static void ensureWithAccess(final Properties clientConfig, final Topics topics, final Collection<String> reads,
                                        final Collection<String> writes) {
        final Admin admin = Admin.create(clientConfig);
        try {
            create(admin, clientConfig, topics);
            KafkaTopics.requireAccess(admin, reads, writes);
        } finally {
            admin.close(Duration.ofSeconds(1));
        }
    }

    /** As {@link KafkaTopics#requireAccess}: one line naming a topic the principal may not read or write. */
    public static void requireAccess(final Properties clientConfig, final Collection<String> reads,
                                     final Collection<String> writes) {
        final Admin admin = Admin.create(clientConfig);
        try {
            KafkaTopics.requireAccess(admin, reads, writes);
        } finally {
            admin.close(Duration.ofSeconds(1));
        }
    }

    /**
     * The number of brokers, or a one-line {@link KafkaAccessException}: a failed login or TLS handshake at once, a
     * protocol mismatch (which the client only sees as dropped connections) after a few seconds, no broker (it may be
     * starting) after {@link #REACH_TIMEOUT_S}.
     */
    private static int brokers(final Admin admin, final Properties clientConfig) {
        final String where = "Kafka at " + clientConfig.get("bootstrap.servers");
        final KafkaFuture<Collection<Node>> nodes = admin.describeCluster().nodes();
        try {
            try {
                return nodes.get(PROBE_AFTER_S, TimeUnit.SECONDS).size();
            } catch (TimeoutException e) {
                final Optional<BrokerProbe.Finding> cause = BrokerProbe.diagnose(clientConfig);
                if (cause.isPresent() && cause.get().conclusive()) {
                    throw new KafkaAccessException("cannot reach " + where + ": " + cause.get().message(), e);
                }
                return nodes.get(REACH_TIMEOUT_S - PROBE_AFTER_S, TimeUnit.SECONDS).size();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while connecting to " + where, e);
        } catch (TimeoutException e) {
            throw new KafkaAccessException("cannot reach " + where + ": no answer within " + REACH_TIMEOUT_S + " s"
                + BrokerProbe.diagnose(clientConfig).map(f -> ": " + f.message()).orElse(""), e);
        } catch (ExecutionException e) {
            final Throwable cause = e.getCause();
            if (cause instanceof SslAuthenticationException) {
                throw new KafkaAccessException("SSL handshake with " + where + " failed (check ssl.truststore.* in the "
                    + "config): " + rootMessage(cause), cause);
            }
            if (cause instanceof AuthenticationException) {
                throw new KafkaAccessException("authentication with " + where + " failed (check sasl.* in the config): "
                    + cause.getMessage(), cause);
            }
            // e.g. a plaintext client reading a TLS listener's answer as a huge response size: its thread dies
            throw new KafkaAccessException("cannot reach " + where + ": "
                + BrokerProbe.diagnose(clientConfig).map(BrokerProbe.Finding::message).orElse(cause.getMessage()), cause);
        }
    }

    private static String rootMessage(final Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage();
    }
}
