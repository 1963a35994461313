package dev.fabrictwin.analyzer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Function;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.contract.job.JobHealth;

/**
 * The analysis threads hand downstream what one thread would have: each batch's output in hand-out order, whichever
 * thread finished first; a batch whose analysis threw is counted, and a thread that died fails the run, never hangs it.
 */
class AnalysisThreadsTest {

    private static final Duration NO_HANG = Duration.ofSeconds(30);

    @Test
    void shouldPassOnEveryOutputInTheOrderTheBatchesWereHandedOut() {
        final List<String> handed = new ArrayList<>();
        final List<String> passedOn = new ArrayList<>();
        final Random random = new Random(7);
        assertTimeoutPreemptively(NO_HANG, () -> {
            try (AnalysisThreads threads = new AnalysisThreads(3, unevenWork(), r -> passedOn.add(r.value().jobHealth()
                .get(0).job()))) {
                for (int i = 0; i < 5_000; i++) {
                    final Record<String, List<PortInterval>> batch = batch(random.nextInt(8), i);
                    handed.add(batch.key() + "#" + i);
                    threads.hand(batch, true);
                }
                threads.finish();
                assertThat(threads.deadLettered()).isZero();
            }
        });
        assertThat(passedOn).containsExactlyElementsOf(handed);
    }

    @Test
    void shouldCountABatchWhoseAnalysisThrewAndGoOn() {
        final List<String> passedOn = new ArrayList<>();
        assertTimeoutPreemptively(NO_HANG, () -> {
            try (AnalysisThreads threads = new AnalysisThreads(2, out -> record -> {
                if (record.timestamp() % 100 == 0) {
                    throw new IllegalArgumentException("bad batch");
                }
                out.accept(output(record));
            }, r -> passedOn.add(r.value().jobHealth().get(0).job()))) {
                for (int i = 1; i <= 1_000; i++) {
                    threads.hand(batch(i % 4, i), true);
                }
                threads.finish();
                assertThat(threads.deadLettered()).isEqualTo(10);
            }
        });
        assertThat(passedOn).hasSize(990).startsWith("1#1", "2#2", "3#3", "0#4");
    }

    @Test
    void shouldFailTheRunWhenAThreadDies() {
        assertTimeoutPreemptively(NO_HANG, () -> {
            try (AnalysisThreads threads = new AnalysisThreads(2, out -> record -> {
                if (record.key().equals("1")) {
                    throw new StackOverflowError("deep");
                }
                out.accept(output(record));
            }, r -> { })) {
                assertThatThrownBy(() -> {
                    for (int i = 0; i < 100_000; i++) { // far more than a thread may have waiting
                        threads.hand(batch(i % 2, i), true);
                    }
                    threads.finish();
                }).isInstanceOf(IllegalStateException.class).hasMessageContaining("analysis-1 failed")
                    .hasCauseInstanceOf(StackOverflowError.class);
            }
        });
    }

    /** Processors that take a varying while per batch, so the threads finish out of hand-out order. */
    private static Function<Consumer<Record<String, AnalyzerOutput>>,
        Processor<String, List<PortInterval>, String, AnalyzerOutput>> unevenWork() {
        return out -> record -> {
            long x = record.timestamp();
            for (int k = 0; k < (record.timestamp() * 7919 % 2_000); k++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            if (x != 42) { // (always: keeps the loop from being optimized away)
                out.accept(output(record));
            }
        };
    }

    private static Record<String, List<PortInterval>> batch(final int shard, final long index) {
        final PortInterval interval = new PortInterval("leaf-" + shard, "eth0", index, index + 1, Map.of(),
            Map.of(), false, 0, false, false);
        return new Record<>(String.valueOf(shard), List.of(interval), index);
    }

    /** One output naming its batch (shard#index) in a job-health record. */
    private static Record<String, AnalyzerOutput> output(final Record<String, List<PortInterval>> batch) {
        final JobHealth named = new JobHealth(batch.key() + "#" + batch.timestamp(), batch.timestamp(), 0, 0, 0, 0, 0, 0,
            null, null);
        return new Record<>(AnalyzerTopology.FABRIC_KEY, new AnalyzerOutput(List.of(), List.of(named)), batch.timestamp());
    }
}
