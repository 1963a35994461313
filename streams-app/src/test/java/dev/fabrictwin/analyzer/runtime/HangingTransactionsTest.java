package dev.fabrictwin.analyzer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class HangingTransactionsTest {

    private static final TopicPartition JOURNAL = new TopicPartition("app-analysis-journal-changelog", 0);
    private static final TopicPartition ALERTS = new TopicPartition("fabric.alerts", 3);
    private static final OpenTransaction OPEN = new OpenTransaction(JOURNAL, 3002, (short) 54, 1587, 0, 7);
    private static final String ID = "app-b68ce96f-1";
    private static final long MIN_AGE = 60_000;

    private static Optional<TransactionDescription> coordinator(final TransactionState state, final long producerId,
                                                                final int epoch, final TopicPartition... partitions) {
        return Optional.of(new TransactionDescription(1, state, producerId, epoch, 10_000, OptionalLong.empty(),
            Set.of(partitions)));
    }

    private static Optional<String> judge(final Optional<TransactionDescription> coordinator) {
        return HangingTransactions.whyHanging(OPEN, Optional.of(ID), coordinator, MIN_AGE, MIN_AGE, "app-");
    }

    @Test
    void aTransactionItsCoordinatorStillHasIsNotHanging() {
        assertThat(judge(coordinator(TransactionState.ONGOING, 3002, 54, JOURNAL, ALERTS))).isEmpty();
        assertThat(judge(coordinator(TransactionState.PREPARE_COMMIT, 3002, 54, JOURNAL))).isEmpty();
        assertThat(judge(coordinator(TransactionState.PREPARE_ABORT, 3002, 54, JOURNAL))).isEmpty();
        // being committed at the next epoch (transaction version 2 bumps it at the end): its markers will come
        assertThat(judge(coordinator(TransactionState.PREPARE_COMMIT, 3002, 55, JOURNAL))).isEmpty();
    }

    @Test
    void theCaseSeenInCiAnIdleTransactionalIdHangs() {
        assertThat(judge(coordinator(TransactionState.EMPTY, 3002, 55)))
            .contains(ID + " has no transaction in progress (Empty, epoch 55)");
    }

    @Test
    void aCoordinatorWithAnotherProducerIdOrNoTransactionOrOneWithoutThePartitionMeansHanging() {
        assertThat(judge(coordinator(TransactionState.COMPLETE_ABORT, 3002, 56, JOURNAL))).get().asString()
            .contains("no transaction in progress (CompleteAbort");
        assertThat(judge(coordinator(TransactionState.COMPLETE_COMMIT, 4001, 0))).get().asString()
            .contains("producer id 4001");
        assertThat(judge(coordinator(TransactionState.ONGOING, 3002, 55, ALERTS))).get().asString()
            .contains("does not include " + JOURNAL);
    }

    @Test
    void nothingIsJudgedBeforeItsAgeNorOutsideTheApplicationNorWithoutTheCoordinatorsWord() {
        final Optional<TransactionDescription> idle = coordinator(TransactionState.EMPTY, 3002, 54);
        assertThat(HangingTransactions.whyHanging(OPEN, Optional.of(ID), idle, MIN_AGE - 1, MIN_AGE, "app-")).isEmpty();
        assertThat(HangingTransactions.whyHanging(OPEN, Optional.of("other-app-1"), idle, MIN_AGE, MIN_AGE, "app-"))
            .isEmpty();
        assertThat(HangingTransactions.whyHanging(OPEN, Optional.empty(), idle, MIN_AGE, MIN_AGE, "app-")).isEmpty();
        assertThat(HangingTransactions.whyHanging(OPEN, Optional.of(ID), Optional.empty(), MIN_AGE, MIN_AGE, "app-"))
            .isEmpty();
        assertThat(judge(coordinator(TransactionState.UNKNOWN, 3002, 54))).isEmpty();
    }

    /**
     * After a broker restart a committed transaction had lost its marker on one lane and one changelog;
     * aborting it there dropped intervals the changelog said were sent (false SILENT_DROP roots in AnalyzerChaosTest).
     */
    @Test
    void aTransactionItsCoordinatorShowsCommittedIsNeverAbortedHere() {
        assertThat(committed(TransactionState.COMPLETE_COMMIT, 3002, 55, 2)).isTrue();
        assertThat(committed(TransactionState.PREPARE_COMMIT, 3002, 55, 2)).isTrue();
        assertThat(committed(TransactionState.COMPLETE_ABORT, 3002, 55, 2)).as("aborted: the abort writes its outcome")
            .isFalse();
        assertThat(committed(TransactionState.COMPLETE_COMMIT, 3002, 57, 2)).as("a later transaction's outcome").isFalse();
        assertThat(committed(TransactionState.EMPTY, 4001, 0, 2)).isFalse();
        assertThat(committed(TransactionState.COMPLETE_COMMIT, 3002, 55, 1))
            .as("version 1: the next epoch is the producer's next session").isFalse();
    }

    private static boolean committed(final TransactionState state, final long producerId, final int epoch,
                                     final int transactionVersion) {
        return HangingTransactions.committedElsewhere(OPEN, coordinator(state, producerId, epoch).get(),
            (short) transactionVersion);
    }
}
