package dev.fabrictwin.analyzer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * A task Kafka Streams closes dirty and revives (a corrupted task, a fenced producer) keeps its processor objects and
 * calls init again, then resumes from the last commit: the rates processor must start from the committed store, not
 * from what it held in memory. Before, a revived task skipped the samples it had seen before the crash as stale
 * (their interval was lost) or sent a batch the aborted transaction had already taken.
 */
class RatesReviveTest {

    private static final long FLUSH_MS = 20;
    /** Samples carry epoch milliseconds (not before 2000): the tests count their times from 2025-01-01. */
    private static final long EPOCH = 1_735_689_600_000L;

    private final RatesStage.PortRatesProcessor processor = new RatesStage.PortRatesProcessor(1_000, 1, FLUSH_MS);
    private final MockProcessorContext<String, RatesStage.LaneBatch> context = new MockProcessorContext<>();
    private final KeyValueStore<String, HeldSample> store = Stores.keyValueStoreBuilder(
        Stores.inMemoryKeyValueStore(RatesStage.LAST_SAMPLE_STORE), Serdes.String(), LastSampleSerde.HELD)
        .withLoggingDisabled().build();

    @Test
    void aRevivedTaskSendsEachIntervalOnceFromTheCommittedState() {
        context.setCurrentSystemTimeMs(EPOCH + 3_600_000L); // the wall clock the time gate judges stamps against
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        processor.init(context);
        sample(1_000);
        flush();
        final List<KeyValue<String, HeldSample>> committed = snapshot(); // the last commit: the 1000 sample's offset
        sample(2_000);
        sample(3_000); // sends [1000, 2000]; [2000, 3000] waits: then the transaction aborts
        context.resetForwards();

        // closed dirty: the store is restored from the changelog, the offsets rewind to the commit, init runs again
        snapshot().forEach(kv -> store.delete(kv.key));
        committed.forEach(kv -> store.put(kv.key, kv.value));
        processor.init(context);
        sample(2_000);
        sample(3_000);
        flush();

        assertThat(intervals()).containsExactly("1000-2000", "2000-3000");
    }

    @Test
    void aTaskRestartedWithoutBatchingSendsWhatABatchingRunLeftPending() {
        context.setCurrentSystemTimeMs(EPOCH + 3_600_000L);
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        processor.init(context);
        sample(1_000);
        flush();
        sample(2_000); // [1000, 2000] waits in the batch when the last commit is taken
        final List<KeyValue<String, HeldSample>> committed = snapshot();

        final RatesStage.PortRatesProcessor unbatched = new RatesStage.PortRatesProcessor(1_000, 1, 0);
        final MockProcessorContext<String, RatesStage.LaneBatch> restarted = new MockProcessorContext<>();
        restarted.setCurrentSystemTimeMs(EPOCH + 3_600_000L);
        snapshot().forEach(kv -> store.delete(kv.key));
        committed.forEach(kv -> store.put(kv.key, kv.value));
        restarted.addStateStore(store);
        unbatched.init(restarted);
        unbatched.process(new Record<>("leaf-1", sampleAt(3_000), EPOCH + 3_000));

        assertThat(intervals(restarted)).containsExactly("1000-2000", "2000-3000");
    }

    private static Sample sampleAt(final long ts) {
        return new Sample(EPOCH + ts, "leaf-1", "eth0", "t", Map.of("tx_bytes", ts), Map.of("speed_bps", 400e9));
    }

    private void sample(final long ts) {
        processor.process(new Record<>("leaf-1", new Sample(EPOCH + ts, "leaf-1", "eth0", "t", Map.of("tx_bytes", ts),
            Map.of("speed_bps", 400e9)), EPOCH + ts));
    }

    private void flush() {
        context.scheduledPunctuators().get(0).getPunctuator().punctuate(0);
    }

    private List<KeyValue<String, HeldSample>> snapshot() {
        final List<KeyValue<String, HeldSample>> out = new ArrayList<>();
        try (var it = store.all()) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    private List<String> intervals() {
        return intervals(context);
    }

    private static List<String> intervals(final MockProcessorContext<String, RatesStage.LaneBatch> context) {
        final List<String> out = new ArrayList<>();
        for (final var forwarded : context.forwarded()) {
            for (final PortInterval i : forwarded.record().value().intervals()) {
                out.add((i.t0() - EPOCH) + "-" + (i.t1() - EPOCH));
            }
        }
        return out;
    }
}
