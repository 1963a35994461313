package dev.fabrictwin.analyzer.runtime;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Finds the hanging transactions (see {@link HangingTransactions}) on the partitions this analyzer writes: its
 * changelogs, its lanes and its output topics. Kafka can leave one behind across broker restarts (seen here on 4.3.1
 * with transaction version 2: a transaction's marker never reached one partition, whose read_committed readers then
 * stop there for good). It is aborted (Kafka's admin API can only abort; KIP-664's remedy) after {@code minAgeMs} plus at
 * most one check period, logged with its reason and counted ({@code fabric_kafka_hanging_transactions_aborted_total});
 * one the broker refuses to abort (that needs the cluster's ClusterAction permission) is logged with the
 * {@code kafka-transactions.sh} command an operator can run instead. One its coordinator shows committed is left as it
 * is, logged once and counted ({@code fabric_kafka_hanging_transactions_left_total}): an abort would drop committed
 * records from this partition alone (AnalyzerChaosTest saw exactly that: a lane's intervals lost, a changelog's writes
 * undone under outputs that stood).
 *
 * <p>Cost: two offset listings over the written partitions per check, and a describe of only the partitions a
 * transaction holds; at 32k GPUs that is still a few hundred partitions every 30 s.
 */
final class HangingTransactionGuard implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HangingTransactionGuard.class);
    private static final long TIMEOUT_S = 30;

    private final Admin admin;
    private final String applicationId;
    private final Set<String> outputTopics;
    private final long minAgeMs;
    private final LongSupplier clock;
    private final Counter aborted;
    private final String bootstrap;
    private final ScheduledExecutorService schedule;
    private volatile String lastFailure = "";
    /** Hanging transactions left open (committed, their marker lost here), each reported once; bounded. */
    private final Set<OpenTransaction> reported = new HashSet<>();
    private static final int MAX_REPORTED = 1_000;
    private final Counter left;
    /** When each open transaction was first seen as it is now, by the guard's clock; only held partitions' entries. */
    private final Map<OpenTransaction, Long> firstSeen = new HashMap<>();

    /**
     * @param admin        closed with the guard
     * @param outputTopics topics the application writes besides its internal ones ({@code applicationId-*})
     * @param minAgeMs     how long a transaction must have gone without a write before it may be judged
     */
    HangingTransactionGuard(final Admin admin, final String bootstrap, final String applicationId,
                            final Collection<String> outputTopics, final long minAgeMs, final LongSupplier clock,
                            final MeterRegistry registry) {
        this.admin = admin;
        this.bootstrap = bootstrap;
        this.applicationId = applicationId;
        this.outputTopics = Set.copyOf(outputTopics);
        this.minAgeMs = minAgeMs;
        this.clock = clock;
        this.aborted = Counter.builder("fabric.kafka.hanging.transactions.aborted")
            .description("Transactions Kafka left open on a partition this analyzer writes, aborted by the analyzer")
            .register(registry);
        this.left = Counter.builder("fabric.kafka.hanging.transactions.left")
            .description("Transactions Kafka left open on a partition this analyzer writes that their coordinator "
                + "committed: not aborted (that would drop committed records), reported for an operator")
            .register(registry);
        this.schedule = Executors.newSingleThreadScheduledExecutor(r -> {
            final Thread t = new Thread(r, applicationId + "-hanging-transaction-guard");
            t.setDaemon(true);
            return t;
        });
    }

    /** Checks every {@code periodMs}, the first time after {@code firstMs}. */
    HangingTransactionGuard start(final long firstMs, final long periodMs) {
        schedule.scheduleWithFixedDelay(this::checkQuietly, firstMs, periodMs, TimeUnit.MILLISECONDS);
        return this;
    }

    private void checkQuietly() {
        try {
            check();
            lastFailure = "";
        } catch (ExecutionException | RuntimeException | TimeoutException e) {
            final String why = e instanceof ExecutionException ? String.valueOf(e.getCause()) : e.toString();
            if (!why.equals(lastFailure)) { // once per distinct failure, not every period
                LOG.warn("cannot look for hanging transactions (will retry): {}", why);
                lastFailure = why;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The open transactions on the partitions this application writes. */
    List<OpenTransaction> open() throws ExecutionException, InterruptedException, TimeoutException {
        return openTransactions(heldPartitions());
    }

    /** One pass: the hanging transactions found, each aborted (or logged when the broker refused). */
    synchronized List<OpenTransaction> check() throws ExecutionException, InterruptedException, TimeoutException {
        final List<OpenTransaction> hanging = new ArrayList<>();
        final List<OpenTransaction> open = open();
        final long now = clock.getAsLong();
        firstSeen.keySet().retainAll(open);
        open.forEach(t -> firstSeen.putIfAbsent(t, now));
        final Set<Long> oldProducers = open.stream().filter(t -> now - firstSeen.get(t) >= minAgeMs)
            .map(OpenTransaction::producerId).collect(Collectors.toSet());
        if (oldProducers.isEmpty()) {
            return hanging;
        }
        final Map<Long, String> ids = admin.listTransactions(new ListTransactionsOptions().filterProducerIds(oldProducers))
            .all().get(TIMEOUT_S, TimeUnit.SECONDS).stream()
            .filter(l -> l.transactionalId().startsWith(applicationId + "-"))
            .collect(Collectors.toMap(TransactionListing::producerId, TransactionListing::transactionalId, (a, b) -> a));
        final Map<String, TransactionDescription> described = ids.isEmpty() ? Map.of()
            : admin.describeTransactions(new HashSet<>(ids.values())).all().get(TIMEOUT_S, TimeUnit.SECONDS);
        final List<OpenTransaction> judged = new ArrayList<>();
        final Map<OpenTransaction, String> reasons = new HashMap<>();
        final short version = transactionVersion();
        for (final OpenTransaction t : open) {
            final Optional<String> id = Optional.ofNullable(ids.get(t.producerId()));
            final Optional<TransactionDescription> coordinator = id.map(described::get);
            HangingTransactions.whyHanging(t, id, coordinator, now - firstSeen.get(t), minAgeMs,
                applicationId + "-").ifPresent(why -> {
                    if (HangingTransactions.committedElsewhere(t, coordinator.get(), version)) {
                        leave(t, why);
                    } else {
                        judged.add(t);
                        reasons.put(t, why);
                    }
                });
        }
        // the partitions were read before their coordinators: abort only what is still open, unchanged, after them
        final List<OpenTransaction> still = judged.isEmpty() ? List.of()
            : openTransactions(judged.stream().map(OpenTransaction::partition).distinct().toList());
        for (final OpenTransaction t : judged) {
            if (still.contains(t)) {
                hanging.add(t);
                abort(t, reasons.get(t), now - firstSeen.get(t));
            }
        }
        return hanging;
    }

    /** The cluster's finalized transaction version (0 when it says none): whether epochs move per transaction. */
    private short transactionVersion() throws ExecutionException, InterruptedException, TimeoutException {
        final FinalizedVersionRange v = admin.describeFeatures().featureMetadata().get(TIMEOUT_S, TimeUnit.SECONDS)
            .finalizedFeatures().get("transaction.version");
        return v == null ? 0 : v.maxVersionLevel();
    }

    /** Says once, for an operator, why a hanging transaction its coordinator committed is left as it is. */
    private void leave(final OpenTransaction t, final String why) {
        if (reported.size() < MAX_REPORTED && reported.add(t)) {
            left.increment();
            LOG.error("a transaction Kafka left open holds {} ({}), and its coordinator shows it committed: it lost only "
                + "its marker here, and aborting it would drop committed records; read_committed readers of the partition "
                + "wait at it. If losing them is acceptable, an operator can run: {}", t, why, t.operatorCommand(bootstrap));
        }
    }

    private void abort(final OpenTransaction t, final String why, final long openForMs) throws InterruptedException {
        try {
            admin.abortTransaction(t.abortSpec()).all().get(TIMEOUT_S, TimeUnit.SECONDS);
            aborted.increment();
            LOG.warn("aborted a hanging transaction on {}: open and unchanged for {} s, and {}; it held every "
                + "read_committed reader of the partition (a restoring changelog, a lane, alert consumers)", t,
                openForMs / 1000, why);
        } catch (ExecutionException | TimeoutException e) {
            LOG.error("a hanging transaction holds {} ({}), and the broker refused to abort it: {}; an operator can "
                + "run: {}", t, why, e instanceof ExecutionException ? e.getCause() : e, t.operatorCommand(bootstrap));
        }
    }

    /** This application's partitions whose last stable offset is behind their end: an open transaction holds them. */
    private List<TopicPartition> heldPartitions() throws ExecutionException, InterruptedException,
        TimeoutException {
        final Set<String> topics = admin.listTopics().names().get(TIMEOUT_S, TimeUnit.SECONDS).stream()
            .filter(t -> t.startsWith(applicationId + "-") || outputTopics.contains(t)).collect(Collectors.toSet());
        if (topics.isEmpty()) {
            return List.of();
        }
        final Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        admin.describeTopics(topics).allTopicNames().get(TIMEOUT_S, TimeUnit.SECONDS).forEach((name, d) ->
            d.partitions().forEach(p -> latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
        final Map<TopicPartition, ListOffsetsResultInfo> stable = admin.listOffsets(latest,
            new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get(TIMEOUT_S, TimeUnit.SECONDS);
        final Map<TopicPartition, ListOffsetsResultInfo> end = admin.listOffsets(latest,
            new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all().get(TIMEOUT_S, TimeUnit.SECONDS);
        return latest.keySet().stream().filter(p -> stable.get(p).offset() < end.get(p).offset()).toList();
    }

    private List<OpenTransaction> openTransactions(final List<TopicPartition> held) throws ExecutionException,
        InterruptedException, TimeoutException {
        if (held.isEmpty()) {
            return List.of();
        }
        final List<OpenTransaction> open = new ArrayList<>();
        admin.describeProducers(held).all().get(TIMEOUT_S, TimeUnit.SECONDS).forEach((p, d) -> {
            for (final ProducerState s : d.activeProducers()) {
                if (s.currentTransactionStartOffset().isPresent()) {
                    open.add(new OpenTransaction(p, s.producerId(), (short) s.producerEpoch(),
                        s.currentTransactionStartOffset().getAsLong(), s.lastTimestamp(), s.coordinatorEpoch().orElse(0)));
                }
            }
        });
        return open;
    }

    @Override
    public void close() {
        schedule.shutdownNow();
        try {
            schedule.awaitTermination(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        admin.close();
    }
}
