package dev.fabrictwin.evaluation.robustness;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.evaluation.Evaluation;
import dev.fabrictwin.evaluation.Json;
import dev.fabrictwin.evaluation.ScoreTable;
import dev.fabrictwin.evaluation.Scorecard;
import dev.fabrictwin.simulator.reality.Reality;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.scenario.Scenario;

/**
 * The robustness suite: each scenario run over draws 1..N of the hidden parameters (its faults and jobs unchanged),
 * scored per draw, and summarized per fault type as the mean over draws and the worst draw; false root alerts on the
 * faultless scenarios per hour and per 10k ports per day, and every false alert's type (which detector misfired).
 */
public final class Robustness {

    private Robustness() {
    }

    /** One scenario under one draw. */
    public record Run(String scenario, int draw, long intervalMs, Evaluation evaluation, double seconds) {
        boolean healthy() {
            return evaluation.truth().stream().noneMatch(t -> t.type() != FaultType.JOB_BOTTLENECK);
        }
    }

    /** A figure over the draws: its mean and its worst draw (lowest, or highest for times). */
    public record Spread(double mean, double worst) {
        static Spread of(final List<Double> perDraw, final boolean higherIsWorse) {
            final List<Double> v = perDraw.stream().filter(d -> !Double.isNaN(d)).toList();
            if (v.isEmpty()) {
                return new Spread(Double.NaN, Double.NaN);
            }
            final double mean = v.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            final double worst = higherIsWorse ? v.stream().mapToDouble(Double::doubleValue).max().orElseThrow()
                : v.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            return new Spread(mean, worst);
        }
    }

    /** One fault type's (or the overall) figures over the draws; {@code faults} is per draw. */
    public record Row(String type, int faults, Spread recall, Spread precision, Spread localization, Spread ttdIntervals) {
    }

    /**
     * False root alerts on the faultless scenarios.
     *
     * @param portHours sum over runs of ports × simulated hours
     */
    public record Healthy(int runs, double hours, double portHours, int falseAlerts) {
        public double perHour() {
            return hours <= 0 ? Double.NaN : falseAlerts / hours;
        }

        public double per10kPortsPerDay() {
            return portHours <= 0 ? Double.NaN : falseAlerts / portHours * 10_000 * 24;
        }
    }

    /**
     * The suite's figures.
     *
     * @param falseByType        every root alert that names no fault of its type in its window, by type
     * @param healthyFalseByType of those, the ones on faultless scenarios
     * @param examples           a few false alerts: scenario, draw, alert id
     */
    public record Report(int draws, int scenarios, List<Row> rows, Row overall, Healthy healthy,
                         Map<String, Integer> falseByType, Map<String, Integer> healthyFalseByType, List<String> examples) {
    }

    /** Runs every scenario under draws 1..{@code draws}; {@code progress} hears one line per finished run. */
    public static List<Run> run(final List<Scenario> scenarios, final int draws, final Reality reality,
                                final Evaluation.Mode mode, final Consumer<String> progress) throws Exception {
        final List<Run> runs = new ArrayList<>();
        for (int d = 1; d <= draws; d++) {
            for (final Scenario s : scenarios) {
                final long t0 = System.nanoTime();
                final Evaluation e = Evaluation.run(s.withTelemetry(s.telemetry().withRealityDraw(d)), mode, false, reality);
                final double seconds = (System.nanoTime() - t0) / 1e9;
                runs.add(new Run(s.name(), d, s.sampleInterval().toMillis(), e, seconds));
                final Scorecard.Line o = e.analyzer().overall();
                progress.accept(String.format(Locale.ROOT, "draw %d/%d %-34s recall %s precision %s  %d false  (%,d samples, %.1f s)",
                    d, draws, s.name(), ScoreTable.num(o.recall()), ScoreTable.num(o.precision()), falseAlerts(e, s.sampleInterval().toMillis()).size(),
                    e.samples(), seconds));
            }
        }
        return runs;
    }

    public static Report report(final List<Run> runs) {
        final Map<Integer, List<Scorecard>> byDraw = new TreeMap<>();
        runs.forEach(r -> byDraw.computeIfAbsent(r.draw(), k -> new ArrayList<>()).add(r.evaluation().analyzer()));
        final List<Scorecard> perDraw = byDraw.values().stream().map(Scorecard::merge).toList();
        final TreeMap<String, List<Scorecard.Line>> lines = new TreeMap<>();
        for (final Scorecard c : perDraw) {
            c.byType().forEach((type, line) -> lines.computeIfAbsent(type, k -> new ArrayList<>()).add(line));
        }
        final List<Row> rows = new ArrayList<>();
        lines.forEach((type, l) -> rows.add(row(type, l)));
        final Row overall = row("overall", perDraw.stream().map(Scorecard::overall).toList());

        int healthyRuns = 0;
        double hours = 0;
        double portHours = 0;
        int healthyFalse = 0;
        final Map<String, Integer> falseByType = new TreeMap<>();
        final Map<String, Integer> healthyFalseByType = new TreeMap<>();
        final List<String> examples = new ArrayList<>();
        for (final Run r : runs) {
            final List<Alert> wrong = falseAlerts(r.evaluation(), r.intervalMs());
            for (final Alert a : wrong) {
                falseByType.merge(a.type().name(), 1, Integer::sum);
                if (r.healthy()) {
                    healthyFalseByType.merge(a.type().name(), 1, Integer::sum);
                }
                if (examples.size() < 30) {
                    examples.add(r.scenario() + " draw " + r.draw() + ": " + a.id());
                }
            }
            if (r.healthy()) {
                final double h = r.evaluation().analyzer().overall().healthyHours();
                healthyRuns++;
                hours += h;
                portHours += h * r.evaluation().ports();
                healthyFalse += wrong.size();
            }
        }
        return new Report(byDraw.size(), (int) runs.stream().map(Run::scenario).distinct().count(), rows, overall,
            new Healthy(healthyRuns, hours, portHours, healthyFalse), falseByType, healthyFalseByType, examples);
    }

    /** Root-cause alerts (impacts aside) that name no fault of their type inside its window. */
    static List<Alert> falseAlerts(final Evaluation e, final long interval) {
        return e.alerts().stream()
            .filter(a -> a.state() == Alert.State.OPEN && a.rootCause() && a.type() != FaultType.JOB_BOTTLENECK)
            .filter(a -> e.truth().stream().noneMatch(t -> t.localizedBy(a, interval)))
            .toList();
    }

    private static Row row(final String type, final List<Scorecard.Line> perDraw) {
        return new Row(type, perDraw.isEmpty() ? 0 : perDraw.get(0).faults(),
            spread(perDraw, Scorecard.Line::recall, false), spread(perDraw, Scorecard.Line::precision, false),
            spread(perDraw, Scorecard.Line::localization, false), spread(perDraw, Scorecard.Line::ttdMedianIntervals, true));
    }

    private static Spread spread(final List<Scorecard.Line> lines, final ToDoubleFunction<Scorecard.Line> f, final boolean higherIsWorse) {
        return Spread.of(lines.stream().map(l -> f.applyAsDouble(l)).toList(), higherIsWorse);
    }

    public static void print(final PrintWriter out, final Report r) {
        out.printf(Locale.ROOT, "Robustness: %d scenario(s) × %d draw(s) of the hidden parameters (mean over draws / worst draw)%n",
            r.scenarios(), r.draws());
        out.printf(Locale.ROOT, "  %-18s %6s │ %-13s │ %-13s │ %-13s │ %-13s%n", "type", "faults", "recall", "precision",
            "localization", "ttd intervals");
        for (final Row row : r.rows()) {
            out.println(line(row));
        }
        out.println(line(r.overall()));
        final Healthy h = r.healthy();
        out.printf(Locale.ROOT, "Healthy scenarios: %d run(s), %.2f simulated h, %.0f port-hours: %d false root alert(s) = %s per hour,"
            + " %s per 10k ports per day%n", h.runs(), h.hours(), h.portHours(), h.falseAlerts(), ScoreTable.num(h.perHour()),
            ScoreTable.num(h.per10kPortsPerDay()));
        out.printf(Locale.ROOT, "False root alerts by type (all runs): %s; on healthy scenarios: %s%n",
            r.falseByType().isEmpty() ? "none" : r.falseByType(), r.healthyFalseByType().isEmpty() ? "none" : r.healthyFalseByType());
        r.examples().forEach(e -> out.println("  false: " + e));
        out.flush();
    }

    private static String line(final Row row) {
        return String.format(Locale.ROOT, "  %-18s %6d │ %5s / %5s │ %5s / %5s │ %5s / %5s │ %5s / %5s", row.type(), row.faults(),
            ScoreTable.num(row.recall().mean()), ScoreTable.num(row.recall().worst()), ScoreTable.num(row.precision().mean()),
            ScoreTable.num(row.precision().worst()), ScoreTable.num(row.localization().mean()),
            ScoreTable.num(row.localization().worst()), ScoreTable.num(row.ttdIntervals().mean()),
            ScoreTable.num(row.ttdIntervals().worst()));
    }

    /** The figures as one JSON line (NaN as null). */
    public static String json(final Report r) {
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("draws", r.draws());
        out.put("scenarios", r.scenarios());
        out.put("overall", figures(r.overall()));
        final Map<String, Object> byType = new LinkedHashMap<>();
        r.rows().forEach(row -> byType.put(row.type(), figures(row)));
        out.put("byType", byType);
        final Map<String, Double> healthy = new LinkedHashMap<>();
        healthy.put("healthyRuns", (double) r.healthy().runs());
        healthy.put("healthyHours", r.healthy().hours());
        healthy.put("healthyPortHours", r.healthy().portHours());
        healthy.put("healthyFalseAlerts", (double) r.healthy().falseAlerts());
        healthy.put("healthyFalseAlertsPerHour", r.healthy().perHour());
        healthy.put("falseAlertsPer10kPortsPerDay", r.healthy().per10kPortsPerDay());
        out.putAll(Json.rounded(healthy));
        out.put("falseAlertsByType", r.falseByType());
        out.put("healthyFalseAlertsByType", r.healthyFalseByType());
        return Json.line(out);
    }

    private static Map<String, Object> figures(final Row row) {
        final Map<String, Double> f = new LinkedHashMap<>();
        f.put("faults", (double) row.faults());
        f.put("recallMean", row.recall().mean());
        f.put("recallWorst", row.recall().worst());
        f.put("precisionMean", row.precision().mean());
        f.put("precisionWorst", row.precision().worst());
        f.put("localizationMean", row.localization().mean());
        f.put("localizationWorst", row.localization().worst());
        f.put("ttdMedianIntervalsMean", row.ttdIntervals().mean());
        f.put("ttdMedianIntervalsWorst", row.ttdIntervals().worst());
        return Json.rounded(f);
    }

}
