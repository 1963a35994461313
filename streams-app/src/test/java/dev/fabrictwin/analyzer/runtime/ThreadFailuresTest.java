package dev.fabrictwin.analyzer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import java.io.IOException;

import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;
import org.rocksdb.RocksDBException;

/** A failed stream thread is replaced; failures that repeat stop the client, so the process can exit and be restarted. */
class ThreadFailuresTest {

    private static final RuntimeException FAILURE = new IllegalStateException("test");

    @Test
    void replacesAThreadUntilFailuresRepeatWithinTheWindow() {
        final AnalyzerApp.ThreadFailures handler = new AnalyzerApp.ThreadFailures(3, Duration.ofMinutes(1), "/state");

        assertThat(handler.handle(FAILURE)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(handler.handle(FAILURE)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(handler.handle(FAILURE)).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    }

    @Test
    void failuresOlderThanTheWindowAreForgotten() {
        final AnalyzerApp.ThreadFailures handler = new AnalyzerApp.ThreadFailures(2, Duration.ZERO, "/state");

        assertThat(handler.handle(FAILURE)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(handler.handle(FAILURE)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    }

    /** A full state disk was a ProcessorStateException about opening a store, three times over. */
    @Test
    void shouldStopAtOnceOnAFullStateDiskAndSaySoInOneLine() {
        final AnalyzerApp.ThreadFailures handler = new AnalyzerApp.ThreadFailures(3, Duration.ofMinutes(1), "/var/lib/ft");
        // as RocksDBStore#openDB wraps what RocksDB says when it cannot write its files
        final Throwable rocks = new StreamsException(new ProcessorStateException(
            "Error opening store open-alerts at location /var/lib/ft/fabric-twin-analyzer/1_0/rocksdb/open-alerts",
            new RocksDBException("IO error: No space left on device: While appending to file: "
                + "/var/lib/ft/fabric-twin-analyzer/1_0/rocksdb/open-alerts/000004.log: No space left on device")));

        assertThat(handler.handle(rocks)).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        assertThat(handler.fatal()).hasValue("disk full: the state directory /var/lib/ft has no space left (IO error: No "
            + "space left on device: While appending to file: /var/lib/ft/fabric-twin-analyzer/1_0/rocksdb/open-alerts/"
            + "000004.log: No space left on device): free space there or move it to a larger disk");
    }

    @Test
    void shouldFindAFullDiskDeepInTheChainOfAJavaWrite() {
        final AnalyzerApp.ThreadFailures handler = new AnalyzerApp.ThreadFailures(3, Duration.ofMinutes(1), "/var/lib/ft");
        // as the JDK reports ENOSPC writing a checkpoint file, wrapped by StateDirectory and the stream thread
        final Throwable checkpoint = new StreamsException("task 0_1 failed to commit", new ProcessorStateException(
            "Error while writing the checkpoint file", new IOException("No space left on device")));

        assertThat(handler.handle(checkpoint)).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        assertThat(handler.fatal()).hasValue("disk full: the state directory /var/lib/ft has no space left (No space left "
            + "on device): free space there or move it to a larger disk");
    }

    @Test
    void shouldReplaceAThreadThatFailedForAnyOtherReason() {
        final AnalyzerApp.ThreadFailures handler = new AnalyzerApp.ThreadFailures(3, Duration.ofMinutes(1), "/var/lib/ft");

        assertThat(handler.handle(new ProcessorStateException("Error opening store open-alerts",
            new IOException("Too many open files")))).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(handler.fatal()).isEmpty();
    }
}
