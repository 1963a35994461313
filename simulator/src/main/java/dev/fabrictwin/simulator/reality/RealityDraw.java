package dev.fabrictwin.simulator.reality;

import java.util.SplittableRandom;

import dev.fabrictwin.simulator.reality.Reality.Hidden;
import dev.fabrictwin.twin.fabric.PortRef;

/**
 * One draw of the hidden parameters: the run-wide values here, each device's and port's from {@link #device} and
 * {@link #port} (derived from the run seed and the name, so they need no table and do not depend on order).
 *
 * @param kminScale  ECN Kmin relative to the twin's default
 * @param kmaxScale  ECN Kmax relative to the default
 * @param bufferScale per-port buffer (PFC XOFF point) relative to the default
 * @param fecCounters the devices report FEC counters (else only FCS errors show a bad link)
 */
public record RealityDraw(Reality ranges, int index, long runSeed, long hashSeed, double kminScale, double kmaxScale,
                          double bufferScale, double controlFrameShare, double pollJitterMs, double lossRate,
                          double lateRate, boolean fecCounters) {

    /**
     * A device's hidden values.
     *
     * @param clockOffsetMs  its clock's offset (its timestamps are off by this)
     * @param driftPpm       its clock's rate error
     * @param pollPhaseMs    when it is polled relative to the round
     * @param readSpreadMs   its counters of one poll are read up to this long after the poll's timestamp
     * @param gaugeNoise     relative noise of its gauges
     * @param latencyScale   its base latency relative to the technology's
     * @param markingScale   its ECN marks relative to the twin's (its marking curve)
     */
    public record Device(double clockOffsetMs, double driftPpm, double pollPhaseMs, double readSpreadMs,
                         double gaugeNoise, double latencyScale, double markingScale) {

        /** The device's timestamp (seconds of scenario time) when the true time is {@code t}. */
        public double clock(final double t) {
            return t + clockOffsetMs / 1000 + driftPpm * 1e-6 * t;
        }
    }

    /**
     * A port's hidden values.
     *
     * @param countsControlFrames it counts LLDP, PFC pauses and CNPs in its packet and byte counters
     * @param lldpFrameBytes      size of the LLDP frames it sends
     * @param lldpPhaseSec        when in the LLDP interval it sends
     * @param latencyScale        its P99 gauge relative to the twin's (its steady tail level)
     */
    public record Port(boolean countsControlFrames, double lldpFrameBytes, double lldpPhaseSec, double latencyScale) {
    }

    public boolean varies(final Hidden h) {
        return ranges.varies(h);
    }

    public Device device(final String name) {
        final SplittableRandom r = new SplittableRandom(mix(runSeed ^ name.hashCode() * 0x9E3779B97F4A7C15L));
        final Reality g = ranges;
        return new Device(g.clockOffsetMs().draw(r), g.clockDriftPpm().draw(r), g.pollPhaseMs().draw(r),
            g.readSpreadMs().draw(r), g.gaugeNoise().draw(r), g.baseLatencyScale().draw(r),
            Math.pow(10, g.markingLog10().draw(r)));
    }

    /** NICs never count control frames; a switch port does with probability {@link #controlFrameShare}. */
    public Port port(final PortRef port, final boolean switchPort) {
        final SplittableRandom r = new SplittableRandom(
            mix(runSeed ^ (port.device().hashCode() * 31L + port.port().hashCode()) * 0xBF58476D1CE4E5B9L));
        final boolean counts = r.nextDouble() < controlFrameShare;
        final double lldp = ranges.lldpFrameBytes().draw(r);
        final double phase = r.nextDouble() * ranges.lldpIntervalSec();
        return new Port(switchPort && counts, Math.rint(lldp), phase, Math.pow(10, ranges.portLatencyLog10().draw(r)));
    }

    /** LLDP frames a port with this phase has sent by time {@code t}. */
    public double lldpFramesBy(final Port p, final double t) {
        return Math.floor((t + p.lldpPhaseSec()) / ranges.lldpIntervalSec());
    }

    /** SplitMix64's finalizer: spreads nearby seeds over the whole range. */
    static long mix(final long z0) {
        long z = z0;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
