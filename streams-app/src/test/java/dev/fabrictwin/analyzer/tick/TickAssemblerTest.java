package dev.fabrictwin.analyzer.tick;

import static dev.fabrictwin.analyzer.tick.IntervalsFixture.slots;
import static dev.fabrictwin.analyzer.tick.IntervalsFixture.tx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.CounterNames;

class TickAssemblerTest {

    private static final long TICK_MS = 1000;
    private static final PortRef A = new PortRef("leaf-0", "eth0");
    private static final PortRef B = new PortRef("leaf-1", "eth0");
    private static final PortRef C = new PortRef("spine-0", "eth0");
    private static final PortRef D = new PortRef("spine-1", "eth0");
    /** The ports' indices (as {@code Fabric.portIndex} gives them): A is 0, B 1, C 2, D 3. */
    private static final List<PortRef> PORTS = List.of(A, B, C, D);
    private static final double[] NOTHING = slots();

    private final TickAssembler noGrace = new TickAssembler(TICK_MS, 0, PORTS.size());

    private static PortInterval txOf(final PortRef ref, final long t0, final long t1, final long bytes) {
        return tx(ref.device(), ref.port(), t0, t1, bytes);
    }

    /** Adds an interval the twin expects nothing of; the ticks it closed. */
    private static List<Tick> add(final TickAssembler assembler, final PortRef ref, final long t0, final long t1,
                                  final long bytes) {
        return assembler.add(txOf(ref, t0, t1, bytes), PORTS.indexOf(ref), NOTHING, NOTHING);
    }

    private static List<Long> indices(final List<Tick> ticks) {
        return ticks.stream().map(Tick::index).toList();
    }

    @Test
    void shouldListATicksPortsInIndexOrderWhateverOrderTheyCameIn() {
        for (final PortRef p : List.of(D, B, C, A)) {
            add(noGrace, p, 9_000, 10_000, 1);
        }

        assertThat(noGrace.flush().get(0).ports()).extracting(PortTick::port).containsExactly(A, B, C, D);
    }

    @Test
    void shouldKeepEveryPortsSumOnceATickHoldsManyPorts() {
        final int ports = 100; // a tick of more than a few ports keeps them by index
        final TickAssembler assembler = new TickAssembler(TICK_MS, 0, ports);
        for (int round = 1; round <= 2; round++) {
            for (int i = ports - 1; i >= 0; i--) {
                assembler.add(tx("leaf-0", "eth" + i, 9_000 + round, 9_500 + round, i), i, NOTHING, NOTHING);
            }
        }

        final Tick tick = assembler.flush().get(0);

        assertThat(tick.ports()).hasSize(ports).extracting(PortTick::index).isSorted();
        for (int i = 0; i < ports; i++) {
            assertThat(tick.port(i).port()).isEqualTo(new PortRef("leaf-0", "eth" + i));
            assertThat(tick.port(i).observed(CounterNames.TX_BYTES)).isEqualTo(2 * i);
        }
    }

    @Test
    void shouldPutAnIntervalInTheTickOfItsNearestSamplingRound() {
        add(noGrace, A, 9_000, 9_950, 1);    // a device 50 ms fast
        add(noGrace, B, 9_050, 10_050, 2);   // one 50 ms slow: the same round
        add(noGrace, C, 9_400, 10_499, 3);   // still nearer 10 000
        add(noGrace, D, 9_500, 10_500, 4);   // half-way rounds up: the next round

        final List<Tick> ticks = noGrace.flush();

        assertThat(indices(ticks)).containsExactly(10L, 11L);
        final Tick ten = ticks.get(0);
        assertThat(ten.startMs()).isEqualTo(9_000);
        assertThat(ten.endMs()).isEqualTo(10_000);
        assertThat(ten.ports()).extracting(PortTick::port).containsExactly(A, B, C);
        assertThat(ten.port(PORTS.indexOf(A)).observed(CounterNames.TX_BYTES)).isEqualTo(1);
        assertThat(ten.port(PORTS.indexOf(B)).observed(CounterNames.TX_BYTES)).isEqualTo(2);
        assertThat(ten.port(PORTS.indexOf(D))).isNull();
        assertThat(ticks.get(1).ports()).extracting(PortTick::port).containsExactly(D);
        assertThat(ticks.get(1).startMs()).isEqualTo(10_000);
        assertThat(noGrace.lateIntervals()).isZero();
    }

    @Test
    void shouldCloseATickOnlyOnceEventTimeIsTheGracePastItsUpperEdge() {
        final TickAssembler assembler = new TickAssembler(TICK_MS, 300, PORTS.size());
        // tick 10's upper edge is 10 500: it closes once event time reaches 10 800

        final List<Tick> first = add(assembler, A, 9_000, 10_000, 5);
        final List<Tick> oneMsShort = add(assembler, A, 10_000, 10_799, 6);
        final List<Tick> atGrace = add(assembler, A, 10_799, 10_800, 7);

        assertThat(first).isEmpty();
        assertThat(oneMsShort).isEmpty();
        assertThat(indices(atGrace)).containsExactly(10L);
        assertThat(atGrace.get(0).port(PORTS.indexOf(A)).observed(CounterNames.TX_BYTES)).isEqualTo(5);
        assertThat(indices(assembler.flush())).containsExactly(11L);
    }

    @Test
    void shouldSumTwoIntervalsOfOnePortInOneTickWithTheirExpectations() {
        final PortInterval later = new PortInterval(A.device(), A.port(), 9_600, 10_400,
            Map.of(CounterNames.TX_BYTES, 300L), Map.of(CounterNames.QUEUE_DEPTH_BYTES, 3.0), false, 0, false);
        final PortInterval earlier = new PortInterval(A.device(), A.port(), 9_400, 9_600,
            Map.of(CounterNames.TX_BYTES, 100L), Map.of(CounterNames.QUEUE_DEPTH_BYTES, 1.0), false, 0, false);

        // out of order: the port's latest gauges still win
        noGrace.add(later, 0, slots(CounterNames.TX_BYTES, 310), slots(CounterNames.QUEUE_DEPTH_BYTES, 30));
        noGrace.add(earlier, 0, slots(CounterNames.TX_BYTES, 90), slots(CounterNames.QUEUE_DEPTH_BYTES, 10));
        final List<Tick> ticks = noGrace.flush();

        assertThat(indices(ticks)).containsExactly(10L);
        final PortTick a = ticks.get(0).port(PORTS.indexOf(A));
        assertThat(a.observed(CounterNames.TX_BYTES)).isEqualTo(400);
        assertThat(a.expected(CounterNames.TX_BYTES)).isEqualTo(400);
        assertThat(a.seconds()).isCloseTo(1.0, within(1e-9));
        assertThat(a.t0()).isEqualTo(9_400);
        assertThat(a.t1()).isEqualTo(10_400);
        assertThat(a.observedRate(CounterNames.TX_BYTES)).isCloseTo(400, within(1e-9));
        assertThat(a.gauge(CounterNames.QUEUE_DEPTH_BYTES)).isEqualTo(3.0);
        // time-weighted: 0.2 s at 10 and 0.8 s at 30
        assertThat(a.expectedGauge(CounterNames.QUEUE_DEPTH_BYTES)).isCloseTo(26, within(1e-9));
        assertThat(a.unreliable()).isFalse();
    }

    @Test
    void shouldTellAMissingCounterFromAZeroAndKeepNonCanonicalOnes() {
        noGrace.add(new PortInterval(A.device(), A.port(), 9_000, 10_000,
            Map.of(CounterNames.TX_BYTES, 0L, "vendor_drops", 7L), Map.of(), false, 0, false), 0, NOTHING, NOTHING);
        noGrace.add(new PortInterval(A.device(), A.port(), 10_000, 10_400,
            Map.of("vendor_drops", 5L), Map.of(), false, 0, false), 0, NOTHING, NOTHING);

        final PortTick a = noGrace.flush().get(0).port(PORTS.indexOf(A));

        assertThat(a.reports(CounterNames.TX_BYTES)).isTrue();
        assertThat(a.observed(CounterNames.TX_BYTES)).isZero();
        assertThat(a.reports(CounterNames.RX_BYTES)).isFalse();
        assertThat(a.observed(CounterNames.RX_BYTES)).isZero();
        assertThat(a.reports("vendor_drops")).isTrue();
        assertThat(a.observed("vendor_drops")).isEqualTo(12);
        assertThat(a.gauge(CounterNames.QUEUE_DEPTH_BYTES)).isNaN();
    }

    @Test
    void shouldWaitForTheSlowestDevice() {
        add(noGrace, A, 9_000, 10_000, 1);
        add(noGrace, B, 9_000, 10_000, 1);

        final List<Tick> aAhead = add(noGrace, A, 10_000, 11_000, 1);
        final List<Tick> aFurtherAhead = add(noGrace, A, 11_000, 12_000, 1);
        final List<Tick> bCatchesUp = add(noGrace, B, 10_000, 11_000, 1);

        assertThat(aAhead).isEmpty();
        assertThat(aFurtherAhead).isEmpty();
        assertThat(indices(bCatchesUp)).containsExactly(10L);
        assertThat(bCatchesUp.get(0).ports()).extracting(PortTick::port).containsExactly(A, B);
    }

    @Test
    void shouldStopWaitingForADeviceMoreThanStaleTicksBehind() {
        add(noGrace, A, 9_000, 10_000, 1);
        add(noGrace, B, 9_000, 10_000, 1);   // B stops reporting here
        final List<Tick> held = new ArrayList<>();
        final long limit = 10_000 + TickAssembler.STALE_TICKS * TICK_MS;
        for (long t1 = 11_000; t1 <= limit; t1 += TICK_MS) {
            held.addAll(add(noGrace, A, t1 - TICK_MS, t1, 1));
        }

        final List<Tick> released = add(noGrace, A, limit, limit + TICK_MS, 1);

        assertThat(limit).isEqualTo(70_000);
        assertThat(held).isEmpty();
        assertThat(released).hasSize(TickAssembler.STALE_TICKS + 1);
        assertThat(released.get(0).index()).isEqualTo(10);
        assertThat(released.get(0).ports()).extracting(PortTick::port).containsExactly(A, B);
        assertThat(released.get(TickAssembler.STALE_TICKS).index()).isEqualTo(70);
        assertThat(noGrace.lateIntervals()).isZero();
    }

    @Test
    void shouldNotLetOneDeviceWhoseClockRunsAheadMakeEveryOtherDeviceLate() {
        // D's clock is 90 s fast: it must neither close the ticks of A, B, C nor stall them
        final List<Tick> closed = new ArrayList<>();
        for (long t1 = 10_000; t1 <= 30_000; t1 += TICK_MS) {
            for (final PortRef p : List.of(A, B, C)) {
                closed.addAll(add(noGrace, p, t1 - TICK_MS, t1, 1));
            }
            closed.addAll(add(noGrace, D, t1 + 89_000, t1 + 90_000, 1));
        }

        assertThat(noGrace.lateIntervals()).isZero();
        assertThat(indices(closed)).startsWith(10L, 11L, 12L).contains(29L).doesNotContain(31L);
        assertThat(closed.get(0).ports()).extracting(PortTick::port).containsExactly(A, B, C);
        assertThat(noGrace.devicesAhead()).containsOnlyKeys("spine-1");
        assertThat(noGrace.devicesAhead().get("spine-1")).isBetween(89_000L, 91_000L);
    }

    @Test
    void shouldFollowTheWholeFabricWhenItJumpsAheadTogether() {
        for (final PortRef p : List.of(A, B, C, D)) {
            add(noGrace, p, 9_000, 10_000, 1);
        }
        final List<Tick> closed = new ArrayList<>();
        for (final PortRef p : List.of(A, B, C, D)) {   // telemetry resumes ten minutes later
            closed.addAll(add(noGrace, p, 609_000, 610_000, 1));
        }
        for (final PortRef p : List.of(A, B, C, D)) {
            closed.addAll(add(noGrace, p, 610_000, 611_000, 1));
        }

        assertThat(indices(closed)).containsExactly(10L, 610L);
        assertThat(closed.get(1).ports()).extracting(PortTick::port).containsExactly(A, B, C, D);
        assertThat(noGrace.devicesAhead()).isEmpty();
        assertThat(noGrace.lateIntervals()).isZero();
    }

    @Test
    void shouldCountLateIntervalsAndKeepTheirBytesInTheOldestOpenTick() {
        add(noGrace, A, 9_000, 10_000, 1);
        final List<Tick> closed = add(noGrace, A, 10_000, 11_000, 10);

        add(noGrace, B, 9_000, 10_000, 100);     // its tick 10 has closed
        add(noGrace, B, 9_500, 9_990, 1_000);    // so has this one's
        final List<Tick> rest = noGrace.flush();

        assertThat(indices(closed)).containsExactly(10L);
        assertThat(closed.get(0).ports()).extracting(PortTick::port).containsExactly(A);
        assertThat(noGrace.lateIntervals()).isEqualTo(2);
        assertThat(indices(rest)).containsExactly(11L);
        assertThat(rest.get(0).port(PORTS.indexOf(A)).observed(CounterNames.TX_BYTES)).isEqualTo(10);
        assertThat(rest.get(0).port(PORTS.indexOf(B)).observed(CounterNames.TX_BYTES)).isEqualTo(1_100);
        assertThat(rest.get(0).port(PORTS.indexOf(B)).t0()).isEqualTo(9_000);
    }

    @Test
    void shouldCountAnIntervalForATickClosedByFlushAsLate() {
        final TickAssembler assembler = new TickAssembler(TICK_MS, 5_000, PORTS.size());
        add(assembler, A, 9_000, 10_000, 1);
        add(assembler, A, 11_000, 12_000, 1);
        final List<Tick> flushed = assembler.flush();

        final List<Tick> afterwards = add(assembler, B, 10_000, 11_000, 7);

        assertThat(indices(flushed)).containsExactly(10L, 12L);
        assertThat(afterwards).isEmpty();
        assertThat(assembler.lateIntervals()).isEqualTo(1);
        final List<Tick> last = assembler.flush();
        assertThat(indices(last)).containsExactly(13L);
        assertThat(last.get(0).port(PORTS.indexOf(B)).observed(CounterNames.TX_BYTES)).isEqualTo(7);
    }

    @Test
    void shouldMarkAPortTickUnreliableWhenAnyOfItsIntervalsHasAResetOrAGap() {
        noGrace.add(tx(A.device(), A.port(), 9_000, 9_600, 1, false, false), PORTS.indexOf(A), NOTHING, NOTHING);
        noGrace.add(tx(A.device(), A.port(), 9_600, 10_000, 1, true, false), PORTS.indexOf(A), NOTHING, NOTHING);
        noGrace.add(tx(B.device(), B.port(), 9_000, 10_000, 1, false, true), PORTS.indexOf(B), NOTHING, NOTHING);
        noGrace.add(tx(C.device(), C.port(), 9_000, 10_000, 1, false, false), PORTS.indexOf(C), NOTHING, NOTHING);

        final Tick tick = noGrace.flush().get(0);

        assertThat(tick.port(PORTS.indexOf(A)).unreliable()).as("reset").isTrue();
        assertThat(tick.port(PORTS.indexOf(B)).unreliable()).as("gap").isTrue();
        assertThat(tick.port(PORTS.indexOf(C)).unreliable()).as("clean").isFalse();
    }

    @Test
    void shouldHandOutTicksThatCannotBeChanged() {
        add(noGrace, A, 9_000, 10_000, 1);

        final Tick tick = noGrace.flush().get(0);

        assertThatThrownBy(() -> tick.ports().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void shouldRejectANonPositiveTickOrANegativeGrace() {
        assertThatThrownBy(() -> new TickAssembler(0, 0, PORTS.size())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TickAssembler(TICK_MS, -1, PORTS.size())).isInstanceOf(IllegalArgumentException.class);
        assertThat(new TickAssembler(TICK_MS, 0, PORTS.size()).tickMs()).isEqualTo(TICK_MS);
    }
}
