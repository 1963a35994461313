package dev.fabrictwin.analyzer.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;


import dev.fabrictwin.analyzer.CapturedIntervals;
import dev.fabrictwin.analyzer.FabricAnalyzer;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;

/**
 * An analysis restored from a checkpoint continues exactly as one that never stopped: same alerts (ids, states,
 * times, root vs victim), same job health, to the last bit — the replica, phase lock, detector windows and
 * trackers all came back.
 */
class AnalyzerCheckpointTest {

    @ParameterizedTest
    @ValueSource(strings = {"mixed-down-drop-ecn.yaml", "job-bottleneck.yaml", "straggler.yaml"})
    void aRestoredAnalysisContinuesExactlyAsOneThatNeverStopped(final String scenario) throws Exception {
        final CapturedIntervals capture = CapturedIntervals.of(scenario);
        final int n = capture.intervals().size();
        final CapturedIntervals.Run uninterrupted = capture.analyze();
        // restarts mid-tick, while faults are open, and while one is resolving
        final CapturedIntervals.Run restarted = capture.analyze(n / 7, n / 3 + 11, n / 2 + 5, 2 * n / 3 - 3, 6 * n / 7);

        assertThat(uninterrupted.alerts()).isNotEmpty();
        assertThat(uninterrupted.health()).isNotEmpty();
        assertThat(restarted.alerts()).containsExactlyElementsOf(uninterrupted.alerts());
        assertThat(restarted.health()).containsExactlyElementsOf(uninterrupted.health());
    }

    @Test
    void aBatchDeliveredAgainIsAnalyzedOnce() throws Exception {
        final CapturedIntervals capture = CapturedIntervals.of("mixed-down-drop-ecn.yaml");
        final CapturedIntervals.Run once = capture.analyze();
        // an upstream retry or restart hands the analysis a few hundred intervals it already took
        final FabricAnalyzer analyzer = capture.analyzer();
        final List<Alert> alerts = new ArrayList<>();
        final List<JobHealth> health = new ArrayList<>();
        final int replayAt = capture.intervals().size() / 2;
        for (int i = 0; i < capture.intervals().size(); i++) {
            if (i == replayAt) {
                for (int j = replayAt - 300; j < replayAt; j++) {
                    final FabricAnalyzer.Output out = analyzer.accept(capture.intervals().get(j));
                    alerts.addAll(out.alerts());
                    health.addAll(out.jobHealth());
                }
            }
            final FabricAnalyzer.Output out = analyzer.accept(capture.intervals().get(i));
            alerts.addAll(out.alerts());
            health.addAll(out.jobHealth());
        }
        alerts.addAll(analyzer.flush().alerts());

        assertThat(analyzer.duplicateIntervals()).isEqualTo(300);
        assertThat(alerts).containsExactlyElementsOf(once.alerts());
        assertThat(health).containsExactlyElementsOf(once.health());
    }

    @Test
    void bytesThatAreNotACheckpointOrHoldForeignClassesAreRefused() throws Exception {
        assertThatThrownBy(() -> AnalyzerCheckpoint.read(new byte[] {1, 2, 3}, FabricAnalyzer.class))
            .isInstanceOf(AnalyzerCheckpoint.IncompatibleCheckpointException.class);
        // a class outside the analyzer's own and the JDK's collections is refused before it is built
        final byte[] foreign = AnalyzerCheckpoint.write(new ArrayList<>(List.of(URI.create("http://127.0.0.1/"))));
        assertThatThrownBy(() -> AnalyzerCheckpoint.read(foreign, ArrayList.class))
            .isInstanceOf(AnalyzerCheckpoint.IncompatibleCheckpointException.class)
            .hasMessageContaining("REJECTED");
    }
}
