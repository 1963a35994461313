package dev.fabrictwin.evaluation;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;


/** Prints scorecards as a table (analyzer and, when given, the baseline side by side) and as JSON. */
public final class ScoreTable {

    private ScoreTable() {
    }

    /** Per-type rows and the overall row; {@code baseline} may be null. */
    public static void print(final PrintWriter out, final Scorecard analyzer, final Scorecard baseline) {
        out.printf(Locale.ROOT, "  %-18s %6s │ %-44s%s%n", "", "", "twin-based analyzer",
            baseline == null ? "" : "│ static-threshold baseline");
        out.printf(Locale.ROOT, "  %-18s %6s │ %6s %6s %6s %7s %7s %7s %s%n", "type", "faults", "recall", "prec",
            "local", "ttd s", "ttd iv", "false/h", baseline == null ? "" : "│ recall   prec  local   ttd s false/h");
        final TreeSet<String> types = new TreeSet<>(analyzer.byType().keySet());
        if (baseline != null) {
            types.addAll(baseline.byType().keySet());
        }
        for (final String type : types) {
            out.println(row(type, analyzer.byType().get(type), baseline == null ? null : baseline.byType().get(type),
                baseline != null));
        }
        out.println(row("overall", analyzer.overall(), baseline == null ? null : baseline.overall(), baseline != null));
        out.flush();
    }

    private static String row(final String name, final Scorecard.Line a, final Scorecard.Line b, final boolean withBaseline) {
        final Scorecard.Line shown = a != null ? a : b;
        final StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "  %-18s %6d │ ", name, shown.faults()));
        s.append(a == null ? String.format(Locale.ROOT, "%6s %6s %6s %7s %7s %7s ", "", "", "", "", "", "")
            : String.format(Locale.ROOT, "%6s %6s %6s %7s %7s %7s ", num(a.recall()), num(a.precision()),
                num(a.localization()), num(a.ttdMedianSec()), num(a.ttdMedianIntervals()), num(a.falseAlertsPerHour())));
        if (withBaseline) {
            s.append(b == null ? "│" : String.format(Locale.ROOT, "│ %6s %6s %6s %7s %7s", num(b.recall()),
                num(b.precision()), num(b.localization()), num(b.ttdMedianSec()), num(b.falseAlertsPerHour())));
        }
        return s.toString().stripTrailing();
    }

    /** Two decimals, or a dash where the figure is undefined (NaN). */
    public static String num(final double v) {
        return Double.isNaN(v) ? "—" : String.format(Locale.ROOT, "%.2f", v);
    }

    /** The figures of one scorecard under the names docs/contracts.md and the benchmarks give; NaN becomes null. */
    public static Map<String, Object> json(final Scorecard card) {
        final Map<String, Object> out = new LinkedHashMap<>(figures(card.overall()));
        final Map<String, Object> byType = new LinkedHashMap<>();
        card.byType().forEach((type, line) -> byType.put(type, figures(line)));
        out.put("byType", byType);
        return out;
    }

    private static Map<String, Object> figures(final Scorecard.Line l) {
        final Map<String, Double> f = new LinkedHashMap<>();
        f.put("recall", l.recall());
        f.put("precision", l.precision());
        f.put("localization", l.localization());
        f.put("ttdMedianSec", l.ttdMedianSec());
        f.put("ttdP95Sec", l.ttdP95Sec());
        f.put("ttdMedianIntervals", l.ttdMedianIntervals());
        f.put("ttdP95Intervals", l.ttdP95Intervals());
        f.put("falseAlertsPerHour", l.falseAlertsPerHour());
        f.put("faults", (double) l.faults());
        f.put("detected", (double) l.detected());
        f.put("alerts", (double) l.alerts());
        return Json.rounded(f);
    }

    /** The JSON line of an evaluation: the analyzer's figures, and {@code baseline} with the same keys. */
    public static String jsonLine(final Scorecard analyzer, final Scorecard baseline, final Map<String, Object> extra) {
        final Map<String, Object> out = new LinkedHashMap<>(json(analyzer));
        if (baseline != null) {
            out.put("baseline", json(baseline));
        }
        out.putAll(extra);
        return Json.line(out);
    }
}
