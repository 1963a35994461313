package dev.fabrictwin.analyzer;

import java.util.List;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.contract.sample.RejectReason;

/** What the analyzer reports as it runs (metrics bind here); every method is optional. */
public interface AnalyzerListener {

    AnalyzerListener NONE = new AnalyzerListener() {
    };

    /** A record went to the dead letter topic (or was rejected) for {@code reason}. */
    default void rejected(final RejectReason reason) {
    }

    /**
     * A sample's device/port names met no topology port ({@code unknown-device}, {@code unknown-port}); called by every
     * rates task, from any stream thread, as {@link #rejected} is by the dead-letter handlers.
     */
    default void unmatched(final String reason) {
    }

    /** One tick was analyzed: what the metrics need of it. */
    default void tick(final TickReport report) {
    }

    default void alert(final Alert alert, final long wallClockMs) {
    }

    /**
     * Sharded: every alert open after each tick the correlation stage correlated (the shards' {@link TickReport}s
     * carry none; the correlation stage holds them).
     */
    default void openAlerts(final List<Alert> open) {
    }

    default void jobHealth(final JobHealth health) {
    }

    default void intervals(final long count) {
    }
}
