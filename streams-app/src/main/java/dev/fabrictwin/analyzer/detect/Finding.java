package dev.fabrictwin.analyzer.detect;

import java.io.Serializable;

import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fault.FaultType;

/**
 * One detector's verdict for one tick: something the twin does not explain.
 *
 * @param rootCandidate true when this can be a cause on its own; false for a symptom that needs a cause
 * @param cause         for a symptom, the entity whose fault explains it (the correlator links it to that
 *                      entity's alert); null when unknown
 * @param metric        what was compared, e.g. {@code fec_corrected/s}
 * @param observed      the observed value of {@code metric}
 * @param expected      the twin's value of {@code metric}
 * @param evidence      the span of the telemetry intervals of the entity's ports in the tick it was found, which the
 *                      alert's {@code firstSeen}/{@code lastSeen} never exceed; null when the entity has no ports
 *                      (a job) or none reported in the tick: the tick's span then stands
 */
public record Finding(FaultType type, Entity entity, boolean rootCandidate, Entity cause, String metric,
                      double observed, double expected, Severity severity, String summary, Evidence evidence)
    implements Serializable {

    /** When the telemetry behind a finding was taken (epoch ms): from the latest start of its intervals to their latest end. */
    public record Evidence(long fromMs, long toMs) implements Serializable {
    }

    public static Finding root(final FaultType type, final Entity entity, final String metric, final double observed,
                               final double expected, final Severity severity, final String summary) {
        return new Finding(type, entity, true, null, metric, observed, expected, severity, summary, null);
    }

    public static Finding symptom(final FaultType type, final Entity entity, final Entity cause, final String metric,
                                  final double observed, final double expected, final String summary) {
        return new Finding(type, entity, false, cause, metric, observed, expected, Severity.WARNING, summary, null);
    }

    /** The same finding about another entity (a more precise name for what it found). */
    public Finding naming(final Entity other) {
        return new Finding(type, other, rootCandidate, cause, metric, observed, expected, severity, summary, evidence);
    }

    /** The same finding, its telemetry taken over {@code span} (null: unknown). */
    public Finding withEvidence(final Evidence span) {
        return new Finding(type, entity, rootCandidate, cause, metric, observed, expected, severity, summary, span);
    }
}
