package dev.fabrictwin.ingest.format.support;

import java.time.Duration;

/**
 * The polling schedule of a collector that reads on its own clock ({@code ingest --scrape}, {@code ingest --sysfs}):
 * a round every {@code interval}, measured from each round's start so a slow round does not shift the schedule by
 * more than itself, and a round that ran late starts the next at once rather than bursting to catch up.
 */
public final class Rounds {

    /** One round of reading. */
    @FunctionalInterface
    public interface Round {
        void run() throws InterruptedException;
    }

    private Rounds() {
    }

    /** Runs {@code round} every {@code interval} until {@code maxRounds} rounds are done (0: until interrupted). */
    public static void every(final Duration interval, final long maxRounds, final Round round) throws InterruptedException {
        long next = System.nanoTime();
        for (long done = 0; maxRounds == 0 || done < maxRounds; ) {
            round.run();
            done++;
            if (maxRounds != 0 && done >= maxRounds) {
                return;
            }
            next += interval.toNanos();
            final long wait = next - System.nanoTime();
            if (wait > 0) {
                // the device is read on the collector's own clock: the wait is the schedule, not a wait for data
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            } else {
                next = System.nanoTime();
            }
        }
    }
}
