package dev.fabrictwin.contract.job;

import java.io.Serializable;

/**
 * One job over one tick, as {@code fabric.job-health} carries it: the twin's comm time per iteration beside
 * the one its NICs show (phase lock), the ratio, the job's NIC throughput expected and observed, and — when
 * the job is slowed — the limiting link and the root-cause alert that explains it.
 */
public record JobHealth(String job, long ts, double expectedCommMs, double observedCommMs, double slowdown,
                        double expectedBytesPerSec, double observedBytesPerSec, double phaseQuality,
                        String bottleneck, String rootCauseAlert) implements Serializable {

    public JobHealth withCause(final String limitingLink, final String alertId) {
        return new JobHealth(job, ts, expectedCommMs, observedCommMs, slowdown, expectedBytesPerSec,
            observedBytesPerSec, phaseQuality, limitingLink, alertId);
    }
}
