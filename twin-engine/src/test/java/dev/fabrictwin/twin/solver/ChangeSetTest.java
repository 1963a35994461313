package dev.fabrictwin.twin.solver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ChangeSetTest {

    @Test
    void shouldListEachMarkedIndexOnceInMarkingOrder() {
        final ChangeSet set = new ChangeSet(5);

        set.mark(3);
        set.mark(1);
        set.mark(3);

        assertThat(set.count()).isEqualTo(2);
        assertThat(set.get(0)).isEqualTo(3);
        assertThat(set.get(1)).isEqualTo(1);
        assertThat(set.contains(1)).isTrue();
        assertThat(set.contains(0)).isFalse();
    }

    @Test
    void shouldForgetEverythingOnClearAndKeepMarksAcrossGrowth() {
        final ChangeSet set = new ChangeSet(2);
        set.mark(1);
        set.grow(4);
        set.mark(3);
        assertThat(set.contains(1)).isTrue();
        assertThat(set.count()).isEqualTo(2);

        set.clear();

        assertThat(set.count()).isZero();
        assertThat(set.contains(1)).isFalse();
        assertThat(set.contains(3)).isFalse();
        set.mark(1);
        assertThat(set.count()).as("marked again after a clear").isEqualTo(1);
    }
}
