package dev.fabrictwin.simulator.reality;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The hidden parameters a real fabric varies and the analyzer is never told, as RANGES with realistic defaults;
 * {@link #draw} picks concrete values for one run (per run, per device, per port) from the scenario seed and a draw
 * number, deterministically. Only the parameters in {@code varied} are drawn; the others keep the scenario's fixed
 * telemetry profile (so each can be switched on alone to see which one a detector is sensitive to).
 * docs/robustness.md gives each range's source.
 *
 * @param clockOffsetMs     each device's clock is off by this (its timestamps, not when it is polled)
 * @param clockDriftPpm     and runs fast or slow by this (NTP-disciplined oscillators stay within ±20 ppm)
 * @param pollPhaseMs       each device is polled this far from the round's instant (collector scheduling)
 * @param pollJitterMs      each poll lands up to ± this from its device's phase (drawn per run)
 * @param readSpreadMs      within one poll each counter is read up to this long after the poll's timestamp (per device)
 * @param controlFrameShare share of switch ports that count the control frames they exchange (LLDP, PFC pauses,
 *                          CNPs) in their packet and byte counters; NICs never do, so the two ends of a link differ
 * @param lldpFrameBytes    size of one port's LLDP frames (TLVs vary by vendor and configuration)
 * @param lldpIntervalSec   LLDP transmit interval (IEEE 802.1AB default msgTxInterval 30 s)
 * @param controlFrameBytes size of a PFC pause frame or a CNP as the counting port sees it (minimum Ethernet frame)
 * @param gaugeNoise        relative noise of a device's gauges (latency, queue depth), per device
 * @param physicalScale     ECN Kmin, Kmax and buffer size each scaled by this (vendor profiles differ by tens of %)
 * @param baseLatencyScale  each device's base latency scaled by this
 * @param lossRate          fraction of samples lost (per run)
 * @param lateRate          fraction of samples delivered a few rounds late (per run)
 * @param varied            the parameters that are drawn
 * @param portLatencyLog10  each port's P99 gauge scaled by 10^this (per port): a port's tail latency is a steady level
 *                          set by its device and its traffic pattern, 1–100× the twin's from port to port
 * @param markingLog10      each device marks 10^this times the twin's ECN marks (per device, capped at the packets
 *                          sent): vendors' marking curves differ by ~100× in the share they mark at the same queue
 * @param fecCountedShare   the chance a run's devices report FEC counters at all (some collectors and NICs expose
 *                          only FCS errors, so a degraded link shows as a few FCS errors a second)
 */
public record Reality(Range clockOffsetMs, Range clockDriftPpm, Range pollPhaseMs, Range pollJitterMs,
                      Range readSpreadMs, Range controlFrameShare, Range lldpFrameBytes, double lldpIntervalSec,
                      double controlFrameBytes, Range gaugeNoise, Range physicalScale, Range baseLatencyScale,
                      Range lossRate, Range lateRate, Set<Hidden> varied, Range portLatencyLog10,
                      Range markingLog10, double fecCountedShare) {

    /** The hidden parameters, grouped as they are switched on together. */
    public enum Hidden {
        /** clock offset and drift, poll phase and jitter */
        CLOCK,
        /** counters of one poll read a few ms apart */
        READ_SPREAD,
        /** LLDP, PFC pause frames and CNPs counted by one end of a link only */
        CONTROL_FRAMES,
        GAUGE_NOISE,
        ECMP_HASH,
        /**
         * ECN thresholds, buffer size, base latency; each port's P99 level, each device's marking share, whether FEC
         * counters are reported
         */
        PHYSICS,
        /** sample loss and late delivery */
        DELIVERY;

        /** {@code control-frames} or {@code CONTROL_FRAMES}. */
        public static Hidden parse(final String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown hidden parameter '" + text + "' (expected one of "
                    + Arrays.toString(values()).toLowerCase(Locale.ROOT).replace('_', '-') + ")", e);
            }
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** A closed range; a draw is uniform over it. */
    public record Range(double lo, double hi) {
        public Range {
            if (!(lo <= hi)) {
                throw new IllegalArgumentException("range [" + lo + ", " + hi + "] is empty");
            }
        }

        public static Range pm(final double half) {
            return new Range(-half, half);
        }

        public double draw(final SplittableRandom r) {
            return lo + (hi - lo) * r.nextDouble();
        }
    }

    public Reality {
        varied = varied.isEmpty() ? EnumSet.noneOf(Hidden.class) : EnumSet.copyOf(varied);
        if (!(lldpIntervalSec > 0) || !(controlFrameBytes > 0) || controlFrameShare.lo() < 0 || controlFrameShare.hi() > 1
            || lossRate.lo() < 0 || lossRate.hi() >= 1 || lateRate.lo() < 0 || lateRate.hi() >= 1
            || readSpreadMs.lo() < 0 || gaugeNoise.lo() < 0 || physicalScale.lo() <= 0 || baseLatencyScale.lo() <= 0
            || fecCountedShare < 0 || fecCountedShare > 1) {
            throw new IllegalArgumentException("reality ranges out of bounds");
        }
    }

    /** Realistic ranges, every parameter varied (docs/robustness.md). */
    public static Reality defaults() {
        return new Reality(Range.pm(50), Range.pm(20), Range.pm(50), new Range(5, 20), new Range(1, 5),
            new Range(0.3, 0.6), new Range(64, 512), 30, 64, new Range(0.01, 0.05), new Range(0.75, 1.25),
            new Range(0.75, 1.25), new Range(0, 0.01), new Range(0, 0.01), EnumSet.allOf(Hidden.class), new Range(0, 2),
            new Range(-1, 1), 0.5);
    }

    /** The same ranges with only {@code these} varied. */
    public Reality varying(final Set<Hidden> these) {
        return new Reality(clockOffsetMs, clockDriftPpm, pollPhaseMs, pollJitterMs, readSpreadMs, controlFrameShare,
            lldpFrameBytes, lldpIntervalSec, controlFrameBytes, gaugeNoise, physicalScale, baseLatencyScale, lossRate,
            lateRate, these, portLatencyLog10, markingLog10, fecCountedShare);
    }

    public boolean varies(final Hidden h) {
        return varied.contains(h);
    }

    /** Draw {@code draw} (>= 1) for a scenario seeded {@code seed}: the same pair always gives the same values. */
    public RealityDraw draw(final long seed, final int draw) {
        if (draw < 1) {
            throw new IllegalArgumentException("draw must be >= 1, was " + draw);
        }
        final long runSeed = RealityDraw.mix(seed * 0x9E3779B97F4A7C15L + draw * 0xD1B54A32D192ED03L);
        final SplittableRandom r = new SplittableRandom(runSeed);
        // every value is drawn whether varied or not, so switching one parameter on leaves the others' draws alone
        final long hashSeed = r.nextLong();
        final double kmin = physicalScale.draw(r);
        final double kmax = physicalScale.draw(r);
        final double buffer = physicalScale.draw(r);
        final double share = controlFrameShare.draw(r);
        final double jitter = pollJitterMs.draw(r);
        final double loss = lossRate.draw(r);
        final double late = lateRate.draw(r);
        final boolean fec = r.nextDouble() < fecCountedShare;
        return new RealityDraw(this, draw, runSeed, hashSeed, kmin, kmax, buffer, share, jitter, loss, late, fec);
    }
}
