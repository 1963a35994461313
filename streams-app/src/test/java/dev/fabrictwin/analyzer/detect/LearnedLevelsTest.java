package dev.fabrictwin.analyzer.detect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class LearnedLevelsTest {

    @Test
    void shouldJudgeNothingBeforeTheWarmUpCount() {
        final LearnedLevels levels = new LearnedLevels(2, 8, 5);
        for (int i = 0; i < 4; i++) {
            levels.learn(1, 10);
        }
        assertThat(levels.learned(1)).isFalse();
        levels.learn(1, 10);
        assertThat(levels.learned(1)).isTrue();
        assertThat(levels.learned(0)).isFalse();
    }

    @Test
    void shouldKeepOnlyTheNewestRingOfValuesPerKey() {
        final LearnedLevels levels = new LearnedLevels(1, 4, 4);
        for (int v = 1; v <= 10; v++) {
            levels.learn(0, v);
        }
        assertThat(levels.count(0)).isEqualTo(4);
        assertThat(levels.lowest(0)).isEqualTo(7);
        assertThat(levels.quantile(0, 0)).isEqualTo(7);
        assertThat(levels.quantile(0, 1)).isEqualTo(10);
    }

    @Test
    void shouldGiveRobustQuantilesThatOneOddValueDoesNotMove() {
        final LearnedLevels levels = new LearnedLevels(1, 16, 16);
        for (int i = 0; i < 15; i++) {
            levels.learn(0, 100 + i);
        }
        levels.learn(0, 1e6);
        assertThat(levels.quantile(0, 0.9)).isEqualTo(114);
        assertThat(levels.quantile(0, 0.1)).isEqualTo(102);
    }

    @Test
    void shouldIgnoreValuesThatAreNotFinite() {
        final LearnedLevels levels = new LearnedLevels(1, 4, 1);
        levels.learn(0, Double.NaN);
        levels.learn(0, Double.POSITIVE_INFINITY);
        assertThat(levels.count(0)).isZero();
        assertThat(levels.quantile(0, 0.5)).isNaN();
    }

    @Test
    void shouldKeepThePeakHealthyValueFadingByHalfEachHalfLife() {
        final LearnedLevels levels = new LearnedLevels(2, 4, 1, 4);
        levels.learn(0, 100);
        for (int i = 0; i < 4; i++) {
            levels.learn(0, 1);
        }
        assertThat(levels.quantile(0, 1)).isEqualTo(1); // the ring no longer holds it
        assertThat(levels.peak(0)).isCloseTo(50, Assertions.within(1e-3));
        levels.learn(0, 70);
        assertThat(levels.peak(0)).isEqualTo(70);
        assertThat(levels.peak(1)).isNaN();
        levels.forget(0);
        assertThat(levels.peak(0)).isNaN();
    }

    @Test
    void shouldKeepNoPeakUnlessAskedTo() {
        final LearnedLevels levels = new LearnedLevels(1, 4, 1);
        levels.learn(0, 100);
        assertThat(levels.peak(0)).isNaN();
    }

    @Test
    void shouldForgetAKey() {
        final LearnedLevels levels = new LearnedLevels(1, 4, 1);
        levels.learn(0, 3);
        levels.forget(0);
        assertThat(levels.learned(0)).isFalse();
    }

    @Test
    void shouldSurviveJavaSerializationAsTheCheckpointDoes() throws Exception {
        final LearnedLevels levels = new LearnedLevels(3, 4, 2);
        levels.learn(2, 5);
        levels.learn(2, 7);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(levels);
        }
        final LearnedLevels back;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            back = (LearnedLevels) in.readObject();
        }
        assertThat(back.learned(2)).isTrue();
        assertThat(back.quantile(2, 1)).isEqualTo(7);
        back.learn(2, 9); // the scratch space is transient and comes back on use
        assertThat(back.quantile(2, 1)).isEqualTo(9);
    }

    @Test
    void shouldRefuseAWarmUpLongerThanTheRing() {
        assertThatThrownBy(() -> new LearnedLevels(1, 4, 5)).isInstanceOf(IllegalArgumentException.class);
    }
}
