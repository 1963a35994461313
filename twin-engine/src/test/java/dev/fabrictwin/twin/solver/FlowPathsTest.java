package dev.fabrictwin.twin.solver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class FlowPathsTest {

    private static int[] path(final FlowPaths paths, final int f) {
        final int at = paths.at[f];
        return Arrays.copyOfRange(paths.pool, at + 1, at + 1 + paths.length(at));
    }

    @Test
    void shouldKeepEachFlowsPathLengthFirst() {
        final FlowPaths paths = new FlowPaths();
        paths.growFlows(2);
        final boolean[] alive = {true, true};

        paths.add(0, new int[] {4, 7}, alive, 1);
        paths.add(1, new int[] {}, alive, 2);

        assertThat(path(paths, 0)).containsExactly(4, 7);
        assertThat(path(paths, 1)).isEmpty();
        assertThat(paths.used()).isEqualTo(4);
    }

    @Test
    void shouldPackTheLivePathsWhenAPoolThatMustGrowIsHalfGarbage() {
        final FlowPaths paths = new FlowPaths();
        paths.growFlows(3);
        final boolean[] alive = {true, true, false};
        final int[] long31 = new int[31];
        Arrays.setAll(long31, i -> i);
        assertThat(paths.add(0, long31, alive, 1)).isFalse();
        assertThat(paths.add(1, new int[] {40, 41}, alive, 2)).isFalse(); // 32 + 3 of 64 used
        alive[0] = false;
        paths.remove(0);

        final int[] long40 = new int[40];
        Arrays.setAll(long40, i -> 100 + i);
        assertThat(paths.add(2, long40, alive, 3)).as("the live paths moved").isTrue();

        assertThat(paths.used()).as("flow 0's 32 entries dropped").isEqualTo(3 + 41);
        assertThat(path(paths, 1)).containsExactly(40, 41);
        assertThat(path(paths, 2)).isEqualTo(long40);
    }

    @Test
    void shouldGrowThePoolWithoutMovingPathsWhileGarbageIsUnderHalf() {
        final FlowPaths paths = new FlowPaths();
        paths.growFlows(2);
        final boolean[] alive = {true, true};
        final int[] long50 = new int[50];
        paths.add(0, long50, alive, 1);

        assertThat(paths.add(1, new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, alive, 2)).isFalse();
        assertThat(paths.at[1]).isEqualTo(51);
        assertThat(path(paths, 1)).hasSize(15).startsWith(1).endsWith(15);
    }
}
