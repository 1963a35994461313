package dev.fabrictwin.analyzer.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Who gets series of their own: pinned first, the cap held, and little churn between refreshes. */
class ShortlistTest {

    private final Shortlist<String> list = new Shortlist<>();

    @Test
    void shouldListEveryCandidateWhenAllFit() {
        assertThat(list.update(List.of(), Map.of("b", 0.0, "a", 0.0, "c", 1.0), 5)).containsExactly("a", "b", "c");
    }

    @Test
    void shouldPutPinnedKeysFirstAndNeverPassTheCap() {
        final Map<String, Double> scores = Map.of("x", 0.0, "y", 0.0, "z", 0.0, "big", 9.0);

        assertThat(list.update(List.of("x", "y", "z"), scores, 2)).containsExactly("x", "y");
        assertThat(list.update(List.of("z"), scores, 2)).containsExactly("z", "big");
        assertThat(list.update(List.of("gone"), scores, 1)).as("a pinned key with nothing to show takes no place")
            .containsExactly("big");
    }

    @Test
    void shouldKeepAListedKeyUntilANewcomersPeakIsTwiceItsDecayingOne() {
        assertThat(list.update(List.of(), Map.of("a", 10.0, "b", 9.0, "c", 8.0, "d", 1.0), 2)).containsExactly("a", "b");

        // a and b go quiet and c ranks first this tick: their peaks hold them (b's 9 x 0.5^(1/10) = 8.4 > 9 / 2)
        final Map<String, Double> quiet = Map.of("a", 0.0, "b", 0.0, "c", 9.0, "d", 1.0);
        assertThat(list.update(List.of(), quiet, 2)).containsExactlyInAnyOrder("a", "b");
        assertThat(list.peak("b")).isCloseTo(9 * Math.pow(0.5, 0.1), within(1e-12));
        for (int i = 2; i <= 5; i++) {
            assertThat(list.update(List.of(), quiet, 2)).as("refresh %d", i).containsExactlyInAnyOrder("a", "b");
        }
        // once b's peak is under half of c's (11 refreshes), c takes b's place
        for (int i = 6; i <= 15; i++) {
            list.update(List.of(), quiet, 2);
        }
        assertThat(list.update(List.of(), quiet, 2)).containsExactlyInAnyOrder("a", "c");
    }

    @Test
    void shouldKeepAKeyMissingFromAFewRefreshesThenForgetIt() {
        assertThat(list.update(List.of(), Map.of("a", 5.0, "b", 1.0, "c", 0.0), 2)).containsExactly("a", "b");

        final Map<String, Double> withoutA = Map.of("b", 1.0, "c", 0.0);
        for (int i = 1; i <= Shortlist.MAX_MISSED; i++) {
            assertThat(list.update(List.of(), withoutA, 2)).as("missed %d", i).containsExactlyInAnyOrder("a", "b");
        }
        assertThat(list.update(List.of(), withoutA, 2)).containsExactly("b", "c");
        assertThat(list.peak("a")).isZero();
    }

    @Test
    void shouldLetANewcomerMoreThanTwiceAsStrongDisplaceTheWeakestListed() {
        list.update(List.of(), Map.of("a", 2.0, "b", 1.0, "c", 0.5, "d", 0.0), 2);

        assertThat(list.update(List.of(), Map.of("a", 2.0, "b", 1.0, "c", 1.9, "d", 0.0), 2)).as("1.9 < 2 x 1")
            .containsExactlyInAnyOrder("a", "b");
        assertThat(list.update(List.of(), Map.of("a", 2.0, "b", 1.0, "c", 2.5, "d", 0.0), 2)).as("2.5 > 2 x 1")
            .containsExactlyInAnyOrder("a", "c");
    }
}
