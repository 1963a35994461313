package dev.fabrictwin.analyzer.runtime;

import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * A transaction a partition's leader holds open: the producer that wrote it, from which offset, and the timestamp
 * of its last batch (the records' own time: in a replay, the data's time, not the write's). While it is open no read_committed reader of the partition (a restoring changelog, a lane, an alert
 * consumer) gets past {@code startOffset}.
 */
record OpenTransaction(TopicPartition partition, long producerId, short producerEpoch, long startOffset,
                              long lastBatchTimestamp, int coordinatorEpoch) {

    /** What the admin API needs to write the abort marker the coordinator never wrote. */
    AbortTransactionSpec abortSpec() {
        return new AbortTransactionSpec(partition, producerId, producerEpoch, coordinatorEpoch);
    }

    /** The command an operator would run instead (Kafka's own tool, KIP-664). */
    String operatorCommand(final String bootstrap) {
        return "kafka-transactions.sh --bootstrap-server " + bootstrap + " abort --topic " + partition.topic()
            + " --partition " + partition.partition() + " --start-offset " + startOffset;
    }

    @Override
    public String toString() {
        return partition + " (producer " + producerId + " epoch " + producerEpoch + ", open from offset " + startOffset + ")";
    }
}
