package dev.fabrictwin.analyzer.detect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class DailyRhythmTest {

    private static final long HOUR = 3_600_000L;
    private static final long DAY = 24 * HOUR;
    private static final double DECLINE = 0.25;

    private final DailyRhythm rhythm = new DailyRhythm(1);

    /** Key 0 shows {@code level} in hour {@code hour} of day {@code day}, closing the visit before. */
    private void visit(final int day, final int hour, final double level) {
        rhythm.learn(0, day * DAY + hour * HOUR + 10 * 60_000, level / 2, DECLINE);
        rhythm.learn(0, day * DAY + hour * HOUR + HOUR, level, DECLINE); // ends on the hour: still this hour's
    }

    /** A value in another clock hour closes the visit in progress (and opens one that stays open). */
    private void close(final int day, final int hour) {
        rhythm.learn(0, day * DAY + hour * HOUR + 60_000, 0, DECLINE);
    }

    @Test
    void shouldKnowNothingAndHaveNoRhythmBeforeAVisitCloses() {
        rhythm.learn(0, 9 * HOUR + 60_000, 0.5, DECLINE);

        assertThat(rhythm.level(0, 9 * HOUR + 60_000, 0)).isNaN();
        assertThat(rhythm.rhythmic(0, 0.1)).isFalse();
    }

    @Test
    void shouldTakeARiseAtOnceAndComeDownAQuarterOfTheWayADay() {
        visit(0, 9, 0.3);
        visit(1, 9, 0.5); // its visit's highest, though it began at half
        close(1, 10);
        assertThat(rhythm.level(0, 2 * DAY + 9 * HOUR + 30 * 60_000, 0)).isCloseTo(0.5, within(1e-4));

        visit(2, 9, 0.1); // a quiet day: a quarter of the way down
        close(2, 10);
        assertThat(rhythm.level(0, 3 * DAY + 9 * HOUR + 30 * 60_000, 0)).isCloseTo(0.4, within(1e-4));
    }

    @Test
    void shouldHaveARhythmOnlyWhereTheHoursSwingByTheShare() {
        visit(0, 3, 0.2);
        visit(0, 12, 0.29);
        close(0, 13);
        assertThat(rhythm.rhythmic(0, 0.1)).isFalse();

        visit(0, 14, 0.3);
        close(0, 15);
        assertThat(rhythm.rhythmic(0, 0.1)).isTrue();
    }

    @Test
    void shouldJudgeByTheHighestHourWithinTheSlackAndAnUnseenHourByTheHighestSeen() {
        visit(0, 3, 0.1);
        visit(0, 6, 0.2);
        visit(0, 7, 0.5);
        close(0, 8);
        final long slack = 30 * 60_000;

        assertThat(rhythm.level(0, DAY + 6 * HOUR + 30 * 60_000, slack)).as("06:30: hour 6 only").isCloseTo(0.2, within(1e-4));
        assertThat(rhythm.level(0, DAY + 6 * HOUR + 31 * 60_000, slack)).as("06:31: hour 7 too").isCloseTo(0.5, within(1e-4));
        assertThat(rhythm.level(0, DAY + 3 * HOUR, slack)).as("03:00: hours 2 (unseen) and 3").isCloseTo(0.5, within(1e-4));
        assertThat(rhythm.level(0, DAY + 3 * HOUR + 30 * 60_000, 0)).isCloseTo(0.1, within(1e-4));
    }
}
