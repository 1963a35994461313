package dev.fabrictwin.analyzer.runtime;

import java.util.Optional;

import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;

/**
 * Which open transactions no one will ever finish. A partition's open transaction is ended by its transaction
 * coordinator: on commit, on abort, on the producer's timeout, or when a new instance with the same transactional id
 * starts. The coordinator can only end what it knows of. When the partition holds a transaction the coordinator no
 * longer has (its transactional id moved on to another producer id, or has no transaction in progress, or has one that
 * does not list the partition), the transaction "hangs": nothing will ever write its marker, and the partition's
 * read_committed readers stop at it for good. Kafka's own tool calls this {@code kafka-transactions.sh find-hanging};
 * the rule here is the same, plus: only transactions seen open, unchanged, for {@code minAgeMs} (well beyond the
 * producers' timeout, so the coordinator had every chance to end them, and so a transaction whose coordinator
 * finished it between the two reads is never mistaken for one it forgot), and only transactional ids of this
 * application.
 */
final class HangingTransactions {

    private HangingTransactions() {
    }

    /**
     * Why {@code open} hangs, or empty when it may still be ended by its coordinator (or is not ours to judge).
     *
     * @param openForMs       how long the partition has been seen holding {@code open} unchanged, by the caller's
     *                        clock (a record's timestamp is its data's time, not when it was written)
     * @param transactionalId the id the coordinators know {@code open}'s producer id by, if any
     * @param coordinator     that id's transaction as its coordinator describes it, if it could
     */
    public static Optional<String> whyHanging(final OpenTransaction open, final Optional<String> transactionalId,
                                              final Optional<TransactionDescription> coordinator, final long openForMs,
                                              final long minAgeMs, final String ownPrefix) {
        if (openForMs < minAgeMs || transactionalId.isEmpty()
            || !transactionalId.get().startsWith(ownPrefix) || coordinator.isEmpty()
            || coordinator.get().state() == TransactionState.UNKNOWN) {
            return Optional.empty();
        }
        final TransactionDescription d = coordinator.get();
        final String id = transactionalId.get();
        if (d.producerId() != open.producerId()) {
            return Optional.of(id + " now has producer id " + d.producerId());
        }
        if (d.state() == TransactionState.EMPTY || d.state() == TransactionState.COMPLETE_COMMIT
            || d.state() == TransactionState.COMPLETE_ABORT) {
            return Optional.of(id + " has no transaction in progress (" + d.state() + ", epoch " + d.producerEpoch() + ")");
        }
        // in progress (ongoing, or its markers being written): the coordinator ends it on every partition it lists,
        // whatever the epochs (a marker at a later epoch ends an earlier one's transaction too)
        if (!d.topicPartitions().contains(open.partition())) {
            return Optional.of(id + "'s " + d.state() + " transaction does not include " + open.partition());
        }
        return Optional.empty();
    }

    /**
     * Whether the coordinator shows a hanging {@code open} transaction committed: transaction version 2 ends each
     * transaction by bumping the epoch, so the same producer id at the next epoch in PrepareCommit or CompleteCommit
     * is that very transaction committed. Its marker was then lost on this partition alone (seen in AnalyzerChaosTest
     * after a broker restart): aborting it here would drop committed records from this partition only — a lane's
     * intervals, or a changelog's writes whose outputs stand — and break exactly-once. Under transaction version 1 the
     * epoch moves only when a producer starts again, so the next epoch's state is another session's: false.
     */
    public static boolean committedElsewhere(final OpenTransaction open, final TransactionDescription coordinator,
                                             final short transactionVersion) {
        return transactionVersion >= 2 && coordinator.producerId() == open.producerId()
            && coordinator.producerEpoch() == open.producerEpoch() + 1
            && (coordinator.state() == TransactionState.COMPLETE_COMMIT
                || coordinator.state() == TransactionState.PREPARE_COMMIT);
    }
}
