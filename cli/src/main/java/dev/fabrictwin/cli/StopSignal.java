package dev.fabrictwin.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.fabrictwin.ingest.stream.IngestTopicRun;

/**
 * Ctrl-C for commands that run until stopped: the shutdown hook asks the command's thread to stop (and interrupts
 * it out of a sleep), then waits, up to 30 s, until the command has flushed its output and printed its summary.
 */
final class StopSignal implements IngestTopicRun.Stop {

    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;

    private StopSignal(final Thread worker) {
        this.hook = new Thread(() -> {
            stopRequested.countDown();
            worker.interrupt();
            try {
                finished.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "ingest-stop");
    }

    static StopSignal install() {
        final StopSignal s = new StopSignal(Thread.currentThread());
        Runtime.getRuntime().addShutdownHook(s.hook);
        return s;
    }

    @Override
    public boolean requested() {
        return stopRequested.getCount() == 0;
    }

    /** Waits up to {@code d} for a stop request (the loop's pace). */
    @Override
    public void await(final Duration d) {
        try {
            stopRequested.await(d.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            stopRequested.countDown(); // interrupted by the hook
        }
    }

    /** The command is done: let the hook (if running) return, else remove it. */
    void done() {
        Thread.interrupted(); // clear an interrupt from the hook before the summary is printed
        finished.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook is running and returns now
        }
    }
}
