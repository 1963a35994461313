package dev.fabrictwin.analyzer.metrics;

import static org.assertj.core.api.Assertions.assertThat;

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
    void shouldKeepAListedKeyWhileItRanksWithinTwiceThePlaces() {
        assertThat(list.update(List.of(), Map.of("a", 10.0, "b", 9.0, "c", 8.0, "d", 1.0), 2)).containsExactly("a", "b");

        // c now ranks first, a third: a stays (within 2 x 2 ranks) and c is not twice as strong as a
        assertThat(list.update(List.of(), Map.of("a", 7.0, "b", 8.0, "c", 9.0, "d", 1.0), 2))
            .containsExactlyInAnyOrder("a", "b");

        // a falls to sixth: out, and the best newcomer takes its place
        assertThat(list.update(List.of(), Map.of("a", 0.1, "b", 8.0, "c", 9.0, "d", 7.0, "e", 6.0, "f", 5.0), 2))
            .containsExactlyInAnyOrder("b", "c");
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
