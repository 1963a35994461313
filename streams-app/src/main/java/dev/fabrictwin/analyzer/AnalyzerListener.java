package dev.fabrictwin.analyzer;

import java.util.List;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.analyzer.tick.Tick;

/** What the analyzer reports as it runs (metrics bind here); every method is optional. */
public interface AnalyzerListener {

    AnalyzerListener NONE = new AnalyzerListener() {
    };

    /** A record went to the dead letter topic (or was rejected) for {@code reason}. */
    default void rejected(final String reason) {
    }

    /** One tick was analyzed; {@code open} holds every alert open after it; {@code twinMs} the last twin evaluation. */
    default void tick(final FabricAnalyzer analyzer, final Tick tick, final List<Alert> open, final long wallClockMs) {
    }

    default void alert(final Alert alert, final long wallClockMs) {
    }

    default void jobHealth(final JobHealth health) {
    }

    default void intervals(final long count) {
    }
}
