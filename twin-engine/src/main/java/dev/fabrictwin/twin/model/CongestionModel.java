package dev.fabrictwin.twin.model;

/**
 * The fluid model of what a congested port shows: queue depth, ECN marking and PFC, as pure functions of
 * utilization ρ = rate/capacity and overload ω = offered/capacity. Formulas and their sources are in
 * docs/twin.md; in short:
 * <ul>
 * <li>not overloaded (ω ≤ 1): M/D/1 mean queue ρ²/(2(1−ρ)) packets (Poisson arrivals, fixed-size packets);</li>
 * <li>overloaded (ω &gt; 1): DCQCN keeps the queue in the RED band, deeper the more it is oversubscribed:
 *     q = Kmin + (Kmax − Kmin)·min(1, (ω − 1)/(ωpfc − 1)); with ECN marking off the queue has nothing to hold
 *     it below the PFC threshold;</li>
 * <li>beyond ωpfc the buffer fills to XOFF and the port pauses its upstream senders for the excess
 *     fraction of time, (ω − ωpfc)/ω;</li>
 * <li>RED marking: 0 below Kmin, rising linearly to Pmax at Kmax, 1 above.</li>
 * </ul>
 */
public final class CongestionModel {

    private CongestionModel() {
    }

    /** Mean egress queue depth in bytes. */
    public static double queueBytes(final ModelParams p, final double rateBps, final double capacityBps,
                                    final double offeredBps, final int mtuBytes, final boolean ecnEnabled) {
        if (capacityBps <= 0 || rateBps <= 0) {
            return 0;
        }
        final double scale = p.scale(capacityBps);
        final double omega = offeredBps / capacityBps;
        if (omega <= 1.0 + 1e-9) {
            final double rho = Math.min(rateBps / capacityBps, 0.995);
            return Math.min(mtuBytes * rho * rho / (2 * (1 - rho)), p.ecnKminBytes() * scale);
        }
        if (!ecnEnabled) {
            return p.bufferPerPortBytes() * scale;
        }
        final double band = Math.min(1, (omega - 1) / (p.pfcOverload() - 1));
        return (p.ecnKminBytes() + (p.ecnKmaxBytes() - p.ecnKminBytes()) * band) * scale;
    }

    /** RED marking probability for a queue depth. */
    public static double markProbability(final ModelParams p, final double queueBytes, final double capacityBps) {
        final double scale = p.scale(capacityBps);
        final double kmin = p.ecnKminBytes() * scale;
        final double kmax = p.ecnKmaxBytes() * scale;
        if (queueBytes <= kmin) {
            return 0;
        }
        if (queueBytes >= kmax) {
            return 1;
        }
        return p.ecnPmax() * (queueBytes - kmin) / (kmax - kmin);
    }

    /**
     * Fraction of time this egress keeps its upstream senders paused. With ECN working, only overload
     * beyond ωpfc pauses; without ECN every overload does.
     */
    public static double pauseFraction(final ModelParams p, final double capacityBps, final double offeredBps,
                                       final boolean ecnEnabled) {
        if (capacityBps <= 0) {
            return offeredBps > 0 ? 1 : 0;
        }
        final double omega = offeredBps / capacityBps;
        final double threshold = ecnEnabled ? p.pfcOverload() : 1.0;
        return omega > threshold ? Math.min(1, (omega - threshold) / omega) : 0;
    }

    /** PFC frames per second a port sends while asserting pause continuously: XOFF refreshed every half quanta. */
    public static double pauseFramesPerSecond(final double capacityBps) {
        return capacityBps <= 0 ? 0 : 2 * capacityBps / (65_535.0 * 512);
    }

    /** Queueing delay in µs for a queue depth at a port speed. */
    public static double queueDelayUs(final double queueBytes, final double capacityBps) {
        return capacityBps <= 0 ? 0 : queueBytes * 8 / capacityBps * 1e6;
    }
}
