package dev.fabrictwin.contract;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.kafka.common.KafkaTopics;

/**
 * Creates fabric-twin's topics when they are missing (existing ones are left alone): compacted topology and
 * jobs topics, partitioned samples, and the rest; then waits until every partition's leader serves it, so the first
 * produce cannot race the topic's creation.
 */
public final class TopicSetup {

    private TopicSetup() {
    }

    public static void ensure(final Properties clientConfig, final Topics topics) {
        try (Admin admin = Admin.create(clientConfig)) {
            final int brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size();
            final short rf = (short) Math.max(1, Math.min(3, brokers));
            final List<NewTopic> wanted = new ArrayList<>();
            for (final TopicSpec<?, ?> spec : topics.all()) {
                wanted.add(spec.newTopic(rf));
            }
            KafkaTopics.createAndAwait(admin, wanted);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot reach Kafka at " + clientConfig.get("bootstrap.servers") + ": "
                + (e.getCause() == null ? e : e.getCause()).getMessage(), e);
        }
    }
}
