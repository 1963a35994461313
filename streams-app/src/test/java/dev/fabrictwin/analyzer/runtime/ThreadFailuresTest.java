package dev.fabrictwin.analyzer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;

/** A failed stream thread is replaced; failures that repeat stop the client, so the process can exit and be restarted. */
class ThreadFailuresTest {

    private static final RuntimeException FAILURE = new IllegalStateException("test");

    @Test
    void replacesAThreadUntilFailuresRepeatWithinTheWindow() {
        final AnalyzerApp.ThreadFailures handler = new AnalyzerApp.ThreadFailures(3, Duration.ofMinutes(1));

        assertThat(handler.handle(FAILURE)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(handler.handle(FAILURE)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(handler.handle(FAILURE)).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    }

    @Test
    void failuresOlderThanTheWindowAreForgotten() {
        final AnalyzerApp.ThreadFailures handler = new AnalyzerApp.ThreadFailures(2, Duration.ZERO);

        assertThat(handler.handle(FAILURE)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(handler.handle(FAILURE)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    }
}
