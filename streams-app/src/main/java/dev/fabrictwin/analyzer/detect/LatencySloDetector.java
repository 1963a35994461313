package dev.fabrictwin.analyzer.detect;

import java.util.List;

import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;

/**
 * {@code LATENCY_SLO}: a port's P99 latency above the SLO (the one static threshold, an operator's input)
 * and above what the twin expects there by more than {@value #MARGIN_US} µs plus {@value #MARGIN_SHARE} of it.
 * Latency that queueing explains (a queue beyond the twin's) is a symptom of that congestion, not a cause.
 */
public final class LatencySloDetector implements Detector {

    static final double MARGIN_US = 5;
    static final double MARGIN_SHARE = 0.5;

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        final double slo = context.config().latencySloUs();
        for (final PortTick t : context.ports()) {
            final double p99 = t.gauge(CounterNames.LATENCY_P99_US);
            final double expected = t.expectedGauge(CounterIndex.LATENCY_P99_US);
            if (Double.isNaN(p99) || p99 <= slo || p99 <= expected * (1 + MARGIN_SHARE) + MARGIN_US) {
                continue;
            }
            final String summary = String.format("P99 latency at %s %s is %.1f µs: over the %.0f µs SLO and the "
                + "twin's %.1f µs", t.port().device(), t.port().port(), p99, slo, expected);
            if (PfcOriginDetector.congested(context, t)) {
                out.add(Finding.symptom(FaultType.LATENCY_SLO, Entity.port(t.port()),
                    Entity.link(context.fabric().link(t.index() / 2)), "latency_p99_us", p99, expected,
                    summary + " (queueing)"));
            } else {
                out.add(Finding.root(FaultType.LATENCY_SLO, Entity.port(t.port()), "latency_p99_us", p99, expected,
                    Severity.WARNING, summary));
            }
        }
    }
}
