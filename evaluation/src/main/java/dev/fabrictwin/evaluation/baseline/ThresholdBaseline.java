package dev.fabrictwin.evaluation.baseline;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.rates.PortRates;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * The static-threshold baseline that {@code eval --baseline thresholds} scores beside the twin-based analyzer:
 * the alert rules an operator writes without a model of the fabric. Each port's consecutive samples become
 * intervals ({@link PortRates}: wrap- and reset-safe), every rule of {@link ThresholdRules} is checked on each
 * interval on its own, and breaches become alerts with the analyzer's lifecycle (see {@link BaselineLifecycle}).
 * Pure: no Kafka, no IO; feed samples in delivery order.
 *
 * <p>Rules, and the catalog type and entity each one can name (the closest an operator's rule can say):
 * <table>
 * <caption>rule → alert</caption>
 * <tr><th>rule on one port's interval</th><th>type</th><th>entity</th><th>severity</th></tr>
 * <tr><td>{@code oper_up == 0}</td><td>LINK_DOWN</td><td>the port's link (its two devices)</td><td>CRITICAL</td></tr>
 * <tr><td>{@code fcs_errors + fec_uncorrectable} increase &gt; max</td><td>LINK_DEGRADED</td><td>link</td><td>WARNING</td></tr>
 * <tr><td>{@code rx_drops + tx_drops} increase &gt; max</td><td>SILENT_DROP</td><td>link</td><td>WARNING</td></tr>
 * <tr><td>{@code tx_pfc_pause.*} rate &gt; max</td><td>PFC_STORM</td><td>the port sending the pauses</td><td>CRITICAL</td></tr>
 * <tr><td>max(tx, rx) bytes / {@code speed_bps} &gt; max, or {@code ecn_marked} rate &gt; max</td>
 *     <td>UNEXPECTED_TRAFFIC</td><td>port (a hot or congested port)</td><td>WARNING</td></tr>
 * <tr><td>{@code latency_p99_us} &gt; SLO</td><td>LATENCY_SLO</td><td>port</td><td>WARNING</td></tr>
 * </table>
 * Every alert is a root cause ({@code causedBy} null, no affected jobs): static rules cannot correlate, which is
 * exactly what the comparison measures. A port the fabric does not know is still judged by the port rules; its
 * link rules are skipped (there is no link to name). An interval marked {@code reset} (a counter restarted: a
 * reboot) judges only the gauge rules — its increases are lower bounds, not rates — and leaves the counter
 * rules' streaks as they were. Late samples (no newer than the port's last) are ignored, as PortRates says.
 */
public final class ThresholdBaseline {

    private final Fabric fabric;
    private final ThresholdRules rules;
    private final long intervalMs;
    private final Map<PortRef, Sample> last = new HashMap<>();
    private final BaselineLifecycle lifecycle;

    public ThresholdBaseline(final Fabric fabric, final ThresholdRules rules, final long intervalMs) {
        this.fabric = Objects.requireNonNull(fabric, "fabric");
        this.rules = Objects.requireNonNull(rules, "rules");
        if (intervalMs <= 0) {
            throw new IllegalArgumentException("intervalMs must be > 0, was " + intervalMs);
        }
        this.intervalMs = intervalMs;
        this.lifecycle = new BaselineLifecycle(rules.openAfter(), rules.resolveAfter());
    }

    /** One sample, in delivery order; returns the alert records (OPEN, RESOLVED) it produces. */
    public List<Alert> accept(final Sample sample) {
        final PortRef port = new PortRef(sample.device(), sample.port());
        final PortRates.Step step = PortRates.next(last.get(port), sample, intervalMs);
        if (step.late()) {
            return List.of(); // keep the newer sample: the interval was already accounted for
        }
        last.put(port, sample);
        if (step.interval().isEmpty()) {
            return List.of();
        }
        final PortInterval iv = step.interval().get();
        final Optional<Link> link = fabric.linkAt(port);
        return lifecycle.onInterval(port, iv.t0(), iv.t1(), breaches(port, link, iv),
            type -> !iv.reset() || !Breach.countsBased(type));
    }

    /** End of input: nothing more is produced (open alerts stay open, as they would in Alertmanager). */
    public List<Alert> finish() {
        return List.of();
    }

    /** Ids of the alerts open now. */
    public List<String> openAlertIds() {
        return lifecycle.openIds();
    }

    /** Every rule the interval breaks, by alert id; the first rule to name an id speaks for it. */
    private Map<String, Breach> breaches(final PortRef port, final Optional<Link> link, final PortInterval iv) {
        final Map<String, Breach> out = new LinkedHashMap<>();
        final Entity portEntity = Entity.port(port);
        final double operUp = iv.gauges().getOrDefault(CounterNames.OPER_UP, 1.0);
        if (operUp == 0 && link.isPresent()) {
            add(out, new Breach(FaultType.LINK_DOWN, Entity.link(link.get()), CounterNames.OPER_UP, operUp, 1,
                Severity.CRITICAL, port + " reports oper_up = 0: link " + link.get().name() + " is down."));
        }
        if (!iv.reset()) {
            counterBreaches(out, port, portEntity, link, iv);
        }
        final Double p99 = iv.gauges().get(CounterNames.LATENCY_P99_US);
        if (p99 != null && p99 > rules.latencySloUs()) {
            add(out, new Breach(FaultType.LATENCY_SLO, portEntity, CounterNames.LATENCY_P99_US, p99,
                rules.latencySloUs(), Severity.WARNING, String.format(Locale.ROOT,
                    "%s reports P99 latency %.1f µs, over the %.0f µs SLO.", port, p99, rules.latencySloUs())));
        }
        return out;
    }

    private void counterBreaches(final Map<String, Breach> out, final PortRef port, final Entity portEntity,
                                 final Optional<Link> link, final PortInterval iv) {
        if (link.isPresent()) {
            final Entity linkEntity = Entity.link(link.get());
            final long errors = increase(iv, CounterNames.FCS_ERRORS) + increase(iv, CounterNames.FEC_UNCORRECTABLE);
            if (errors > rules.maxErrorsPerInterval()) {
                add(out, new Breach(FaultType.LINK_DEGRADED, linkEntity, "fcs_errors+fec_uncorrectable", errors,
                    rules.maxErrorsPerInterval(), Severity.WARNING, String.format(Locale.ROOT,
                        "%s counted %d FCS/uncorrectable FEC errors in %.1f s on link %s (threshold %d).",
                        port, errors, iv.seconds(), link.get().name(), rules.maxErrorsPerInterval())));
            }
            final long drops = increase(iv, CounterNames.RX_DROPS) + increase(iv, CounterNames.TX_DROPS);
            if (drops > rules.maxDropsPerInterval()) {
                add(out, new Breach(FaultType.SILENT_DROP, linkEntity, "rx_drops+tx_drops", drops,
                    rules.maxDropsPerInterval(), Severity.WARNING, String.format(Locale.ROOT,
                        "%s dropped %d packets in %.1f s on link %s (threshold %d).",
                        port, drops, iv.seconds(), link.get().name(), rules.maxDropsPerInterval())));
            }
        }
        final double pauses = perPriorityRate(iv, CounterNames.TX_PFC_PAUSE);
        if (pauses > rules.maxPfcPausesPerSec()) {
            add(out, new Breach(FaultType.PFC_STORM, portEntity, "tx_pfc_pause/s", pauses, rules.maxPfcPausesPerSec(),
                Severity.CRITICAL, String.format(Locale.ROOT, "%s sent %.0f PFC pause frames/s (threshold %.0f/s).",
                    port, pauses, rules.maxPfcPausesPerSec())));
        }
        final double speed = iv.gauges().getOrDefault(CounterNames.SPEED_BPS, 0.0);
        if (speed > 0) {
            final double utilization = Math.max(iv.rate(CounterNames.TX_BYTES), iv.rate(CounterNames.RX_BYTES)) * 8 / speed;
            if (utilization > rules.maxUtilization()) {
                add(out, new Breach(FaultType.UNEXPECTED_TRAFFIC, portEntity, "utilization", utilization,
                    rules.maxUtilization(), Severity.WARNING, String.format(Locale.ROOT,
                        "%s ran at %.0f%% of its %.0f Gb/s line rate (threshold %.0f%%).",
                        port, utilization * 100, speed / 1e9, rules.maxUtilization() * 100)));
            }
        }
        final double marks = iv.rate(CounterNames.ECN_MARKED);
        if (marks > rules.maxEcnMarkedPerSec()) {
            add(out, new Breach(FaultType.UNEXPECTED_TRAFFIC, portEntity, "ecn_marked/s", marks,
                rules.maxEcnMarkedPerSec(), Severity.WARNING, String.format(Locale.ROOT,
                    "%s ECN-marked %.0f packets/s (threshold %.0f/s).", port, marks, rules.maxEcnMarkedPerSec())));
        }
    }

    private static void add(final Map<String, Breach> out, final Breach b) {
        out.putIfAbsent(b.id(), b);
    }

    /** A counter's increase over the interval (0 if the port does not report it). */
    private static long increase(final PortInterval iv, final String counter) {
        return iv.increases().getOrDefault(counter, 0L);
    }

    /** Sum over priorities of a per-priority counter ({@code base.<prio>}), per second. */
    private static double perPriorityRate(final PortInterval iv, final String base) {
        final String prefix = base + ".";
        long sum = 0;
        for (final var e : iv.increases().entrySet()) {
            if (e.getKey().startsWith(prefix)) {
                sum += e.getValue();
            }
        }
        return sum / iv.seconds();
    }
}
