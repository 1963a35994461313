package dev.fabrictwin.analyzer.detect;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;

/**
 * {@code LINK_DEGRADED}: a link's receive-side error counters (corrected and uncorrectable FEC codewords, FCS
 * errors) per line-rate bit (the PHY encodes idle symbols too, so a bad lane shows on an idle link) rise far above what this link showed while healthy. Real links always correct
 * some codewords, so each port learns its own healthy level (a slow average of ticks without a finding) and
 * a port is judged against {@value #FACTOR}× that, never below the twin's expectation plus a floor of
 * {@value #FLOOR_PER_BIT} per bit (a BER no healthy 400G link approaches after FEC).
 */
public final class LinkErrorDetector implements Detector {

    static final double FACTOR = 20;
    static final double FLOOR_PER_BIT = 1e-8;
    private static final double LEARN = 0.02;
    /** Ticks shorter than this many line bits say little about the error rate. */
    private static final double MIN_BITS = 1e9;

    /** Each port's learned healthy error rate per line bit, by port index (sized to the fabric at the first tick). */
    private double[] healthyPerBit;

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        if (healthyPerBit == null) {
            healthyPerBit = new double[context.fabric().directedLinkCount()];
        }
        final Map<Integer, Finding> perLink = new HashMap<>();
        for (final PortTick t : context.ports()) {
            // FEC runs at the line rate (idle symbols included), so errors are judged per line-rate bit
            final double bits = context.capacityBps(t) * t.seconds();
            if (bits < MIN_BITS || t.unreliable() || TickContext.down(t)) {
                continue;
            }
            final double errors = t.observed(CounterIndex.FEC_CORRECTED) + t.observed(CounterIndex.FEC_UNCORRECTABLE)
                + t.observed(CounterIndex.FCS_ERRORS);
            final double expected = t.expected(CounterIndex.FEC_CORRECTED) + t.expected(CounterIndex.FEC_UNCORRECTABLE)
                + t.expected(CounterIndex.FCS_ERRORS);
            final double perBit = errors / bits;
            final double learned = healthyPerBit[t.index()];
            final double limit = Math.max(learned * FACTOR, expected / bits + FLOOR_PER_BIT);
            if (perBit <= limit) {
                healthyPerBit[t.index()] = learned + LEARN * (perBit - learned);
                continue;
            }
            final Link link = context.fabric().link(t.index() / 2);
            final double rate = errors / t.seconds();
            perLink.merge(link.index(), Finding.root(FaultType.LINK_DEGRADED, Entity.link(link), "link_errors/s",
                rate, expected / t.seconds(), Severity.CRITICAL,
                String.format("link %s—%s is degraded: %.3g FEC/FCS errors/s at %s %s (%.1e per line bit, healthy %.1e)",
                    link.lower().device(), link.upper().device(), rate, t.port().device(), t.port().port(), perBit,
                    Math.max(learned, expected / bits))),
                (a, b) -> a.observed() >= b.observed() ? a : b);
        }
        out.addAll(perLink.values());
    }
}
