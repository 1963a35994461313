package dev.fabrictwin.cli.chaos;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

import dev.fabrictwin.contract.TopicSpec;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.kafka.common.ProducerSettings;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * Produces a capture's samples at a steady rate ({@code speed} simulated seconds per wall second), on its own
 * thread, through broker restarts (acks=all, idempotent, retried by the client); can be paused and resumed.
 */
final class PacedGenerator implements AutoCloseable {

    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicLong published = new AtomicLong();
    private volatile boolean paused;
    private volatile boolean stop;

    PacedGenerator(final List<Sample> samples, final Properties client, final Topics topics, final double speed) {
        this.thread = new Thread(() -> run(samples, client, topics, speed), "chaos-generator");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run(final List<Sample> samples, final Properties client, final Topics topics, final double speed) {
        final TopicSpec<String, Sample> spec = topics.samples();
        final Serializer<Sample> values = spec.valueSerde().serializer();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(ProducerSettings.telemetry(client))) {
            final long first = samples.get(0).ts();
            long wallStart = System.nanoTime();
            for (final Sample s : samples) {
                long pausedAt = 0;
                while (paused && !stop) {
                    pausedAt = pausedAt == 0 ? System.nanoTime() : pausedAt;
                    TimeUnit.MILLISECONDS.sleep(20); // pausing the generator is the point of this wait
                }
                if (pausedAt != 0) {
                    wallStart += System.nanoTime() - pausedAt; // resume at the same rate, not in a burst
                }
                if (stop) {
                    return;
                }
                final long due = wallStart + (long) ((s.ts() - first) * 1e6 / speed) - System.nanoTime();
                if (due > 0) {
                    TimeUnit.NANOSECONDS.sleep(due); // pacing to simulated time
                }
                producer.send(new ProducerRecord<>(spec.name(), null, s.ts(), s.device(), values.serialize(spec.name(), s)),
                    (m, e) -> {
                        if (e != null) {
                            failure.compareAndSet(null, e);
                        } else {
                            published.incrementAndGet();
                        }
                    });
            }
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    void pause() {
        paused = true;
    }

    void resume() {
        paused = false;
    }

    long published() {
        return published.get();
    }

    /** Waits for the last sample to be acknowledged; rethrows what failed. */
    void awaitDone(final long timeoutMs) throws InterruptedException {
        thread.join(timeoutMs);
        if (failure.get() != null) {
            throw new IllegalStateException("the generator failed: " + failure.get(), failure.get());
        }
        if (thread.isAlive()) {
            throw new IllegalStateException("the generator did not finish within " + timeoutMs + " ms");
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.join(10_000);
    }
}
