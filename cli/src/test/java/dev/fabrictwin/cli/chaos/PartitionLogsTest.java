package dev.fabrictwin.cli.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The post-mortem reader on a segment written as a broker writes one: a transaction's records, then its marker. */
class PartitionLogsTest {

    @TempDir
    Path data;

    @Test
    void shouldShowEachBatchsProducerAndTheMarkersReadCommittedHides() throws Exception {
        final Path dir = Files.createDirectories(data.resolve("node-2").resolve("app-analyzer-intervals-lane-2-repartition-0"));
        try (FileRecords log = FileRecords.open(dir.resolve("00000000000000000000.log").toFile())) {
            log.append(MemoryRecords.withTransactionalRecords(1295, Compression.NONE, 2001L, (short) 5, 0, 0,
                new SimpleRecord("a".getBytes()), new SimpleRecord("b".getBytes()), new SimpleRecord("c".getBytes())));
            log.append(MemoryRecords.withEndTransactionMarker(1298, 0L, 0, 2001L, (short) 6,
                new EndTransactionMarker(ControlRecordType.ABORT, 1)));
        }

        final List<String> around = PartitionLogs.aroundFirstFault(data, "app", List.of(
            "host-14/nic0: nothing committed for [1, 2] (2 samples between; read at lane-2-repartition@1296, then "
                + "lane-2-repartition@1300)"));

        assertThat(around).containsExactly(
            "node-2 app-analyzer-intervals-lane-2-repartition-0 1295-1297 producer 2001 epoch 5",
            "node-2 app-analyzer-intervals-lane-2-repartition-0 1298-1298 producer 2001 epoch 6 ABORT");
    }
}
