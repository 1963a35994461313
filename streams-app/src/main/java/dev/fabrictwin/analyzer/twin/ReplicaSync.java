package dev.fabrictwin.analyzer.twin;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.sim.FluidSimulation;

/**
 * One step of the replica's steering, applied by {@link TwinReplica#steer} in this order: the declared jobs (the
 * scheduler's documents), the link states telemetry reported, the phase lock's retimes, the learned pins, then the
 * history the replica may forget. Whoever decides a change returns it as one of these intentions; only the analysis
 * hands them to the replica, so the order they take effect in is written here once rather than in a sequence of calls.
 *
 * @param jobs the declared jobs' documents and the epoch ms they are followed at, or null for no change
 * @param forgetBeforeMs the replica drops its history before this epoch ms ({@link Long#MIN_VALUE}: keeps it)
 */
public record ReplicaSync(Jobs jobs, List<OperState> operStates, List<Retime> retimes, List<Pins> pins,
                          long forgetBeforeMs) {

    /** The scheduler's job documents, followed from epoch ms {@code atMs} ({@link TwinReplica#steer}). */
    public record Jobs(List<JsonNode> documents, long atMs) {
        public Jobs {
            documents = List.copyOf(documents);
        }
    }

    /** A port of this {@code Fabric.portIndex} was reported up (or down) at epoch ms {@code atMs}. */
    public record OperState(long atMs, int port, boolean up) {
    }

    /** The phase lock's intention: the job's next comm phase starts at epoch ms {@code atMs} instead. */
    public record Retime(String job, double atMs) {
    }

    /** The path learner's intention: these flows take their learned first hops from epoch ms {@code atMs} on. */
    public record Pins(List<FluidSimulation.Pin> flows, long atMs) {
        public Pins {
            flows = List.copyOf(flows);
        }
    }

    private static final Comparator<OperState> IN_TIME_THEN_PORT_ORDER =
        Comparator.comparingLong(OperState::atMs).thenComparingInt(OperState::port);

    public ReplicaSync {
        operStates = List.copyOf(operStates);
        retimes = List.copyOf(retimes);
        pins = List.copyOf(pins);
    }

    /** The jobs as the scheduler now declares them, from epoch ms {@code atMs}. */
    public static ReplicaSync jobs(final List<JsonNode> documents, final long atMs) {
        return new ReplicaSync(new Jobs(documents, atMs), List.of(), List.of(), List.of(), Long.MIN_VALUE);
    }

    /**
     * The closing tick's link-state reports, in time then port order, of the links some report would change (every
     * port reports {@code oper_up} every interval: the ones that change nothing are not sorted and told).
     */
    public static ReplicaSync operStates(final Tick tick, final TwinReplica twin) {
        final BitSet changing = new BitSet();
        for (final PortTick t : tick.ports()) {
            t.reports((t1, port, up) -> {
                if (twin.changesLink(port, up)) {
                    changing.set(port / 2);
                }
            });
        }
        final List<OperState> reports = new ArrayList<>();
        if (!changing.isEmpty()) {
            for (final PortTick t : tick.ports()) {
                if (changing.get(t.index() / 2)) {
                    t.reports((t1, port, up) -> reports.add(new OperState(t1, port, up)));
                }
            }
            reports.sort(IN_TIME_THEN_PORT_ORDER);
        }
        return new ReplicaSync(null, reports, List.of(), List.of(), Long.MIN_VALUE);
    }

    /**
     * The interval's {@code oper_up} report of the port of this {@code Fabric.portIndex}, at the end of the interval
     * that saw it (an instant of the replica's run, so replicas fed in other orders agree); nothing when it has none.
     */
    public static ReplicaSync operState(final PortInterval interval, final int port) {
        final Double operUp = interval.gauges().get(CounterNames.OPER_UP);
        return new ReplicaSync(null, operUp == null ? List.of() : List.of(new OperState(interval.t1(), port, operUp != 0)),
            List.of(), List.of(), Long.MIN_VALUE);
    }

    /** What a closed tick's judges intend (retimes, then pins); then the history before {@code forgetBeforeMs} goes. */
    public static ReplicaSync afterTick(final List<Retime> retimes, final Pins pins, final long forgetBeforeMs) {
        return new ReplicaSync(null, List.of(), retimes, pins.flows().isEmpty() ? List.of() : List.of(pins),
            forgetBeforeMs);
    }

    /** Pins only (what an earlier build learned, pinned as the replica starts). */
    public static ReplicaSync pins(final Pins pins) {
        return new ReplicaSync(null, List.of(), List.of(), List.of(pins), Long.MIN_VALUE);
    }

    /** Retimes only. */
    public static ReplicaSync retimes(final List<Retime> retimes) {
        return new ReplicaSync(null, List.of(), retimes, List.of(), Long.MIN_VALUE);
    }
}
