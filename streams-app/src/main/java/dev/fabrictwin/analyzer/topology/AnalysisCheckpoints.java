package dev.fabrictwin.analyzer.topology;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

import dev.fabrictwin.analyzer.checkpoint.AnalyzerCheckpoint;
import dev.fabrictwin.analyzer.rates.PortInterval;

/**
 * Makes the analysis task's heap state survive a restart or a move, exactly: a checkpoint of the whole
 * {@link AnalysisProgress} now and then, and a journal of every batch processed since. Both are changelogged
 * stores written in the same exactly-once transaction as the alerts and the input offsets, so whatever was
 * committed — the checkpoint plus the journal replayed on it — is precisely the state that produced the
 * committed output, and nothing is published twice (the journal is replayed silently).
 *
 * <p>Bounded by the fabric, not by time: one checkpoint (in chunks under the changelog's record limit) and at
 * most {@link #EVERY_WALL_MS} of wall time or {@link #MAX_JOURNAL_INTERVALS} intervals of journal; journal keys restart from 0 after each checkpoint and the
 * changelogs compact in small segments, so a restore reads about one checkpoint and one journal.
 */
final class AnalysisCheckpoints<P extends java.io.Serializable, B> {

    static final String CHECKPOINT_STORE = "analysis-checkpoint";
    static final String JOURNAL_STORE = "analysis-journal";
    /** The correlation stage's, when the analysis is sharded (its journal holds shard ticks). */
    static final String CORRELATION_CHECKPOINT_STORE = "correlation-checkpoint";
    static final String CORRELATION_JOURNAL_STORE = "correlation-journal";
    /** Under the 1 MiB default record limit of producer and broker, with room for key and headers. */
    static final int CHUNK_BYTES = 512 * 1024;
    /**
     * A checkpoint is written when this much wall time has passed since the last: live, that is 10 s of telemetry
     * to replay after a restart; while a backlog drains, event time runs far faster and checkpointing by it would
     * cost more than the analysis (bench streams: 90.6k → 22k samples/s).
     */
    static final long EVERY_WALL_MS = 10_000;
    /** ... or when the journal holds this many intervals, whatever the time: it never grows past it. */
    static final int MAX_JOURNAL_INTERVALS = 250_000;
    private static final String META = "meta";
    /** Changelog segments small and compacted eagerly: a restore reads about one checkpoint, not its history. */
    private static final Map<String, String> CHANGELOG = Map.of("cleanup.policy", "compact", "segment.bytes",
        String.valueOf(16 * 1024 * 1024), "segment.ms", "600000", "min.cleanable.dirty.ratio", "0.1",
        "delete.retention.ms", "600000");

    private final KeyValueStore<String, byte[]> checkpoint;
    private final KeyValueStore<Long, B> journal;
    private final Class<P> progressType;
    /** What a journaled batch weighs against {@link #MAX_JOURNAL_INTERVALS} (intervals, or one per shard tick). */
    private final java.util.function.ToIntFunction<B> weight;
    private long journalSize;
    private long journalIntervals;
    private long lastWallNanos = System.nanoTime();

    /** What a restart finds: the checkpointed progress and the batches processed after it, in order. */
    record Restored<P, B>(P progress, List<B> journal) {
    }

    AnalysisCheckpoints(final KeyValueStore<String, byte[]> checkpoint, final KeyValueStore<Long, B> journal,
                        final Class<P> progressType, final java.util.function.ToIntFunction<B> weight) {
        this.checkpoint = checkpoint;
        this.journal = journal;
        this.progressType = progressType;
        this.weight = weight;
    }

    /** The analysis task's: checkpoints of {@link AnalysisProgress}, a journal of interval batches. */
    static AnalysisCheckpoints<AnalysisProgress, List<PortInterval>> ofAnalysis(final org.apache.kafka.streams.processor.api.ProcessingContext context) {
        return new AnalysisCheckpoints<>(context.getStateStore(CHECKPOINT_STORE), context.getStateStore(JOURNAL_STORE),
            AnalysisProgress.class, List::size);
    }

    static List<StoreBuilder<?>> storeBuilders() {
        return storeBuilders(CHECKPOINT_STORE, JOURNAL_STORE, PortIntervalSerde.listSerde());
    }

    static <B> List<StoreBuilder<?>> storeBuilders(final String checkpointStore, final String journalStore,
                                                   final org.apache.kafka.common.serialization.Serde<B> journalSerde) {
        return List.of(
            Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(checkpointStore), Serdes.String(), Serdes.ByteArray())
                .withLoggingEnabled(CHANGELOG),
            Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(journalStore), Serdes.Long(), journalSerde)
                .withLoggingEnabled(CHANGELOG));
    }

    /**
     * The state the last committed transaction left, if any; empty on a first start. A checkpoint written by an
     * analyzer whose classes changed cannot be continued: {@link AnalyzerCheckpoint.IncompatibleCheckpointException}.
     */
    Optional<Restored<P, B>> restore() {
        final byte[] meta = checkpoint.get(META);
        final List<B> batches = new ArrayList<>();
        try (KeyValueIterator<Long, B> it = journal.all()) {
            it.forEachRemaining(kv -> batches.add(kv.value));
        }
        journalSize = batches.size();
        journalIntervals = batches.stream().mapToLong(weight::applyAsInt).sum();
        if (meta == null) {
            return Optional.empty();
        }
        final int chunks = ByteBuffer.wrap(meta).getInt();
        final byte[][] parts = new byte[chunks][];
        int total = 0;
        for (int i = 0; i < chunks; i++) {
            parts[i] = checkpoint.get(chunkKey(i));
            if (parts[i] == null) {
                throw new AnalyzerCheckpoint.IncompatibleCheckpointException("checkpoint chunk " + i + " of " + chunks + " is missing");
            }
            total += parts[i].length;
        }
        final byte[] bytes = new byte[total];
        int at = 0;
        for (final byte[] part : parts) {
            System.arraycopy(part, 0, bytes, at, part.length);
            at += part.length;
        }
        return Optional.of(new Restored<>(AnalyzerCheckpoint.read(bytes, progressType), batches));
    }

    /** Records a batch the analysis has just processed (its effects are in the heap only). */
    void journal(final B batch) {
        journal.put(journalSize++, batch);
        journalIntervals += weight.applyAsInt(batch);
    }

    /**
     * After a batch: journals it, then checkpoints at once when the state was (re)built during it (so no journal
     * predates a checkpoint), else when due. Returns false: the caller's "rebuilt" flag, cleared.
     */
    boolean afterBatch(final B batch, final P progress, final boolean rebuilt) {
        journal(batch);
        if (rebuilt) {
            write(progress);
        } else {
            checkpointIfDue(progress);
        }
        return false;
    }

    /** Checkpoints when enough wall time or journal has passed. */
    void checkpointIfDue(final P progress) {
        if (System.nanoTime() - lastWallNanos >= EVERY_WALL_MS * 1_000_000L || journalIntervals >= MAX_JOURNAL_INTERVALS) {
            write(progress);
        }
    }

    /** Writes the progress as the new checkpoint and empties the journal. */
    void write(final P progress) {
        final byte[] bytes = AnalyzerCheckpoint.write(progress);
        final int chunks = Math.max(1, (bytes.length + CHUNK_BYTES - 1) / CHUNK_BYTES);
        final byte[] old = checkpoint.get(META);
        final int oldChunks = old == null ? 0 : ByteBuffer.wrap(old).getInt();
        for (int i = 0; i < chunks; i++) {
            checkpoint.put(chunkKey(i), Arrays.copyOfRange(bytes, i * CHUNK_BYTES, Math.min(bytes.length, (i + 1) * CHUNK_BYTES)));
        }
        for (int i = chunks; i < oldChunks; i++) {
            checkpoint.delete(chunkKey(i));
        }
        checkpoint.put(META, ByteBuffer.allocate(Integer.BYTES).putInt(chunks).array());
        emptyJournal();
        lastWallNanos = System.nanoTime();
    }

    /** Forgets everything (a checkpoint this build cannot read): the analysis starts afresh. */
    void clear() {
        final byte[] old = checkpoint.get(META);
        if (old != null) {
            for (int i = 0; i < ByteBuffer.wrap(old).getInt(); i++) {
                checkpoint.delete(chunkKey(i));
            }
            checkpoint.delete(META);
        }
        emptyJournal();
    }

    private void emptyJournal() {
        for (long k = 0; k < journalSize; k++) {
            journal.delete(k);
        }
        journalSize = 0;
        journalIntervals = 0;
    }

    private static String chunkKey(final int i) {
        return "chunk-" + i;
    }
}
