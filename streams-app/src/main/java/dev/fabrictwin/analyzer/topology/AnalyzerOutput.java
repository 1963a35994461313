package dev.fabrictwin.analyzer.topology;

import java.util.List;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;

/** What the analysis published for one batch of intervals: alert records and job-health records, in order. */
record AnalyzerOutput(List<Alert> alerts, List<JobHealth> jobHealth) {

    AnalyzerOutput {
        alerts = List.copyOf(alerts);
        jobHealth = List.copyOf(jobHealth);
    }

    boolean isEmpty() {
        return alerts.isEmpty() && jobHealth.isEmpty();
    }
}
