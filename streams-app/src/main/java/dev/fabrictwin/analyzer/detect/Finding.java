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
 */
public record Finding(FaultType type, Entity entity, boolean rootCandidate, Entity cause, String metric,
                      double observed, double expected, Severity severity, String summary) implements Serializable {

    public static Finding root(final FaultType type, final Entity entity, final String metric, final double observed,
                               final double expected, final Severity severity, final String summary) {
        return new Finding(type, entity, true, null, metric, observed, expected, severity, summary);
    }

    public static Finding symptom(final FaultType type, final Entity entity, final Entity cause, final String metric,
                                  final double observed, final double expected, final String summary) {
        return new Finding(type, entity, false, cause, metric, observed, expected, Severity.WARNING, summary);
    }

    /** The same finding about another entity (a more precise name for what it found). */
    public Finding naming(final Entity other) {
        return new Finding(type, other, rootCandidate, cause, metric, observed, expected, severity, summary);
    }
}
