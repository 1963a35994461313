package dev.fabrictwin.analyzer.detect;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.checkpoint.LearnedPart;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;

/**
 * {@code LINK_DEGRADED}: a link's receive-side error counters (corrected and uncorrectable FEC codewords, FCS errors)
 * far above what this port's own healthy history makes plausible. Each port learns its error rate from ticks no alert
 * covers — errors over healthy seconds, with {@link DetectionCalibration#linkErrorPriorErrors} pseudo-error so a port
 * that never erred is not rate 0 and a short history is judged leniently, remembering
 * {@link DetectionCalibration#linkErrorHorizonSeconds} of exposure — and the errors of the newest
 * {@link DetectionCalibration#linkErrorWindowSeconds} are a departure ({@link #departs}) when that rate makes at least
 * as many less likely than {@link DetectionCalibration#linkErrorTail} (Poisson, Chernoff-bounded) and they are
 * {@link DetectionCalibration#linkErrorFactor}× what it makes; nothing is judged before a port has learned
 * {@link DetectionCalibration#linkErrorWarmUpSeconds} healthy seconds. No per-bit floor: what a healthy link shows is the
 * link's own (many real links count no FEC at all, some correct thousands of codewords a second); a link that went
 * from 0 to a few FCS errors a second is degraded at any BER.
 */
final class LinkErrorDetector implements Detector, LearnedPart {

    /** Each port's healthy errors and healthy seconds, by port index (sized to the fabric at the first tick). */
    private float[] healthyErrors;
    private float[] healthySeconds;
    /** The newest window's errors and seconds, only for ports that showed an error (most never do). */
    private final Map<Integer, Rolling[]> recent = new HashMap<>();

    @Override
    public String learnedName() {
        return "link-errors";
    }

    @Override
    public int learnedVersion() {
        return 1;
    }

    /** Each port's healthy errors and seconds: its learned error rate. */
    @Override
    public void writeLearned(final DataOutput out) throws IOException {
        final int ports = healthyErrors == null ? 0 : healthyErrors.length;
        out.writeInt(ports);
        for (int i = 0; i < ports; i++) {
            out.writeFloat(healthyErrors[i]);
            out.writeFloat(healthySeconds[i]);
        }
    }

    @Override
    public boolean readLearned(final DataInput in, final int version) throws IOException {
        if (version != 1) {
            return false;
        }
        final int ports = in.readInt();
        if (ports > 0) {
            healthyErrors = new float[ports];
            healthySeconds = new float[ports];
            for (int i = 0; i < ports; i++) {
                healthyErrors[i] = in.readFloat();
                healthySeconds[i] = in.readFloat();
            }
        }
        return true;
    }

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        final DetectionCalibration cal = context.config().calibration();
        if (healthyErrors == null || healthyErrors.length != context.fabric().directedLinkCount()) {
            healthyErrors = new float[context.fabric().directedLinkCount()];
            healthySeconds = new float[context.fabric().directedLinkCount()];
        }
        final int window = Math.max(1, (int) Math.round(cal.linkErrorWindowSeconds() * 1000 / context.config().tickMs()));
        final Map<Integer, Finding> perLink = new HashMap<>();
        for (final PortTick t : context.ports()) {
            if (t.seconds() <= 0 || t.unreliable() || TickContext.down(t)) {
                continue;
            }
            final int i = t.index();
            final double errors = t.observed(CounterIndex.FEC_CORRECTED) + t.observed(CounterIndex.FEC_UNCORRECTABLE)
                + t.observed(CounterIndex.FCS_ERRORS);
            Rolling[] w = recent.get(i);
            if (w == null && errors > 0) {
                w = new Rolling[] {new Rolling(window), new Rolling(window)};
                recent.put(i, w);
            }
            double windowErrors = errors;
            double windowSeconds = t.seconds();
            if (w != null) {
                w[0].add(errors);
                w[1].add(t.seconds());
                windowErrors = w[0].sum();
                windowSeconds = w[1].sum();
            }
            final double rate = learnedRate(healthyErrors[i], healthySeconds[i], cal);
            if (healthySeconds[i] < cal.linkErrorWarmUpSeconds() || !departs(windowErrors, rate * windowSeconds, cal)) {
                if (context.calm()) {
                    learn(i, errors, t.seconds(), cal);
                }
                if (w != null && w[0].sum() == 0) {
                    recent.remove(i); // quiet again for a whole window: nothing to keep
                }
                continue;
            }
            final Link link = context.fabric().link(i / 2);
            final double perSecond = windowErrors / windowSeconds;
            perLink.merge(link.index(), Finding.root(FaultType.LINK_DEGRADED, Entity.link(link), "link_errors/s",
                perSecond, rate, Severity.CRITICAL,
                String.format("link %s—%s is degraded: %.3g FEC/FCS errors/s at %s %s over %.3g s, where its healthy "
                    + "history makes %.2g/s", link.lower().device(), link.upper().device(), perSecond,
                    t.port().device(), t.port().port(), windowSeconds, rate)),
                (a, b) -> a.observed() >= b.observed() ? a : b);
        }
        out.addAll(perLink.values());
    }

    /** Errors per second a port's healthy history makes: (errors + prior) / healthy seconds. */
    static double learnedRate(final double errors, final double seconds, final DetectionCalibration cal) {
        return (errors + cal.linkErrorPriorErrors()) / Math.max(seconds, cal.linkErrorWindowSeconds());
    }

    /**
     * {@code errors} in a window where the learned rate makes {@code mean}: at least the factor over it, and the
     * Poisson chance of as many at most the tail (Chernoff: P(X ≥ k) ≤ e^-μ (eμ/k)^k for k > μ).
     */
    static boolean departs(final double errors, final double mean, final DetectionCalibration cal) {
        if (!(errors > cal.linkErrorFactor() * mean) || errors <= 0) {
            return false;
        }
        final double logTail = -mean + errors * (1 + Math.log(mean) - Math.log(errors));
        return logTail < Math.log(cal.linkErrorTail());
    }

    /** The error rate port {@code port} learned (for tests). */
    double learnedRate(final int port, final DetectionCalibration cal) {
        return healthyErrors == null ? Double.NaN : learnedRate(healthyErrors[port], healthySeconds[port], cal);
    }

    private void learn(final int port, final double errors, final double seconds, final DetectionCalibration cal) {
        double e = healthyErrors[port] + errors;
        double s = healthySeconds[port] + seconds;
        if (s > cal.linkErrorHorizonSeconds()) {
            e *= cal.linkErrorHorizonSeconds() / s;
            s = cal.linkErrorHorizonSeconds();
        }
        healthyErrors[port] = (float) e;
        healthySeconds[port] = (float) s;
    }
}
