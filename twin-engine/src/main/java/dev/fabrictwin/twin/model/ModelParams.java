package dev.fabrictwin.twin.model;

import java.io.Serializable;

/**
 * Physical parameters of the counter model (docs/twin.md derives each formula). Queue and marking
 * thresholds are given for a 400G port and scale linearly with port speed, as switch vendors' defaults do.
 *
 * @param ecnKminBytes           RED/DCQCN marking starts at this queue depth (400G port)
 * @param ecnKmaxBytes           marking probability reaches {@code ecnPmax} here; every packet is marked above
 * @param ecnPmax                marking probability at Kmax
 * @param bufferPerPortBytes     queue depth at which a lossless port sends PFC XOFF (400G port)
 * @param pfcOverload            offered/capacity ratio above which ECN alone no longer holds the queue and PFC fires
 * @param cnpIntervalUs          a NIC sends at most one CNP per flow per this interval
 * @param tailToMeanQueue        P99 queueing delay as a multiple of the mean (exponential tail: ln 100 ≈ 4.6)
 */
public record ModelParams(double ecnKminBytes, double ecnKmaxBytes, double ecnPmax, double bufferPerPortBytes,
                          double pfcOverload, double cnpIntervalUs, double tailToMeanQueue) implements Serializable {

    public static final double REFERENCE_SPEED_BPS = 400e9;

    public ModelParams {
        if (!(ecnKminBytes >= 0 && ecnKmaxBytes > ecnKminBytes && bufferPerPortBytes >= ecnKmaxBytes)) {
            throw new IllegalArgumentException("need 0 <= Kmin < Kmax <= buffer");
        }
        if (!(ecnPmax > 0 && ecnPmax <= 1) || !(pfcOverload > 1) || !(cnpIntervalUs > 0) || !(tailToMeanQueue >= 1)) {
            throw new IllegalArgumentException("invalid model parameters");
        }
    }

    /** Defaults in the range of shipping RoCE switch profiles (Kmin 100 KB, Kmax 400 KB, Pmax 20 %, ~1 MB per port). */
    public static ModelParams defaults() {
        return new ModelParams(100_000, 400_000, 0.2, 1_000_000, 2.0, 50, 4.6);
    }

    /** Thresholds scale with port speed (a 100G port gets a quarter of the 400G values). */
    public double scale(final double capacityBps) {
        return capacityBps / REFERENCE_SPEED_BPS;
    }
}
