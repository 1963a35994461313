package dev.fabrictwin.twin.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class QuantilesTest {

    @Test
    void aSymmetricSampleHasItsCentreAsMedianAndOneValueIsItsOwnQuantile() {
        assertThat(Quantiles.median(new double[] {4, 1, 3, 2})).isCloseTo(2.5, within(1e-9));
        assertThat(Quantiles.harrellDavis(new double[] {7}, 0.9)).isEqualTo(7.0);
    }

    @Test
    void theMedianMovesByAFractionOfAStepWhereAPlainMedianJumpsAWholeOne() {
        // makespans of k colliding flows: 4, 5, 5, 7, 7 (the reference's ringx 2:1 seeds); one seed more at 7
        final double five = Quantiles.median(new double[] {4, 5, 5, 7, 7});
        final double six = Quantiles.median(new double[] {4, 5, 5, 7, 7, 7});

        assertThat(five).isCloseTo(5.58, within(0.005));
        assertThat(six).isGreaterThan(five).isLessThan(6.0); // the plain median: 5 then 6
    }

    @Test
    void higherQuantilesWeighTheUpperOrderStatisticsAndNeverLeaveTheRange() {
        final double[] seeds = {21.8, 27.3, 27.3, 32.7, 32.7, 32.7, 38.2, 32.7, 27.3};

        final double p50 = Quantiles.harrellDavis(seeds, 0.5);
        final double p90 = Quantiles.harrellDavis(seeds, 0.9);

        assertThat(p90).isGreaterThan(p50).isLessThanOrEqualTo(38.2);
        assertThat(p50).isGreaterThanOrEqualTo(21.8);
        assertThat(Quantiles.median(new double[801])).isZero(); // 801 seeds: no underflow of the weights
    }

    @Test
    void aQuantileOutsideTheOpenUnitIntervalIsRefused() {
        assertThatThrownBy(() -> Quantiles.harrellDavis(new double[] {1, 2}, 1.0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("quantile outside");
    }
}
