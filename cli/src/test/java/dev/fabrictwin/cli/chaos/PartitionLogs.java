package dev.fabrictwin.cli.chaos;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.Record;

/**
 * A partition's batches as each broker wrote them to disk: offsets, producer id and epoch, and the commit and abort
 * markers that read_committed consumers never see. A marker missing on one partition (a split outcome: one
 * partition's share of a committed transaction aborted) shows only here, so a chaos run whose lanes
 * have a gap prints the batches around it.
 */
final class PartitionLogs {

    /** "lane-3-repartition@778, then lane-3-repartition@789": where a lane fault was read. */
    private static final Pattern AROUND = Pattern.compile("(lane-\\d+-repartition)@(\\d+), then lane-\\d+-repartition@(\\d+)");

    private PartitionLogs() {
    }

    /** The batches around the first lane fault that names its offsets, from every broker's copy; empty if none does. */
    static List<String> aroundFirstFault(final Path brokerData, final String applicationId, final List<String> faults) {
        for (final String fault : faults) {
            final Matcher m = AROUND.matcher(fault);
            if (m.find()) {
                return batches(brokerData, applicationId + "-analyzer-intervals-" + m.group(1) + "-0",
                    Long.parseLong(m.group(2)), Long.parseLong(m.group(3)));
            }
        }
        return List.of();
    }

    /** Every batch of {@code partition} (a directory name, topic-partition) overlapping [from, to], per broker. */
    static List<String> batches(final Path brokerData, final String partition, final long from, final long to) {
        final List<String> out = new ArrayList<>();
        try (Stream<Path> nodes = Files.list(brokerData)) {
            for (final Path node : nodes.sorted().toList()) {
                final Path dir = node.resolve(partition);
                if (Files.isDirectory(dir)) {
                    out.addAll(batchesOf(node.getFileName() + " " + partition, dir, from, to));
                }
            }
        } catch (IOException e) {
            out.add("cannot list " + brokerData + ": " + e.getMessage());
        }
        return out;
    }

    private static List<String> batchesOf(final String name, final Path dir, final long from, final long to) throws IOException {
        final List<String> out = new ArrayList<>();
        final List<Path> segments;
        try (Stream<Path> files = Files.list(dir)) {
            segments = files.filter(f -> f.toString().endsWith(".log")).sorted().toList();
        }
        for (final Path segment : segments) {
            final File file = segment.toFile();
            try (FileRecords records = FileRecords.open(file)) {
                for (final FileChannelRecordBatch b : records.batches()) {
                    if (b.lastOffset() < from || b.baseOffset() > to) {
                        continue;
                    }
                    out.add(String.format("%s %d-%d producer %d epoch %d%s", name, b.baseOffset(), b.lastOffset(),
                        b.producerId(), b.producerEpoch(), b.isControlBatch() ? " " + marker(b) : ""));
                }
            } catch (RuntimeException e) { // a log cut short under its broker reads as corrupt from there on
                out.add(name + " unreadable after the lines above: " + e.getMessage());
            }
        }
        return out;
    }

    private static String marker(final FileChannelRecordBatch batch) {
        final Iterator<Record> records = batch.iterator();
        return records.hasNext() ? ControlRecordType.parse(records.next().key()).name() : "(empty control batch)";
    }
}
