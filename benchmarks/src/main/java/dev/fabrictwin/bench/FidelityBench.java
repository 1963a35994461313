package dev.fabrictwin.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import dev.fabrictwin.twin.fidelity.Fidelity;
import dev.fabrictwin.twin.fidelity.ReferenceCase;
import dev.fabrictwin.twin.scenario.Routing;

/**
 * {@code bench fidelity}: each packet-level reference case (docs/fidelity.md) on the twin over hash seeds, one line
 * per case (reference seed 1 and median, twin median and range, ratio of medians, median solve time after
 * {@value #WARMUP} untimed solves).
 */
public final class FidelityBench {

    /** Untimed solves of each case first, so the solve column is the JIT-compiled twin's. */
    private static final int WARMUP = 3;

    private FidelityBench() {
    }

    /** Figures by name: {@code <case>.ratio} and {@code <case>.solveSeconds}, case names with spaces as dashes. */
    public static Map<String, Double> run(final int seeds, final List<String> only, final Consumer<String> line) {
        final Map<String, Double> out = new LinkedHashMap<>();
        line.accept(String.format(Locale.ROOT, "%-15s %9s %9s %9s %17s %7s %10s %8s", "case", "ref s1", "ref p50",
            "twin p50", "twin range", "ratio", "mean ratio", "solve s"));
        for (final ReferenceCase c : ReferenceCase.all()) {
            if (!only.isEmpty() && !only.contains(c.name())) {
                continue;
            }
            for (int w = 0; w < WARMUP; w++) {
                Fidelity.run(c, 1000 + w, Routing.Mode.ECMP); // solve times are warm
            }
            final Fidelity.Sweep s = Fidelity.sweep(c, seeds);
            line.accept(String.format(Locale.ROOT, "%-15s %9.3f %9.3f %9.3f %8.2f–%-8.2f %7.3f %10.3f %8.3f", c.name(),
                c.referenceMs(), c.referenceMedianMs(), s.twinMedianMs(), s.twinMinMs(), s.twinMaxMs(), s.ratio(),
                s.meanRatio(), s.medianSolveSeconds()));
            final String key = c.name().replace(' ', '-');
            out.put(key + ".ratio", s.ratio());
            out.put(key + ".meanRatio", s.meanRatio());
            out.put(key + ".solveSeconds", s.medianSolveSeconds());
        }
        return out;
    }
}
