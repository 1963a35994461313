package dev.fabrictwin.analyzer.tick;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.fabrictwin.analyzer.rates.DeviceClocks;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.twin.fabric.PortRef;

/**
 * Groups port intervals into ticks of the nominal sample interval by the sampling instant nearest to each
 * interval's end: tick k holds the intervals ending within half an interval of k × tick, so one sampling round
 * stays together even when device clocks straddle the boundary (a device 50 ms fast and one 50 ms slow sample
 * "the same" instant; flooring would put them a whole tick apart). A tick closes once event time is
 * {@code graceMs} past its upper edge — long enough for skewed and jittered devices. Event time is the
 * <em>slowest</em> device's latest interval end (devices arrive through different partitions and stream threads,
 * so one may run far ahead of another while a backlog drains), ignoring devices more than {@value #STALE_TICKS}
 * ticks behind the newest (a device that stopped reporting must not hold every tick open). The newest is a time
 * another device comes near: one device whose clock runs far ahead of the rest sets nothing (its intervals wait in
 * their own ticks, and {@link #devicesAhead()} names it) instead of making every other device late. An interval ending in a tick already closed (a late device)
 * joins the oldest open tick: its bytes are never lost, only counted a tick later.
 */
public final class TickAssembler implements Serializable {

    private final long tickMs;
    private final long graceMs;
    /** Ports in the fabric: each open tick holds its ports by {@code Fabric.portIndex}. */
    private final int ports;
    private final TreeMap<Long, Open> open = new TreeMap<>();
    private long lastClosed = Long.MIN_VALUE;
    private long watermark = Long.MIN_VALUE;
    private long lateIntervals;
    /** Each device's latest interval end: the slowest live device is event time's floor, the supported newest its top. */
    private final DeviceClocks clocks;
    static final int STALE_TICKS = 60;
    /** An open tick indexes its ports over the whole fabric once it holds 1/this of them ({@link Open}). */
    static final int DENSE_SHARE = 64;
    /** How far ahead of every other device one device may run before its clock is taken for wrong, in ticks. */
    public static final int SUPPORT_TICKS = 5;

    public TickAssembler(final long tickMs, final long graceMs, final int ports) {
        if (tickMs <= 0 || graceMs < 0) {
            throw new IllegalArgumentException("tick must be > 0 and grace >= 0 ms");
        }
        this.tickMs = tickMs;
        this.graceMs = graceMs;
        this.ports = ports;
        this.clocks = new DeviceClocks(Math.max(graceMs, SUPPORT_TICKS * tickMs));
    }

    /**
     * Adds an interval of the port with this {@code Fabric.portIndex}, with the twin's expectation for it (counters
     * and gauges by {@code CounterIndex} slot); returns the ticks this closes, oldest first.
     */
    public List<Tick> add(final PortInterval interval, final int port, final double[] expectedCounters,
                          final double[] expectedGauges) {
        portTick(interval, port).add(interval, expectedCounters, expectedGauges);
        return advance(interval);
    }

    /**
     * Adds an interval of the port with this {@code Fabric.portIndex} whose expectation the tick asks the twin for
     * when it closes ({@link PortTick#expect}); returns the ticks this closes, oldest first.
     */
    public List<Tick> add(final PortInterval interval, final int port) {
        portTick(interval, port).add(interval);
        return advance(interval);
    }

    private PortTick portTick(final PortInterval interval, final int port) {
        long index = Math.floorDiv(interval.t1() + tickMs / 2, tickMs);
        if (lastClosed != Long.MIN_VALUE && index <= lastClosed) {
            lateIntervals++;
            index = lastClosed + 1;
        }
        return open.computeIfAbsent(index, i -> new Open()).portTick(interval, port);
    }

    private List<Tick> advance(final PortInterval interval) {
        clocks.advance(interval.device(), interval.t1());
        watermark = clocks.supportedNewest();
        final Long slowest = clocks.slowestSince(watermark - STALE_TICKS * tickMs);
        return closeUpTo((slowest == null ? watermark : slowest) - graceMs);
    }

    /** Devices whose latest interval ends more than the support span ahead of event time: their clocks run ahead (ms). */
    public Map<String, Long> devicesAhead() {
        return clocks.ahead(watermark);
    }

    /** Closes every open tick (end of input). */
    public List<Tick> flush() {
        return closeUpTo(Long.MAX_VALUE);
    }

    /** Intervals that arrived after their tick had closed. */
    public long lateIntervals() {
        return lateIntervals;
    }

    public long tickMs() {
        return tickMs;
    }

    private List<Tick> closeUpTo(final long eventTime) {
        final List<Tick> closed = new ArrayList<>();
        while (!open.isEmpty()) {
            final long index = open.firstKey();
            final long upperEdge = index * tickMs + tickMs / 2;
            if (eventTime != Long.MAX_VALUE && upperEdge > eventTime) {
                break;
            }
            closed.add(Tick.of(index, (index - 1) * tickMs, index * tickMs, open.pollFirstEntry().getValue().byIndex()));
            lastClosed = index;
        }
        return closed;
    }

    /**
     * An open tick's ports: a short list while few have reported, by port index once many have. A device whose clock
     * runs far ahead fills ticks of its own, so an index over the whole fabric waits until the tick holds
     * 1/{@value #DENSE_SHARE} of its ports (the index then costs less than the ports it finds).
     */
    private final class Open implements Serializable {
        private final List<PortTick> few = new ArrayList<>();
        private PortTick[] byIndex;

        PortTick portTick(final PortInterval interval, final int port) {
            final PortTick known = byIndex != null ? byIndex[port] : inFew(port);
            if (known != null) {
                return known;
            }
            final PortTick t = new PortTick(new PortRef(interval.device(), interval.port()), port);
            if (byIndex != null) {
                byIndex[port] = t;
            } else {
                few.add(t);
                if (few.size() >= Math.max(8, ports / DENSE_SHARE)) {
                    byIndex();
                }
            }
            return t;
        }

        private PortTick inFew(final int port) {
            for (final PortTick t : few) { // no stream: every sample comes here
                if (t.index() == port) {
                    return t;
                }
            }
            return null;
        }

        PortTick[] byIndex() {
            if (byIndex == null) {
                byIndex = new PortTick[ports];
                few.forEach(t -> byIndex[t.index()] = t);
                few.clear();
            }
            return byIndex;
        }
    }
}
