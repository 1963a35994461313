package dev.fabrictwin.twin.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.model.LinkState;

class LinkTimelineTest {

    private static LinkState state(final double start, final double rate, final int flows) {
        return new LinkState(start, rate, 400e9, rate, flows, 0, 0, 0, false, 0, 0, 0, 0, 0, true);
    }

    @Test
    void historyStaysBoundedWhenForgottenAsTimeRuns() {
        final LinkTimeline timeline = new LinkTimeline(2);
        int most = 0;
        for (int k = 0; k < 100_000; k++) {
            final double t = k * 0.01; // 100 solve events a second
            timeline.append(0, state(t, k % 7, k % 3));
            timeline.append(1, state(t, 5, 1)); // never changes: one state
            if (k % 100 == 0) {
                timeline.forgetBefore(t - 10);
            }
            most = Math.max(most, timeline.size(0));
        }
        assertThat(most).as("10 s of history at 100 events/s, plus one forget period").isBetween(1000, 1101);
        assertThat(timeline.size(1)).isEqualTo(1);
        assertThat(timeline.forgottenBefore()).isEqualTo(989.0);
    }

    @Test
    void readsBackWhatWasAppendedAcrossTheRingsWrap() {
        final LinkTimeline timeline = new LinkTimeline(1);
        for (int k = 0; k < 50; k++) {
            timeline.append(0, state(k, k, k % 4));
            if (k % 7 == 0) {
                timeline.forgetBefore(k - 3);
            }
        }
        final int n = timeline.size(0);
        assertThat(timeline.state(0, n - 1)).isEqualTo(state(49, 49, 1));
        assertThat(timeline.at(0, 47.5)).isEqualTo(state(47, 47, 3));
        assertThat(timeline.busiest(0, 45.5, 48.5).start()).isEqualTo(47.0);
        for (int i = 1; i < n; i++) {
            assertThat(timeline.start(0, i)).isEqualTo(timeline.start(0, i - 1) + 1);
        }
        assertThat(timeline.start(0, 0)).isLessThanOrEqualTo(46.0);
    }

    @Test
    void keepsNoRepeatOfAnUnchangedStateAndReplacesOneAtTheSameInstant() {
        final LinkTimeline timeline = new LinkTimeline(1);
        timeline.append(0, state(0, 1, 1));
        timeline.append(0, state(1, 1, 1));
        timeline.append(0, state(2, 3, 1));
        timeline.append(0, state(2, 4, 2));
        assertThat(timeline.states(0)).containsExactly(state(0, 1, 1), state(2, 4, 2));
    }
}
