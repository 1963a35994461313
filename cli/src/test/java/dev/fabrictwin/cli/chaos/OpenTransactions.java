package dev.fabrictwin.cli.chaos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * The partitions a read_committed reader cannot read to their end, and the transactions holding them: the
 * post-mortem of a run that stopped publishing. A transaction a few hundred ms old is the analyzers' normal traffic;
 * one older than the producers' timeout (10 s) is what holds a restore or a lane back.
 */
final class OpenTransactions {

    private OpenTransactions() {
    }

    /** One line per held partition of the topics whose names start with {@code prefix}; never throws. */
    static String describe(final Properties client, final String prefix) {
        try (Admin admin = Admin.create(client)) {
            final Set<String> topics = admin.listTopics().names().get(10, TimeUnit.SECONDS).stream()
                .filter(t -> t.startsWith(prefix)).collect(Collectors.toSet());
            final List<TopicPartition> partitions = new ArrayList<>();
            admin.describeTopics(topics).allTopicNames().get(10, TimeUnit.SECONDS).forEach((name, d) ->
                d.partitions().forEach(p -> partitions.add(new TopicPartition(name, p.partition()))));
            final Map<TopicPartition, OffsetSpec> latest = partitions.stream()
                .collect(Collectors.toMap(Function.identity(), p -> OffsetSpec.latest()));
            final Map<TopicPartition, ListOffsetsResultInfo> stable = admin.listOffsets(latest,
                new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get(10, TimeUnit.SECONDS);
            final Map<TopicPartition, ListOffsetsResultInfo> end = admin.listOffsets(latest,
                new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all().get(10, TimeUnit.SECONDS);
            final List<TopicPartition> held = partitions.stream()
                .filter(p -> stable.get(p).offset() < end.get(p).offset()).sorted(
                    Comparator.comparing(TopicPartition::toString)).toList();
            if (held.isEmpty()) {
                return "no partition is held by an open transaction";
            }
            final Map<Long, TransactionListing> transactions = admin.listTransactions().all().get(10, TimeUnit.SECONDS)
                .stream().collect(Collectors.toMap(TransactionListing::producerId, Function.identity(), (a, b) -> a));
            final long now = System.currentTimeMillis();
            final StringBuilder out = new StringBuilder();
            admin.describeProducers(held).all().get(10, TimeUnit.SECONDS).forEach((p, d) -> {
                out.append(String.format("%s: stable %d, end %d;", p, stable.get(p).offset(), end.get(p).offset()));
                for (final ProducerState s : d.activeProducers()) {
                    if (s.currentTransactionStartOffset().isPresent()) {
                        final TransactionListing t = transactions.get(s.producerId());
                        out.append(String.format(" producer %d epoch %d from offset %d, last write %d ms ago, %s",
                            s.producerId(), s.producerEpoch(), s.currentTransactionStartOffset().getAsLong(),
                            now - s.lastTimestamp(), t == null ? "unknown to the coordinators"
                                : t.transactionalId() + " " + t.state()));
                    }
                }
                out.append('\n');
            });
            return out.toString();
        } catch (Exception e) {
            return "cannot describe the open transactions: " + e;
        }
    }
}
