package dev.fabrictwin.analyzer.topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;

import dev.fabrictwin.analyzer.rates.PortInterval;

/**
 * A {@link StageDriver}'s analysis off the thread that reads and rates the samples: unsharded, on a thread of its
 * own; sharded, the shards spread over threads as a cluster spreads them over instances (shard s on thread s mod n),
 * each thread with an analyzer processor of its own. Downstream gets what one thread would have handed it, in the
 * same order: each batch's output is taken back in the order the batches were handed out. Batches travel in chunks
 * (a hand-off per interval would cost about what analyzing it does), and each thread holds a bounded queue of them,
 * so the memory is a few chunks per thread whatever the capture's length.
 */
final class AnalysisThreads implements AutoCloseable {

    /** Batches per hand-off: an interval each in a replay (one per sample). */
    private static final int CHUNK = 512;
    /** Chunks a thread may have waiting: beyond, the reading thread waits for it. */
    private static final int QUEUED_CHUNKS = 8;
    /** What a thread that failed leaves for the reader (a list of its own: compared by identity). */
    private static final List<List<Record<String, AnalyzerOutput>>> FAILED = Collections.unmodifiableList(new ArrayList<>());

    private final Worker[] workers;
    /** The thread of each batch handed out and not taken back yet, in hand-out order. */
    private final ArrayDeque<Integer> order = new ArrayDeque<>();
    private final Consumer<Record<String, AnalyzerOutput>> downstream;

    /**
     * {@code threads} analyzer processors, each made by {@code analyzer} around the consumer its outputs go to;
     * {@code downstream} takes their outputs, on the thread that hands the batches out.
     */
    AnalysisThreads(final int threads, final Function<Consumer<Record<String, AnalyzerOutput>>, Processor<String, List<PortInterval>, String, AnalyzerOutput>> analyzer,
                    final Consumer<Record<String, AnalyzerOutput>> downstream) {
        this.downstream = downstream;
        this.workers = new Worker[threads];
        for (int i = 0; i < threads; i++) {
            workers[i] = new Worker(analyzer, "analysis-" + i);
        }
    }

    /**
     * Hands a batch to its thread: unsharded the one, sharded its shard's (its key); passes on the outputs of those
     * done, in order.
     */
    void hand(final Record<String, List<PortInterval>> batch, final boolean sharded) {
        final int thread = sharded ? Integer.parseInt(batch.key()) % workers.length : 0;
        final Worker w = workers[thread];
        w.filling.add(batch);
        order.add(thread);
        if (w.filling.size() == CHUNK) {
            w.send();
        }
        takeBack(false);
    }

    /** Waits for every batch handed out to be analyzed and passes on their outputs. */
    void finish() {
        for (final Worker w : workers) {
            if (!w.filling.isEmpty()) {
                w.send();
            }
        }
        takeBack(true);
    }

    /** Batches whose analysis threw, as the driver counts a dead letter: only once {@link #finish} returned. */
    long deadLettered() {
        long n = 0;
        for (final Worker w : workers) {
            n += w.deadLettered;
        }
        return n;
    }

    private void takeBack(final boolean wait) {
        while (!order.isEmpty()) {
            final Worker w = workers[order.peek()];
            if (!w.taking.hasNext()) {
                final List<List<Record<String, AnalyzerOutput>>> done = wait ? w.takeDone() : w.done.poll();
                if (done == null) {
                    return;
                }
                w.failIf(done);
                w.taking = done.iterator();
                continue;
            }
            order.poll();
            final List<Record<String, AnalyzerOutput>> outputs = w.taking.next();
            if (outputs != null) {
                outputs.forEach(downstream);
            }
        }
    }

    @Override
    public void close() {
        for (final Worker w : workers) {
            w.stop();
        }
    }

    /** One thread: its analyzer, the chunks waiting for it, the outputs of those it analyzed (one entry per batch). */
    private static final class Worker implements Runnable {
        private final BlockingQueue<List<Record<String, List<PortInterval>>>> todo = new ArrayBlockingQueue<>(QUEUED_CHUNKS);
        /** Unbounded, so the thread never waits on the reader, which empties it as it hands out more. */
        private final BlockingQueue<List<List<Record<String, AnalyzerOutput>>>> done = new LinkedBlockingQueue<>();
        private final Processor<String, List<PortInterval>, String, AnalyzerOutput> analyzer;
        private final Thread thread;
        /** Touched by the handing thread only. */
        private List<Record<String, List<PortInterval>>> filling = new ArrayList<>(CHUNK);
        private Iterator<List<Record<String, AnalyzerOutput>>> taking = Collections.emptyIterator();
        /** The outputs of the batch being analyzed: touched by this worker's thread only. */
        private List<Record<String, AnalyzerOutput>> outputs;
        private volatile long deadLettered;
        private volatile Throwable failure;

        Worker(final Function<Consumer<Record<String, AnalyzerOutput>>, Processor<String, List<PortInterval>, String, AnalyzerOutput>> analyzer, final String name) {
            this.analyzer = analyzer.apply(r -> {
                if (outputs == null) {
                    outputs = new ArrayList<>(1);
                }
                outputs.add(r);
            });
            this.thread = new Thread(this, name);
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void run() {
            try {
                while (true) {
                    final List<Record<String, List<PortInterval>>> chunk = todo.take();
                    final List<List<Record<String, AnalyzerOutput>>> out = new ArrayList<>(chunk.size());
                    for (final Record<String, List<PortInterval>> batch : chunk) {
                        outputs = null;
                        try {
                            analyzer.process(batch);
                        } catch (RuntimeException e) {
                            deadLettered++; // (only this thread writes it)
                        }
                        out.add(outputs);
                    }
                    done.add(out);
                }
            } catch (InterruptedException e) {
                // stopped
            } catch (Throwable t) { // an Error: the reader must not wait for this thread for ever
                failure = t;
                done.add(FAILED);
            }
        }

        void send() {
            try {
                while (!todo.offer(filling, 100, TimeUnit.MILLISECONDS)) {
                    if (failure != null) { // it takes no more: fail now, not when its outputs are reached
                        failIf(FAILED);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while handing out batches to analyze", e);
            }
            filling = new ArrayList<>(CHUNK);
        }

        List<List<Record<String, AnalyzerOutput>>> takeDone() {
            try {
                return done.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the analysis", e);
            }
        }

        void failIf(final List<List<Record<String, AnalyzerOutput>>> done) {
            if (done == FAILED) {
                throw new IllegalStateException("the analysis thread " + thread.getName() + " failed: " + failure, failure);
            }
        }

        void stop() {
            thread.interrupt(); // it waits for work, or stops before the next chunk
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
