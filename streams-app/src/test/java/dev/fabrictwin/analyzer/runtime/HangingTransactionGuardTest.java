package dev.fabrictwin.analyzer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.fabrictwin.testing.kafka.KafkaClusterExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** The guard against a real broker (transaction version 2): what it sees, what it leaves alone, how it aborts. */
class HangingTransactionGuardTest {

    @RegisterExtension
    static final KafkaClusterExtension KAFKA = KafkaClusterExtension.singleBroker();

    private static final String APP = "guarded";
    private static final TopicPartition CHANGELOG = new TopicPartition(APP + "-journal-changelog", 0);
    private static final TopicPartition ALERTS = new TopicPartition("guarded.alerts", 0);

    private static KafkaProducer<String, String> transactional(final String id) {
        final Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, id);
        // long enough that the coordinator does not end the transaction during the test
        p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 600_000);
        final KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
        producer.initTransactions();
        return producer;
    }

    private static long held(final Admin admin, final TopicPartition p) throws Exception {
        final long stable = admin.listOffsets(Map.of(p, OffsetSpec.latest()),
            new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get(30, TimeUnit.SECONDS).get(p).offset();
        final long end = admin.listOffsets(Map.of(p, OffsetSpec.latest())).all().get(30, TimeUnit.SECONDS).get(p).offset();
        return end - stable;
    }

    @Test
    void leavesLiveTransactionsAloneAndItsAbortFreesAPartition() throws Exception {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        final AtomicLong clock = new AtomicLong(1_000_000);
        try (Admin admin = KAFKA.cluster().admin();
             KafkaProducer<String, String> ours = transactional(APP + "-process-1");
             KafkaProducer<String, String> theirs = transactional("someone-else-1");
             HangingTransactionGuard guard = new HangingTransactionGuard(KAFKA.cluster().admin(),
                 KAFKA.bootstrapServers(), APP, List.of(ALERTS.topic()), 60_000, clock::get, registry)) {
            admin.createTopics(List.of(new NewTopic(CHANGELOG.topic(), 1, (short) 1), new NewTopic(ALERTS.topic(), 1,
                (short) 1), new NewTopic("unrelated", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            assertThat(guard.open()).isEmpty();

            ours.beginTransaction();
            ours.send(new ProducerRecord<>(CHANGELOG.topic(), "k", "v")).get(30, TimeUnit.SECONDS);
            theirs.beginTransaction();
            theirs.send(new ProducerRecord<>(ALERTS.topic(), "k", "v")).get(30, TimeUnit.SECONDS);
            theirs.send(new ProducerRecord<>("unrelated", "k", "v")).get(30, TimeUnit.SECONDS);

            // both open transactions on the written partitions are seen; the unrelated topic is not looked at
            final List<OpenTransaction> open = guard.open();
            assertThat(open).extracting(OpenTransaction::partition).containsExactlyInAnyOrder(CHANGELOG, ALERTS);
            assertThat(guard.check()).isEmpty();
            // an hour later, unchanged: ours is still ongoing at its coordinator, theirs is not ours to judge
            clock.addAndGet(Duration.ofHours(1).toMillis());
            assertThat(guard.check()).isEmpty();
            assertThat(held(admin, CHANGELOG)).isEqualTo(1);
            assertThat(registry.counter("fabric.kafka.hanging.transactions.aborted").count()).isZero();

            // the abort the guard writes for a hanging transaction frees the partition (here a live one, on purpose)
            final OpenTransaction changelog = open.stream().filter(t -> t.partition().equals(CHANGELOG)).findFirst()
                .orElseThrow();
            admin.abortTransaction(changelog.abortSpec()).all().get(30, TimeUnit.SECONDS);
            assertThat(held(admin, CHANGELOG)).isZero();
            assertThat(guard.open()).extracting(OpenTransaction::partition).containsExactly(ALERTS);
            assertThat(changelog.operatorCommand("h:9092")).isEqualTo("kafka-transactions.sh --bootstrap-server h:9092"
                + " abort --topic guarded-journal-changelog --partition 0 --start-offset 0");
            theirs.abortTransaction();
        }
    }
}
