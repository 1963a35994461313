package dev.fabrictwin.analyzer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

class DetectionCalibrationTest {

    private final DetectionCalibration cal = DetectionCalibration.defaults();

    /** Pins the defaults docs/analyzer.md prints: a change here is a change of the detectors' behaviour. */
    @Test
    void shouldKeepTheDocumentedDefaults() {
        assertThat(cal).isEqualTo(new DetectionCalibration(16, 16, List.of(0.01, 0.1, 0.5), 3, 3, 3, 3_600, 10_000, 12, 0.1,
            0.01, 100, 1_000, 0.02, 1.2e-9, 10, 5, 3_600, 1, 10,
            new DetectionCalibration.SilentDrop(30, List.of(1, 3, 9), 5, 4, 5, 10, 0.001, 1e5, 0.05, 100,
                new DetectionCalibration.FastTest(30, 10, 30, 8, 32, 3, 1.1, 1.5, 1.1), 1.25),
            new DetectionCalibration.Ecmp(5, 40_000, 20_000_000L, 1e-3, 5e-2, 10, 20, 0.1, 30, 10, 0.05),
            new DetectionCalibration.UnexpectedTraffic(5, 0.2, 1.5, 16, 3, 0.9, 0.1, 30, 0.25),
            new DetectionCalibration.Ecn(10, 3, 1e5, 1.5),
            new DetectionCalibration.Pfc(0.05, 50_000, 1.25, 0.01),
            new DetectionCalibration.Straggler(4, 0.7, 0.75, 0.1, 32, 0.25, 2, 0.1),
            new DetectionCalibration.LatencySlo(5, 0.5),
            new DetectionCalibration.Jobs(1.3, 1.15, 0.5, 4, 20, 5, 10, 10, 0.05, 2.5, 10, 120, 0.1, 0.01, 2,
                new DetectionCalibration.Phase(16, 40, 4, 0.5, 4.0)),
            new DetectionCalibration.Correlation(15, 30),
            new DetectionCalibration.Paths(10, 0.1, 20, 10_000),
            new DetectionCalibration.LinkFlap(3, 300)));
        assertThat(AnalyzerConfig.defaults(1_000).calibration()).isEqualTo(cal);
        assertThat(AnalyzerConfig.defaults(1_000).latencySlo()).isEmpty();
    }

    /** docs/analyzer.md's calibration table lists every number, nested ones by path, each with its default. */
    @Test
    void shouldPrintEveryNumberWithItsDefaultInTheDocumentedTable() throws IOException {
        final Map<String, List<Double>> documented = documentedTable(Path.of("..", "docs", "analyzer.md"));
        final Map<String, List<Double>> actual = new LinkedHashMap<>();
        leaves("", cal, actual);

        assertThat(actual).hasSizeGreaterThan(90);
        assertThat(documented).containsExactlyInAnyOrderEntriesOf(actual);
    }

    @Test
    void shouldPutUtilizationsIntoRegimesByTheirBounds() {
        assertThat(cal.latencyRegimeCount()).isEqualTo(4);
        assertThat(cal.latencyRegime(0)).isZero();
        assertThat(cal.latencyRegime(0.0099)).isZero();
        assertThat(cal.latencyRegime(0.01)).isEqualTo(1);
        assertThat(cal.latencyRegime(0.3)).isEqualTo(2);
        assertThat(cal.latencyRegime(1.2)).isEqualTo(3);
    }

    @Test
    void shouldPutQueuesIntoDoublingBands() {
        assertThat(cal.ecnBand(Double.NaN)).isEqualTo(-1);
        assertThat(cal.ecnBand(9_999)).isEqualTo(-1);
        assertThat(cal.ecnBand(10_000)).isZero();
        assertThat(cal.ecnBand(39_999)).isEqualTo(1);
        assertThat(cal.ecnBand(400_000)).isEqualTo(5);
        assertThat(cal.ecnBand(1e12)).isEqualTo(11);
    }

    @Test
    void shouldRefuseInconsistentNumbersAtConstruction() {
        assertThatThrownBy(() -> learned(16, 17, List.of(0.01), 3, 1e-9, 3_600)).hasMessageContaining("learnWarmUp");
        assertThatThrownBy(() -> learned(16, 16, List.of(0.1, 0.01), 3, 1e-9, 3_600)).hasMessageContaining("latencyRegimes");
        assertThatThrownBy(() -> learned(16, 16, List.of(0.01), 1, 1e-9, 3_600)).hasMessageContaining("latencyFloorFactor");
        assertThatThrownBy(() -> learned(16, 16, List.of(0.01), 3, 0.7, 3_600)).hasMessageContaining("linkErrorTail");
        assertThatThrownBy(() -> learned(16, 16, List.of(0.01), 3, 1e-9, 3)).hasMessageContaining("linkErrorHorizonSeconds");
    }

    @Test
    void shouldRefuseInconsistentNumbersOfEveryDetectorAtConstruction() {
        assertThatThrownBy(() -> new DetectionCalibration.SilentDrop(30, List.of(1, 0), 5, 4, 5, 10, 0.001, 1e5, 0.05, 100,
            cal.silentDrop().fastTest(), 2)).hasMessage("detection calibration: silentDrop.scales all >= 1, was [1, 0]");
        assertThatThrownBy(() -> new DetectionCalibration.SilentDrop(30, List.of(1), 5, 4, 5, 31, 0.001, 1e5, 0.05, 100,
            cal.silentDrop().fastTest(), 2)).hasMessageContaining("silentDrop.minActivePoints");
        assertThatThrownBy(() -> new DetectionCalibration.SilentDrop(30, List.of(1), 5, 4, 5, 10, 0.001, 1e5, 0.05, 100,
            cal.silentDrop().fastTest(), 0.5)).hasMessageContaining("silentDrop.readingGain");
        assertThatThrownBy(() -> new DetectionCalibration.Ecmp(5, 40_000, 20_000_000L, 1e-3, 5e-2, 10, 20, 0.1, 30, 10, 1))
            .hasMessageContaining("ecmp.movedLoad");
        assertThatThrownBy(() -> new DetectionCalibration.FastTest(30, 10, 30, 8, 32, 3, 1.1, 1.5, 1.6))
            .hasMessageContaining("fastTest.tightConsistency");
        assertThatThrownBy(() -> new DetectionCalibration.Ecmp(5, 40_000, 20_000_000L, 0.1, 0.05, 10, 20, 0.1, 30, 10, 0.05))
            .hasMessageContaining("ecmp.congestedPValue");
        assertThatThrownBy(() -> new DetectionCalibration.Ecmp(5, 40_000, 20_000_000L, 1e-3, 5e-2, 10, 20, 0.1, 30, 31, 0.05))
            .hasMessageContaining("ecmp.calmLearned");
        assertThatThrownBy(() -> new DetectionCalibration.UnexpectedTraffic(5, 0.2, 0.9, 16, 3, 0.9, 0.1, 30, 0.25))
            .hasMessageContaining("unexpectedTraffic.excessFactor");
        assertThatThrownBy(() -> new DetectionCalibration.Ecn(10, 11, 1e5, 1.5)).hasMessageContaining("ecn.minSeconds");
        assertThatThrownBy(() -> new DetectionCalibration.Pfc(1.5, 50_000, 1.25, 0.01))
            .hasMessageContaining("pfc.switchOriginShare");
        assertThatThrownBy(() -> new DetectionCalibration.Straggler(4, 0.7, 0.1, 0.2, 32, 0.25, 2, 0.1))
            .hasMessageContaining("straggler.stragglerShare");
        assertThatThrownBy(() -> new DetectionCalibration.LatencySlo(-1, 0.5)).hasMessageContaining("latencySlo.marginUs");
        assertThatThrownBy(() -> new DetectionCalibration.Jobs(1.3, 1.4, 0.5, 4, 20, 5, 10, 10, 0.05, 2.5, 10, 120, 0.1,
            0.01, 2, cal.jobs().phase())).hasMessageContaining("jobs.recovered");
        assertThatThrownBy(() -> new DetectionCalibration.Jobs(1.3, 1.15, 0.5, 4, 20, 5, 10, 10, 0.05, 2.5, 121, 120, 0.1,
            0.01, 2, cal.jobs().phase())).hasMessageContaining("jobs.coarseWindowTicks");
        assertThatThrownBy(() -> new DetectionCalibration.Phase(16, 40, 4, 4, 0.5)).hasMessageContaining("phase.minCommFactor");
        assertThatThrownBy(() -> new DetectionCalibration.Correlation(0, 30))
            .hasMessageContaining("correlation.unexplainedTicks");
        assertThatThrownBy(() -> new DetectionCalibration.Paths(10, 0.1, 0, 10_000)).hasMessageContaining("paths.maxPasses");
        assertThatThrownBy(() -> new DetectionCalibration.LinkFlap(1, 300)).hasMessageContaining("linkFlap.flaps");
        assertThatThrownBy(() -> new DetectionCalibration(16, 16, List.of(0.01), 3, 3, 3, 3_600, 10_000, 12, 0.1, 0.1, 100,
            1_000, 0.02, 1e-9, 10, 5, 3_600, 1, 10, cal.silentDrop(), cal.ecmp(), cal.unexpectedTraffic(), cal.ecn(),
            null, cal.straggler(), cal.latencySlo(), cal.jobs(), cal.correlation(), cal.paths(), cal.linkFlap()))
            .hasMessageContaining("every detector's numbers");
    }

    @Test
    void shouldTakeTheLatencySloOnlyWhenSet() {
        assertThat(AnalyzerConfig.defaults(1_000).withLatencySloUs(30).latencySlo()).hasValue(30);
        assertThatThrownBy(() -> AnalyzerConfig.defaults(1_000).withLatencySloUs(-1))
            .isInstanceOf(IllegalArgumentException.class);
    }

    /** The defaults with these learned-level numbers changed. */
    private DetectionCalibration learned(final int ring, final int warmUp, final List<Double> regimes,
                                         final double floorFactor, final double errorTail, final double horizonSeconds) {
        return new DetectionCalibration(ring, warmUp, regimes, floorFactor, 3, 3, 3_600, 10_000, 12, 0.1, 0.1, 100, 1_000,
            0.02, errorTail, 10, 5, horizonSeconds, 1, 10, cal.silentDrop(), cal.ecmp(), cal.unexpectedTraffic(),
            cal.ecn(), cal.pfc(), cal.straggler(), cal.latencySlo(), cal.jobs(), cal.correlation(), cal.paths(),
            cal.linkFlap());
    }

    /** Every number of a record by its path (nested records' fields joined by dots), as a list (one for a scalar). */
    private static void leaves(final String prefix, final Record record, final Map<String, List<Double>> out) {
        for (final RecordComponent c : record.getClass().getRecordComponents()) {
            final Object value;
            try {
                value = c.getAccessor().invoke(record);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
            final String path = prefix + c.getName();
            if (value instanceof Record nested) {
                leaves(path + ".", nested, out);
            } else if (value instanceof List<?> list) {
                out.put(path, list.stream().map(x -> ((Number) x).doubleValue()).toList());
            } else {
                out.put(path, List.of(((Number) value).doubleValue()));
            }
        }
    }

    /**
     * The calibration table: rows of {@code | `a` / `b` | 1 / 2 | why |} after the line that introduces it. A default
     * is a number or a list of them (", " between); thousands separators and a trailing unit are allowed.
     */
    private static Map<String, List<Double>> documentedTable(final Path doc) throws IOException {
        final List<String> lines = Files.readAllLines(doc);
        int row = 0;
        while (!lines.get(row).startsWith("Every number is one field of `DetectionCalibration`")) {
            row++;
        }
        while (!lines.get(row).startsWith("| field |")) {
            row++;
        }
        final Map<String, List<Double>> table = new LinkedHashMap<>();
        for (row += 2; row < lines.size() && lines.get(row).startsWith("|"); row++) {
            final String[] cells = lines.get(row).split("\\|");
            final String[] names = cells[1].trim().split(" / ");
            final String[] values = cells[2].trim().split(" / ");
            assertThat(values).as(lines.get(row)).hasSameSizeAs(names);
            for (int i = 0; i < names.length; i++) {
                assertThat(table.put(names[i].replace("`", "").trim(), numbers(values[i]))).as(names[i]).isNull();
            }
        }
        return table;
    }

    private static final Pattern NUMBER = Pattern.compile("^-?[0-9]+(\\.[0-9]+)?(e-?[0-9]+)?");

    private static List<Double> numbers(final String cell) {
        final List<Double> out = new ArrayList<>();
        for (final String item : cell.replaceAll("(?<=\\d),(?=\\d{3})", "").split(", ")) {
            final Matcher m = NUMBER.matcher(item.trim());
            assertThat(m.find()).as("a number: %s", cell).isTrue();
            out.add(Double.parseDouble(m.group()));
        }
        return out;
    }
}
