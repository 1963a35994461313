package dev.fabrictwin.evaluation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.truth.TruthRecord;
import dev.fabrictwin.twin.fault.FaultType;

/**
 * Scores alerts against the injected faults exactly as docs/contracts.md, Scoring defines it. Only root-cause alerts
 * count, and not {@code JOB_BOTTLENECK}: it is an impact, never scored — so an injected {@code JOB_BOTTLENECK}
 * (a job's NICs capped) is not a fault to find either: no scored alert could ever detect it. A fault's window is
 * [start − 1 interval, end + 3 intervals]; it is <em>detected</em> when a root-cause alert of its type opens
 * (its {@code firstSeen}) inside the window, <em>localized</em> when that alert names exactly its target. An
 * alert is <em>true</em> when it opens inside the window of a fault of its type and names that fault's target.
 * False alerts per hour are counted over the healthy stretches of the run (no fault active, i.e. outside every
 * fault's [start, end]): alerts that are not true and open there, per hour of such stretches.
 *
 * @param overall the whole run
 * @param byType  per fault/alert type (types with neither a fault nor an alert are absent)
 */
public record Scorecard(Line overall, Map<String, Line> byType) {

    private static final Line EMPTY = new Line(0, 0, 0, 0, 0, 0, 0, List.of(), List.of());

    /** Alert types that are impacts, never scored. */
    private static final FaultType IMPACT_TYPE = FaultType.JOB_BOTTLENECK;

    /**
     * One row of the scorecard.
     *
     * @param faults        faults scored
     * @param detected      faults a root-cause alert of their type opened for in their window
     * @param localized     detected faults whose alert names exactly their target
     * @param alerts        root-cause alerts opened
     * @param trueAlerts    of those, alerts that open in the window of a fault of their type and name its target
     * @param falseHealthy  non-true alerts that opened while no fault window was open
     * @param healthyHours  length of the healthy stretches, hours
     * @param ttdMs         time to detect of each detected fault, ms, ascending
     * @param ttdIntervals  the same in sample intervals of each fault's scenario, ascending
     */
    public record Line(int faults, int detected, int localized, int alerts, int trueAlerts, int falseHealthy,
                       double healthyHours, List<Long> ttdMs, List<Double> ttdIntervals) {

        public Line {
            ttdMs = ttdMs.stream().sorted().toList();
            ttdIntervals = ttdIntervals.stream().sorted().toList();
        }

        /** Two runs' lines pooled: counts and healthy time add up, detection times are merged. */
        public Line plus(final Line o) {
            final List<Long> ms = new ArrayList<>(ttdMs);
            ms.addAll(o.ttdMs);
            final List<Double> iv = new ArrayList<>(ttdIntervals);
            iv.addAll(o.ttdIntervals);
            return new Line(faults + o.faults, detected + o.detected, localized + o.localized, alerts + o.alerts,
                trueAlerts + o.trueAlerts, falseHealthy + o.falseHealthy, healthyHours + o.healthyHours, ms, iv);
        }

        /** Detected / faults; NaN without faults. */
        public double recall() {
            return faults == 0 ? Double.NaN : detected / (double) faults;
        }

        /** True alerts / alerts opened; NaN when none opened (the contract's ratio is undefined then). */
        public double precision() {
            return alerts == 0 ? Double.NaN : trueAlerts / (double) alerts;
        }

        /** Localized / detected; NaN when nothing was detected. */
        public double localization() {
            return detected == 0 ? Double.NaN : localized / (double) detected;
        }

        public double ttdMedianSec() {
            return quantile(ttdMs.stream().map(Long::doubleValue).toList(), 0.5) / 1000.0;
        }

        public double ttdP95Sec() {
            return quantile(ttdMs.stream().map(Long::doubleValue).toList(), 0.95) / 1000.0;
        }

        public double ttdMedianIntervals() {
            return quantile(ttdIntervals, 0.5);
        }

        public double ttdP95Intervals() {
            return quantile(ttdIntervals, 0.95);
        }

        /** False alerts per hour of healthy run; NaN when the run had no healthy stretch. */
        public double falseAlertsPerHour() {
            return healthyHours <= 0 ? Double.NaN : falseHealthy / healthyHours;
        }

        /** Nearest-rank quantile of ascending values; NaN without any. */
        private static double quantile(final List<Double> sorted, final double q) {
            if (sorted.isEmpty()) {
                return Double.NaN;
            }
            final int rank = (int) Math.ceil(q * sorted.size());
            return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
        }
    }

    /** Several runs pooled (e.g. a scenario library): every fault and alert counts once, as if one long run. */
    public static Scorecard merge(final List<Scorecard> cards) {
        Line overall = EMPTY;
        final Map<String, Line> byType = new TreeMap<>();
        for (final Scorecard c : cards) {
            overall = overall.plus(c.overall());
            c.byType().forEach((type, line) -> byType.merge(type, line, Line::plus));
        }
        return new Scorecard(overall, byType);
    }

    /**
     * Scores {@code alerts} (every record read from {@code fabric.alerts}: the OPEN records are used) against the
     * faults that started in [runStartMs, runEndMs).
     */
    public static Scorecard score(final List<TruthRecord> truth, final List<Alert> alerts, final long intervalMs,
                                  final long runStartMs, final long runEndMs) {
        if (intervalMs <= 0 || runEndMs < runStartMs) {
            throw new IllegalArgumentException("interval must be > 0 and the run must not end before it starts");
        }
        final List<TruthRecord> faults = truth.stream()
            .filter(f -> f.start() < runEndMs && f.type() != IMPACT_TYPE)
            .sorted(Comparator.comparingLong(TruthRecord::start)).toList();
        final List<Alert> opened = alerts.stream()
            .filter(a -> a.state() == Alert.State.OPEN && a.rootCause() && a.type() != IMPACT_TYPE)
            .sorted(Comparator.comparingLong(Alert::firstSeen)).toList();
        final double healthyHours = healthyMs(faults, runStartMs, runEndMs) / 3_600_000.0;

        final Map<String, Acc> byType = new TreeMap<>();
        final Acc all = new Acc();
        for (final TruthRecord f : faults) {
            final Acc t = byType.computeIfAbsent(f.type().name(), k -> new Acc());
            // the first in-window alert naming the target, else (detected, not localized) the first in-window one:
            // with two concurrent faults of one type, one fault's alert must not stand for the other's
            final Alert naming = opened.stream().filter(a -> f.localizedBy(a, intervalMs))
                .findFirst().orElse(null);
            final Alert first = naming != null ? naming
                : opened.stream().filter(a -> f.detectedBy(a, intervalMs)).findFirst().orElse(null);
            for (final Acc acc : List.of(all, t)) {
                acc.faults++;
                if (first != null) {
                    acc.detected++;
                    acc.ttd.add(first.firstSeen() - f.start());
                    if (naming != null) {
                        acc.localized++;
                    }
                }
            }
        }
        for (final Alert a : opened) {
            final Acc t = byType.computeIfAbsent(a.type().name(), k -> new Acc());
            final boolean isTrue = faults.stream().anyMatch(f -> f.localizedBy(a, intervalMs));
            final boolean healthy = faults.stream().noneMatch(f -> a.firstSeen() >= f.start() && a.firstSeen() <= f.end());
            for (final Acc acc : List.of(all, t)) {
                acc.alerts++;
                acc.trueAlerts += isTrue ? 1 : 0;
                acc.falseHealthy += !isTrue && healthy ? 1 : 0;
            }
        }
        final Map<String, Line> lines = new TreeMap<>();
        byType.forEach((type, acc) -> lines.put(type, acc.line(healthyHours, intervalMs)));
        return new Scorecard(all.line(healthyHours, intervalMs), lines);
    }

    public Scorecard {
        byType = Collections.unmodifiableSortedMap(new TreeMap<>(byType));
    }

    /** Length of [runStart, runEnd) with no fault active (outside every [start, end]). */
    private static long healthyMs(final List<TruthRecord> faults, final long runStart, final long runEnd) {
        long covered = 0;
        long cursor = runStart;
        for (final TruthRecord f : faults) { // sorted by start
            final long s = Math.max(cursor, f.start());
            final long e = Math.min(runEnd, f.end());
            if (e > s) {
                covered += e - s;
            }
            cursor = Math.max(cursor, Math.min(runEnd, f.end()));
        }
        return Math.max(0, runEnd - runStart - covered);
    }

    /** Mutable counts while scoring; {@link #line} snapshots them. */
    private static final class Acc {
        private int faults;
        private int detected;
        private int localized;
        private int alerts;
        private int trueAlerts;
        private int falseHealthy;
        private final List<Long> ttd = new ArrayList<>();

        Line line(final double healthyHours, final long intervalMs) {
            return new Line(faults, detected, localized, alerts, trueAlerts, falseHealthy, healthyHours, ttd,
                ttd.stream().map(ms -> ms / (double) intervalMs).toList());
        }
    }
}
