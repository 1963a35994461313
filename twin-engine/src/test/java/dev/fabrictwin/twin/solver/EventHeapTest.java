package dev.fabrictwin.twin.solver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EventHeapTest {

    @Test
    void shouldDropSettledLinksAndReKeyTheRestAtTheirSaturationLevelOnPurge() {
        final EventHeap heap = new EventHeap(3);
        heap.add(0, 0);
        heap.add(0, 1);
        heap.add(0, 2);
        heap.heapify();
        final double[] capacity = {100, 100, 100};
        // link 0: 40 fixed, 2 unfrozen → 30; link 1: nothing unfrozen; link 2: 10 fixed, 1 unfrozen → 90
        final double[] fill = {40, 2, 100, 0, 10, 1};

        heap.purge(capacity, fill);

        assertThat(heap.size()).isEqualTo(2);
        assertThat(heap.topNode()).isZero();
        assertThat(heap.topKey()).isEqualTo(30);
        heap.pop();
        assertThat(heap.topNode()).isEqualTo(2);
        assertThat(heap.topKey()).isEqualTo(90);
    }
}
