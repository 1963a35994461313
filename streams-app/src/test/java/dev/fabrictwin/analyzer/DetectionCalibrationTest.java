package dev.fabrictwin.analyzer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class DetectionCalibrationTest {

    private final DetectionCalibration cal = DetectionCalibration.defaults();

    /** Pins the defaults docs/analyzer.md prints: a change here is a change of the detectors' behaviour. */
    @Test
    void shouldKeepTheDocumentedDefaults() {
        assertThat(cal).isEqualTo(new DetectionCalibration(16, 16, List.of(0.01, 0.1, 0.5), 3, 3, 3, 3_600, 10_000, 12, 0.1,
            0.01, 100, 1_000, 0.02, 1.2e-9, 10, 5, 3_600, 1, 10));
        assertThat(AnalyzerConfig.defaults(1_000).calibration()).isEqualTo(cal);
        assertThat(AnalyzerConfig.defaults(1_000).latencySlo()).isEmpty();
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
        assertThatThrownBy(() -> new DetectionCalibration(16, 17, List.of(0.01), 3, 3, 3, 3_600, 10_000, 12, 0.1, 0.1, 100,
            1_000, 0.02, 1e-9, 10, 5, 3_600, 1, 10)).hasMessageContaining("learnWarmUp");
        assertThatThrownBy(() -> new DetectionCalibration(16, 16, List.of(0.1, 0.01), 3, 3, 3, 3_600, 10_000, 12, 0.1, 0.1, 100,
            1_000, 0.02, 1e-9, 10, 5, 3_600, 1, 10)).hasMessageContaining("latencyRegimes");
        assertThatThrownBy(() -> new DetectionCalibration(16, 16, List.of(0.01), 1, 3, 3, 3_600, 10_000, 12, 0.1, 0.1, 100,
            1_000, 0.02, 1e-9, 10, 5, 3_600, 1, 10)).hasMessageContaining("latencyFloorFactor");
        assertThatThrownBy(() -> new DetectionCalibration(16, 16, List.of(0.01), 3, 3, 3, 3_600, 10_000, 12, 0.1, 0.1, 100,
            1_000, 0.02, 0.7, 10, 5, 3_600, 1, 10)).hasMessageContaining("linkErrorTail");
        assertThatThrownBy(() -> new DetectionCalibration(16, 16, List.of(0.01), 3, 3, 3, 3_600, 10_000, 12, 0.1, 0.1, 100,
            1_000, 0.02, 1e-9, 10, 5, 3, 1, 10)).hasMessageContaining("linkErrorHorizonSeconds");
    }

    @Test
    void shouldTakeTheLatencySloOnlyWhenSet() {
        assertThat(AnalyzerConfig.defaults(1_000).withLatencySloUs(30).latencySlo()).hasValue(30);
        assertThatThrownBy(() -> AnalyzerConfig.defaults(1_000).withLatencySloUs(-1))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
