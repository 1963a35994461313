package dev.fabrictwin.ingest;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import dev.fabrictwin.contract.sample.RejectReason;


/** Counts for the ingest summary line: records in, samples out, rejected by reason. */
public final class IngestStats {

    private long records;
    private long samples;
    private final Map<RejectReason, Long> rejected = new EnumMap<>(RejectReason.class);
    private final Map<String, Long> dropped = new TreeMap<>();
    private final Map<String, Long> warnings = new LinkedHashMap<>();

    public synchronized void record() {
        records++;
    }

    public synchronized void sample() {
        samples++;
    }

    public synchronized void reject(final RejectReason reason) {
        rejected.merge(reason, 1L, Long::sum);
    }

    /** One value left out of a sample on purpose (see {@code IngestSink#dropped}). */
    public synchronized void dropped(final String reason) {
        dropped.merge(reason, 1L, Long::sum);
    }

    /** A warning about input that was read (see {@code IngestSink#warn}), counted by its text. */
    public synchronized void warn(final String message) {
        warnings.merge(message, 1L, Long::sum);
    }

    /** Each distinct warning once, with how often it came: {@code <text> (3 times)}. */
    public synchronized List<String> warnings() {
        return warnings.entrySet().stream().map(e -> e.getKey() + (e.getValue() > 1 ? " (" + e.getValue() + " times)" : ""))
            .toList();
    }

    public synchronized Map<String, Long> droppedByReason() {
        return Map.copyOf(dropped);
    }

    public synchronized long records() {
        return records;
    }

    public synchronized long samples() {
        return samples;
    }

    public synchronized long rejected() {
        return rejected.values().stream().mapToLong(Long::longValue).sum();
    }

    public synchronized Map<RejectReason, Long> rejectedByReason() {
        return Map.copyOf(rejected);
    }

    /** {@code records in: 12, samples out: 40, rejected: 2 (negative-counter 1, malformed 1)}, then
     *  {@code , values dropped: 3 (speed-unknown 3)} when a sample went out without some of its values. */
    public synchronized String summary() {
        final String reasons = rejected.isEmpty() ? "" : rejected.entrySet().stream()
            .map(e -> e.getKey().code() + " " + e.getValue()).collect(Collectors.joining(", ", " (", ")"));
        final String values = dropped.isEmpty() ? "" : ", values dropped: " + dropped.values().stream()
            .mapToLong(Long::longValue).sum() + dropped.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
            .collect(Collectors.joining(", ", " (", ")"));
        return "records in: " + records + ", samples out: " + samples + ", rejected: " + rejected() + reasons + values;
    }
}
