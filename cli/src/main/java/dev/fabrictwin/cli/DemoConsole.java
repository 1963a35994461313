package dev.fabrictwin.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import dev.fabrictwin.analyzer.metrics.AnalyzerMetrics;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.evaluation.ScoreTable;
import dev.fabrictwin.evaluation.Scorecard;

/**
 * What the demo prints: one line per alert as it opens and resolves, a status line every few seconds, and the
 * closing scorecard. Times are seconds of simulated time since the scenario's epoch.
 */
final class DemoConsole {

    private final PrintWriter out;
    private final long epochMs;

    DemoConsole(final PrintWriter out, final long epochMs) {
        this.out = out;
        this.epochMs = epochMs;
    }

    void line(final String text) {
        out.println(text);
        out.flush();
    }

    /** OPEN and RESOLVED records (UPDATEs only refresh the state the status line counts). */
    void alert(final Alert a) {
        if (a.state() == Alert.State.UPDATE) {
            return;
        }
        final String role = a.rootCause() ? "ROOT CAUSE" : "victim of " + a.causedBy();
        final long at = a.state() == Alert.State.OPEN ? a.firstSeen() : a.lastSeen();
        line(String.format(Locale.ROOT, "[t=%5.0fs] %-8s %-15s %-28s %s%s", (at - epochMs) / 1000.0,
            a.state(), a.type(), a.entity().key(), role,
            a.state() == Alert.State.OPEN && a.rootCause() ? " — " + a.summary() : ""));
    }

    /** The live view: simulated time, sample rate, open alerts, each job's slowdown against the twin. */
    void status(final double simSeconds, final double samplesPerSec, final int openRoots, final int openVictims,
                final Map<String, Double> slowdownByJob, final Map<String, Long> unmatchedNames) {
        final StringBuilder jobs = new StringBuilder();
        new TreeMap<>(slowdownByJob).forEach((job, s) -> jobs.append(Double.isNaN(s)
            ? String.format(Locale.ROOT, "  %s unknown", job) : String.format(Locale.ROOT, "  %s ×%.2f", job, s)));
        line(String.format(Locale.ROOT, "  ·  t=%4.0fs  %,7.0f samples/s  open alerts: %d root cause, %d victim  job slowdown:%s%s",
            simSeconds, samplesPerSec, openRoots, openVictims, jobs.length() == 0 ? " (waiting for a phase lock)" : jobs,
            AnalyzerMetrics.unmatchedSummary(unmatchedNames)));
    }

    /** The closing summary: the docs/contracts.md scores of the run's root-cause alerts against the injected faults. */
    void summary(final Scorecard card) {
        line("");
        line("Score against the injected faults (docs/contracts.md scoring: root-cause alerts only):");
        ScoreTable.print(out, card, null);
        final Scorecard.Line all = card.overall();
        line(String.format(Locale.ROOT, "  recall %s, precision %s, localization %s, median time to detect %s s, "
                + "false alerts per healthy hour %s", ScoreTable.num(all.recall()), ScoreTable.num(all.precision()),
            ScoreTable.num(all.localization()), ScoreTable.num(all.ttdMedianSec()), ScoreTable.num(all.falseAlertsPerHour())));
    }
}
