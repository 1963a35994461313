package dev.fabrictwin.evaluation.baseline;

/**
 * The static thresholds of the baseline detector: the per-port alert rules an operator writes in Prometheus
 * ({@code expr} over {@code rate()}/{@code increase()} of the canonical counters, plus a {@code for:} clause),
 * with no model of what the fabric should be doing. Every rule compares one port's interval with a constant.
 *
 * <p>Where the defaults come from (none is a published standard; they are the numbers such rule sets use):
 * <ul>
 * <li>{@code maxUtilization} 0.90: node_exporter-style saturation rules
 *     ({@code rate(..._bytes_total) / node_network_speed_bytes}) fire in the 80–90 % band; 90 % because an AI
 *     fabric is meant to run hot and 80 % would page on every collective;</li>
 * <li>{@code maxPfcPausesPerSec} 1000 pause frames/s sent: a round number, not a vendor figure (SONiC's PFC
 *     watchdog judges how long a queue stays paused, not a rate); well above the occasional pause of a healthy
 *     lossless fabric and far below a stuck NIC's tens of thousands per second;</li>
 * <li>{@code maxEcnMarkedPerSec} 10,000 ECN-marked packets/s: likewise a round number; DCQCN marks some
 *     packets in normal operation, sustained marking at this rate is what operators call congestion;</li>
 * <li>{@code maxDropsPerInterval} 0 and {@code maxErrorsPerInterval} 0: switch operators page on any increase
 *     of drop or FCS / uncorrectable-FEC counters ({@code increase(x[...]) > 0}) on a lossless RDMA fabric;</li>
 * <li>{@code latencySloUs} 30 µs: the same P99 SLO the analyzer takes by default ({@code --latency-slo-us});</li>
 * <li>{@code openAfter} 2 and {@code resolveAfter} 3 intervals: the analyzer's own lifecycle (k = 2, r = 3), so
 *     the comparison is between detectors, not between debounce settings (Prometheus' {@code for:} and
 *     {@code keep_firing_for:}).</li>
 * </ul>
 * {@code oper_up == 0} needs no threshold. A threshold of 0 for counts means "any increase".
 *
 * @param maxUtilization      busiest direction (tx or rx bytes) as a fraction of {@code speed_bps}, in (0, 1]
 * @param maxPfcPausesPerSec  pause frames the port sends ({@code tx_pfc_pause.*}, all priorities), per second
 * @param maxEcnMarkedPerSec  ECN-marked packets ({@code ecn_marked}) per second
 * @param maxDropsPerInterval {@code rx_drops + tx_drops} in one interval
 * @param maxErrorsPerInterval {@code fcs_errors + fec_uncorrectable} in one interval
 * @param latencySloUs        {@code latency_p99_us} gauge ceiling
 * @param openAfter           consecutive intervals with the condition before an alert opens
 * @param resolveAfter        consecutive clean intervals before it resolves
 */
public record ThresholdRules(double maxUtilization, double maxPfcPausesPerSec, double maxEcnMarkedPerSec,
                             long maxDropsPerInterval, long maxErrorsPerInterval, double latencySloUs,
                             int openAfter, int resolveAfter) {

    public ThresholdRules {
        if (!(maxUtilization > 0 && maxUtilization <= 1)) {
            throw new IllegalArgumentException("maxUtilization must be in (0, 1], was " + maxUtilization);
        }
        requireNonNegative("maxPfcPausesPerSec", maxPfcPausesPerSec);
        requireNonNegative("maxEcnMarkedPerSec", maxEcnMarkedPerSec);
        requireNonNegative("maxDropsPerInterval", maxDropsPerInterval);
        requireNonNegative("maxErrorsPerInterval", maxErrorsPerInterval);
        if (!(latencySloUs > 0) || Double.isInfinite(latencySloUs)) {
            throw new IllegalArgumentException("latencySloUs must be a positive number, was " + latencySloUs);
        }
        if (openAfter < 1 || resolveAfter < 1) {
            throw new IllegalArgumentException("openAfter and resolveAfter must be >= 1, were " + openAfter
                + " and " + resolveAfter);
        }
    }

    /** The operator-typical defaults documented above. */
    public static ThresholdRules defaults() {
        return new ThresholdRules(0.90, 1_000, 10_000, 0, 0, 30, 2, 3);
    }

    /** These rules with another P99 SLO (give it the analyzer's {@code --latency-slo-us}, for a fair comparison). */
    public ThresholdRules withLatencySloUs(final double sloUs) {
        return new ThresholdRules(maxUtilization, maxPfcPausesPerSec, maxEcnMarkedPerSec, maxDropsPerInterval,
            maxErrorsPerInterval, sloUs, openAfter, resolveAfter);
    }

    private static void requireNonNegative(final String name, final double value) {
        // NaN fails too: a threshold that compares false with everything would silently disable the rule
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be a finite number >= 0, was " + value);
        }
    }
}
