package dev.fabrictwin.analyzer.topology;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

import dev.fabrictwin.analyzer.checkpoint.AnalyzerCheckpoint;
import dev.fabrictwin.analyzer.checkpoint.LearnedState;
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
final class AnalysisCheckpoints<P extends Serializable, B> {

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
    /**
     * The learned section is written with a checkpoint at most this often: it changes slowly and only an upgrade
     * reads it, which then loses at most this much learning (at 32k GPUs it is ~30 MB: not every 10 s).
     */
    static final long LEARNED_EVERY_WALL_MS = 60_000;
    static final String META = "meta";
    static final String LEARNED = "learned-";
    /** Changelog segments small and compacted eagerly: a restore reads about one checkpoint, not its history. */
    private static final Map<String, String> CHANGELOG = Map.of("cleanup.policy", "compact", "segment.bytes",
        String.valueOf(16 * 1024 * 1024), "segment.ms", "600000", "min.cleanable.dirty.ratio", "0.1",
        "delete.retention.ms", "600000");

    private final KeyValueStore<String, byte[]> checkpoint;
    private final KeyValueStore<Long, B> journal;
    private final Class<P> progressType;
    /** What a journaled batch weighs against {@link #MAX_JOURNAL_INTERVALS} (intervals, or one per shard tick). */
    private final ToIntFunction<B> weight;
    /** What the progress learned, written beside it for an upgraded build to take back (null: nothing). */
    private final Function<P, LearnedState> learned;
    private long journalSize;
    private long journalIntervals;
    /** Wall time (ms): the processor context's, so a test driver can advance it. */
    private final LongSupplier wallMs;
    private long lastWallMs;
    private long lastLearnedMs;
    private boolean learnedWritten;

    /** What a restart finds: the checkpointed progress and the batches processed after it, in order. */
    record Restored<P, B>(P progress, List<B> journal) {
    }

    AnalysisCheckpoints(final KeyValueStore<String, byte[]> checkpoint, final KeyValueStore<Long, B> journal,
                        final Class<P> progressType, final ToIntFunction<B> weight,
                        final Function<P, LearnedState> learned,
                        final LongSupplier wallMs) {
        this.wallMs = wallMs;
        this.lastWallMs = wallMs.getAsLong();
        this.checkpoint = checkpoint;
        this.journal = journal;
        this.progressType = progressType;
        this.weight = weight;
        this.learned = learned;
    }

    /** The analysis task's: checkpoints of {@link AnalysisProgress}, a journal of interval batches. */
    static AnalysisCheckpoints<AnalysisProgress, List<PortInterval>> ofAnalysis(final ProcessingContext context) {
        return new AnalysisCheckpoints<>(context.getStateStore(CHECKPOINT_STORE), context.getStateStore(JOURNAL_STORE),
            AnalysisProgress.class, List::size, p -> p.analyzer == null ? null : p.analyzer.learned(),
            context::currentSystemTimeMs);
    }

    static List<StoreBuilder<?>> storeBuilders() {
        return storeBuilders(CHECKPOINT_STORE, JOURNAL_STORE, PortIntervalSerde.listSerde());
    }

    static <B> List<StoreBuilder<?>> storeBuilders(final String checkpointStore, final String journalStore,
                                                   final Serde<B> journalSerde) {
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
        try {
            return Optional.of(new Restored<>(AnalyzerCheckpoint.read(joined(""), progressType), batches));
        } catch (AnalyzerCheckpoint.IncompatibleCheckpointException e) {
            throw new AnalyzerCheckpoint.IncompatibleCheckpointException(e.getMessage(), learnedSection());
        }
    }

    /** The learned section, if one was written and this build reads its format. */
    private LearnedState learnedSection() {
        if (checkpoint.get(LEARNED + META) == null) {
            return null;
        }
        try {
            return LearnedState.fromBytes(joined(LEARNED));
        } catch (IllegalArgumentException | AnalyzerCheckpoint.IncompatibleCheckpointException e) {
            return null;
        }
    }

    /** A section's chunks, joined. */
    private byte[] joined(final String section) {
        return joined(checkpoint::get, section);
    }

    /** A section's chunks, joined, from the store's values by key ({@code get}: null for a key it lacks). */
    static byte[] joined(final Function<String, byte[]> get, final String section) {
        final int chunks = ByteBuffer.wrap(get.apply(section + META)).getInt();
        final byte[][] parts = new byte[chunks][];
        int total = 0;
        for (int i = 0; i < chunks; i++) {
            parts[i] = get.apply(section + chunkKey(i));
            if (parts[i] == null) {
                throw new AnalyzerCheckpoint.IncompatibleCheckpointException("checkpoint chunk " + section + i + " of "
                    + chunks + " is missing");
            }
            total += parts[i].length;
        }
        final byte[] bytes = new byte[total];
        int at = 0;
        for (final byte[] part : parts) {
            System.arraycopy(part, 0, bytes, at, part.length);
            at += part.length;
        }
        return bytes;
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
        if (wallMs.getAsLong() - lastWallMs >= EVERY_WALL_MS || journalIntervals >= MAX_JOURNAL_INTERVALS) {
            write(progress);
        }
    }

    /**
     * Writes the progress as the new checkpoint and empties the journal; with it, at most once a
     * {@link #LEARNED_EVERY_WALL_MS}, the learned section (what an upgraded build takes back).
     */
    void write(final P progress) {
        writeSection("", AnalyzerCheckpoint.write(progress));
        final long now = wallMs.getAsLong();
        if (learned != null && (!learnedWritten || now - lastLearnedMs >= LEARNED_EVERY_WALL_MS)) {
            final LearnedState kept = learned.apply(progress);
            if (kept != null) {
                writeSection(LEARNED, kept.toBytes());
                learnedWritten = true;
                lastLearnedMs = now;
            }
        }
        emptyJournal();
        lastWallMs = now;
    }

    private void writeSection(final String section, final byte[] bytes) {
        final int chunks = Math.max(1, (bytes.length + CHUNK_BYTES - 1) / CHUNK_BYTES);
        final byte[] old = checkpoint.get(section + META);
        final int oldChunks = old == null ? 0 : ByteBuffer.wrap(old).getInt();
        for (int i = 0; i < chunks; i++) {
            checkpoint.put(section + chunkKey(i),
                Arrays.copyOfRange(bytes, i * CHUNK_BYTES, Math.min(bytes.length, (i + 1) * CHUNK_BYTES)));
        }
        for (int i = chunks; i < oldChunks; i++) {
            checkpoint.delete(section + chunkKey(i));
        }
        checkpoint.put(section + META, ByteBuffer.allocate(Integer.BYTES).putInt(chunks).array());
    }

    /**
     * Forgets the exact state and journal (a checkpoint this build cannot read): the analysis starts afresh. The
     * learned section stays until the next is written, so a crash before then still finds it.
     */
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
