package dev.fabrictwin.twin.sim;

/**
 * How a switch under PFC without congestion control pauses its ingress ports when several of its egresses are
 * congested at once (docs/twin.md, PFC without CC).
 *
 * <p>The switch counts its buffer per ingress port and pauses a port while its packets, wherever they queue, exceed
 * XOFF. A congested FIFO egress {@code e} holds a queue {@code Q_e} whose packets come from each port in proportion
 * to what the port sends it, so a port's count is {@code Σ_e Q_e·f_i·o_ie / C_e} ({@code o_ie}: what port {@code i}
 * offers {@code e} unpaused, {@code f_i}: the share of time it is not paused). Every paused port sits at XOFF, so
 * {@code 1/f_i = Σ_e w_e·o_ie} with a price {@code w_e = Q_e/(XOFF·C_e)} per egress, and a congested egress sends at
 * its capacity ({@code Σ_i f_i·o_ie = C_e}) while its queue lasts. Those are the optimality conditions of a
 * proportionally fair share: maximize {@code Σ_i log f_i} subject to {@code Σ_i f_i·o_ie ≤ C_e}, {@code f_i ≤ 1}.
 *
 * <p>With one congested egress this is the egress shared max-min among its ingress ports (a port offering more than
 * the level is paused for its excess). With several, a port feeding two of them is paused for the sum of their
 * prices rather than for the worse one, and no egress is left idle while ports that feed it are paused for another
 * (a queue keeps every congested egress busy): so on 2:1 oversubscription, where every uplink is congested, the
 * uplinks stay full. Solved by coordinate ascent on the prices, warm-started from the previous solve's.
 */
final class IngressPauses {

    /** Relative tolerance of an egress's load against its capacity. */
    private static final double TOLERANCE = 1e-9;
    private static final int MAX_SWEEPS = 500;
    private static final int MAX_STEPS = 100;

    private IngressPauses() {
    }

    /**
     * The unpaused share {@code f_i} of each ingress port of one switch.
     *
     * @param given    per congested egress, what each ingress port offers it unpaused ({@code given[e][i]})
     * @param capacity per congested egress, its capacity
     * @param price    per congested egress, the price to start from (the previous solve's); updated in place
     * @param ports    the switch's number of ports
     * @return per port, the share of time it is not paused (1: never paused)
     */
    static double[] unpausedShares(final double[][] given, final double[] capacity, final double[] price,
                                   final int ports) {
        // An egress that sends nothing (down, or stopped by a storm) pauses every port that offers it anything for
        // good; those ports then offer nothing elsewhere either, and it takes no part in the sharing.
        final boolean[] stopped = new boolean[ports];
        for (int e = 0; e < given.length; e++) {
            if (capacity[e] <= 0) {
                for (int i = 0; i < ports; i++) {
                    stopped[i] |= given[e][i] > 0;
                }
            }
        }
        final double[][] offered = new double[given.length][];
        for (int e = 0; e < given.length; e++) {
            offered[e] = new double[ports];
            if (capacity[e] > 0) {
                for (int i = 0; i < ports; i++) {
                    offered[e][i] = stopped[i] ? 0 : given[e][i];
                }
            } else {
                price[e] = 0;
            }
        }
        final double[] sum = new double[ports]; // Σ_e w_e·o_ie
        for (int e = 0; e < offered.length; e++) {
            for (int i = 0; i < ports; i++) {
                sum[i] += price[e] * offered[e][i];
            }
        }
        for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
            for (int e = 0; e < offered.length; e++) {
                final double[] o = offered[e];
                for (int i = 0; i < ports; i++) {
                    sum[i] -= price[e] * o[i];
                }
                price[e] = price(o, sum, capacity[e], price[e]);
                for (int i = 0; i < ports; i++) {
                    sum[i] += price[e] * o[i];
                }
            }
            if (settled(offered, capacity, price, sum)) {
                break;
            }
        }
        final double[] share = new double[ports];
        for (int i = 0; i < ports; i++) {
            share[i] = stopped[i] ? 0 : sum[i] > 1 ? 1 / sum[i] : 1;
        }
        return share;
    }

    /**
     * The price {@code w ≥ 0} at which the egress's load {@code Σ_i o_i·min(1, 1/(s_i + w·o_i))} equals its capacity
     * ({@code s_i}: the port's price from the switch's other egresses), or 0 if it is not overloaded at 0. The load
     * falls with {@code w}; safeguarded Newton steps inside a bracket that always holds the root.
     */
    static double price(final double[] o, final double[] others, final double capacity, final double start) {
        if (capacity <= 0 || load(o, others, 0) <= capacity) {
            return 0;
        }
        int senders = 0;
        for (final double x : o) {
            senders += x > 0 ? 1 : 0;
        }
        double lo = 0;
        double hi = senders / capacity; // every sender's share ≤ 1/(w·o_i)·o_i = 1/w: load ≤ senders/w
        double w = start > lo && start < hi ? start : hi / 2;
        for (int step = 0; step < MAX_STEPS; step++) {
            double load = 0;
            double slope = 0;
            for (int i = 0; i < o.length; i++) {
                if (o[i] > 0) {
                    final double x = others[i] + w * o[i];
                    if (x > 1) {
                        load += o[i] / x;
                        slope -= o[i] * o[i] / (x * x);
                    } else {
                        load += o[i];
                    }
                }
            }
            final double excess = load - capacity;
            if (Math.abs(excess) <= TOLERANCE * capacity) {
                return w;
            }
            if (excess > 0) {
                lo = w;
            } else {
                hi = w;
            }
            final double newton = slope < 0 ? w - excess / slope : Double.NaN;
            w = newton > lo && newton < hi ? newton : (lo + hi) / 2;
        }
        return w;
    }

    /**
     * Whether the shares are the fair ones: every priced egress loaded to its capacity and none beyond it. (A sweep
     * that moves the prices little is no proof: coupled egresses converge slowly, and where it stopped would depend
     * on where it started.)
     */
    private static boolean settled(final double[][] offered, final double[] capacity, final double[] price,
                                   final double[] sum) {
        for (int e = 0; e < offered.length; e++) {
            if (capacity[e] <= 0) {
                continue;
            }
            double load = 0;
            for (int i = 0; i < sum.length; i++) {
                load += offered[e][i] * (sum[i] > 1 ? 1 / sum[i] : 1);
            }
            final double excess = (load - capacity[e]) / capacity[e];
            if (excess > TOLERANCE || price[e] > 0 && excess < -TOLERANCE) {
                return false;
            }
        }
        return true;
    }

    private static double load(final double[] o, final double[] others, final double w) {
        double load = 0;
        for (int i = 0; i < o.length; i++) {
            final double x = others[i] + w * o[i]; // may round a hair below 0 once prices are taken back out
            load += x > 1 ? o[i] / x : o[i];
        }
        return load;
    }
}
