package dev.fabrictwin.twin.sim;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import dev.fabrictwin.twin.model.CongestionModel;

/**
 * PFC's coupling of the links: what each link is offered when flows start at their NIC's share and reach each next
 * link at what the links before could deliver, the pauses an overloaded egress spreads to the links that feed it, and
 * the capacities the solver sees once pauses take their part (docs/twin.md, PFC).
 */
final class PfcCoupling implements Serializable {

    private final LinkModel links;
    /** Per directed link: the share of time it is not paused (1: never paused), and the share it is. */
    private final double[] pauseFactor;
    private final double[] pausedFraction;
    /**
     * The transport has no congestion control (queue pairs paced at line rate, PFC alone keeps it lossless): a NIC's
     * queue pairs share its one FIFO in turn and PFC pauses fall on ingress ports (docs/twin.md, PFC without CC).
     */
    private boolean noCongestionControl;
    /** Per directed link: the index of its physical link among the links of the node it enters (its ingress port). */
    private final int[] ingressPort;
    /** Per directed link: its congestion price as an egress at the latest solve (IngressPauses' warm start). */
    private final double[] egressPrice;
    /**
     * From the latest offered-load pass, read by {@link #spreadPerIngress} in the same solve: each route's rate at its
     * NIC and the share each link passes on. Scratch, as the arrays below: not serialized.
     */
    private transient double[] routeRate;
    private transient double[] passOn;
    /**
     * Per-link scratch reused across solve events: {@link #updatePauses}'s egress pauses and feeder pauses, and
     * {@link #offeredLoad}'s deliverable rates, pass-on shares and its passes' two loads. Allocated per solve they
     * were a third of a sharded analysis's garbage at 131,072 ports (megabytes at each of a replica's ~20 solves per
     * second of telemetry), and its young collections a fifth of its wall time.
     */
    private static final int EGRESS_PAUSE = 0;
    private static final int FEEDER_PAUSE = 1;
    private static final int DELIVERABLE = 2;
    private static final int PASS_ON = 3;
    private static final int LOAD = 4;
    private static final int OTHER_LOAD = 5;
    private final LinkScratch scratch;

    PfcCoupling(final LinkModel links) {
        this.links = links;
        this.scratch = new LinkScratch(links.nominalCapacity.length, 6);
        this.pauseFactor = new double[links.nominalCapacity.length];
        Arrays.fill(pauseFactor, 1.0);
        this.pausedFraction = new double[links.nominalCapacity.length];
        this.ingressPort = new int[links.nominalCapacity.length];
        this.egressPrice = new double[links.nominalCapacity.length];
        for (int d = 0; d < ingressPort.length; d++) {
            final int[] at = links.fabric.linksOf(links.fabric.rxNode(d));
            for (int i = 0; i < at.length; i++) {
                if (at[i] == d / 2) {
                    ingressPort[d] = i;
                }
            }
        }
    }

    /** Whether the transport has no congestion control (PFC alone): set before the run. */
    void withoutCongestionControl(final boolean none) {
        noCongestionControl = none;
    }

    /** The share of time the link was paused at the latest solve. */
    double pausedFraction(final int directedLink) {
        return pausedFraction[directedLink];
    }

    void pushCapacities() {
        for (int d = 0; d < links.nominalCapacity.length; d++) {
            // The solver shares payload: the headers take their part of the wire.
            final double cap = links.conditions.linkUp[d / 2]
                ? links.nominalCapacity[d] * links.conditions.capacityFactor[d] * (1 - links.conditions.stormPause[d])
                    * pauseFactor[d]
                    / links.wire
                : 0;
            if (cap != links.allocator.capacity(d)) {
                links.allocator.setCapacity(d, cap);
            }
        }
        links.bundles.pushCapacities(links.allocator);
    }

    /**
     * PFC without congestion control: the queue pairs of a NIC are paced at line rate into its one FIFO, which sends
     * their packets in turn whenever the NIC is not paused, so each of k active queue pairs gets 1/k of what the NIC
     * sends and none can use time another leaves: a queue pair held back downstream holds the FIFO's head, and PFC
     * pauses the whole NIC. Each flow's demand is capped at its NIC's (paused) capacity over its active flows; the
     * network then reaches the NIC only through its pauses. With congestion control each queue pair has its own rate
     * limiter and this does not apply.
     */
    void pushNicShares() {
        if (!noCongestionControl) {
            return;
        }
        final int[] active = new int[links.nominalCapacity.length];
        for (int k = 0; k < links.table.routeCount; k++) {
            if (links.table.routeFirst[k] && links.table.routeNic[k] >= 0) {
                active[links.table.routeNic[k]]++;
            }
        }
        for (int k = 0; k < links.table.routeCount; k++) {
            if (links.table.routeFirst[k] && links.table.routeNic[k] >= 0) { // flow classes: no NIC FIFO share (docs/twin.md)
                final SimFlow f = links.table.routeFlow[k];
                final double share = links.allocator.capacity(f.nicLink) / active[f.nicLink];
                if (share != f.nicShare) {
                    f.nicShare = share;
                    if (!f.capped) {
                        f.setDemand(links.allocator, f.demand());
                    }
                }
            }
        }
    }

    /** Sets each link's pause factor from the overload of the egresses it feeds; true if anything changed. */
    boolean updatePauses(final double[] offered) {
        final int n = links.nominalCapacity.length;
        // an egress's pause fraction depends on the egress alone: once per link, then spread to its feeders
        final double[] egressPause = scratch.zeroed(EGRESS_PAUSE);
        boolean anyPause = false;
        for (int e = 0; e < n; e++) {
            if (offered[e] > 0) {
                final double unpaused = pauseFactor[e] > 0 ? links.allocator.capacity(e) / pauseFactor[e] : 0;
                egressPause[e] = CongestionModel.pauseFraction(links.params, unpaused, offered[e],
                    links.conditions.ecnEnabled[links.fabric.txNode(e)]);
                anyPause |= egressPause[e] > 0;
            }
        }
        final double[] next = scratch.zeroed(FEEDER_PAUSE);
        if (anyPause && noCongestionControl) {
            spreadPerIngress(egressPause, next);
        } else if (anyPause) {
            int from = 0;
            for (int k = 0; k < links.table.routeCount; k++) {
                final int to = links.table.routeEnd[k];
                for (int i = links.table.routeNic[k] < 0 ? to : from + 1; i < to; i++) { // a class's hops are bundles
                    final double pf = egressPause[links.table.hops[i]];
                    if (pf > next[links.table.hops[i - 1]]) {
                        next[links.table.hops[i - 1]] = pf;
                    }
                }
                from = to;
            }
        }
        boolean changed = false;
        for (int d = 0; d < n; d++) {
            final double factor = 1 - next[d];
            pausedFraction[d] = next[d];
            if (Math.abs(factor - pauseFactor[d]) > 1e-6) {
                pauseFactor[d] = factor;
                changed = true;
            }
        }
        return changed;
    }

    /**
     * PFC without congestion control: a switch counts its buffer per ingress port and pauses the port whose packets,
     * in whatever egress queues they wait, exceed XOFF. Each switch's congested egresses ({@code egressPause > 0})
     * share its ingress ports together ({@link IngressPauses}: one congested egress is shared max-min among them), and
     * a paused port is paused for whatever else it carries (head-of-line blocking): its feeder link gets that pause
     * ({@code next}).
     */
    private void spreadPerIngress(final double[] egressPause, final double[] next) {
        final int n = links.nominalCapacity.length;
        final int[] slot = new int[n];
        Arrays.fill(slot, -1);
        final List<double[]> demand = new ArrayList<>();
        final List<Integer> egresses = new ArrayList<>();
        for (int e = 0; e < n; e++) {
            if (egressPause[e] > 0) {
                slot[e] = demand.size();
                demand.add(new double[links.fabric.degree(links.fabric.txNode(e))]);
                egresses.add(e);
            }
        }
        // What each ingress port offers each paused egress: the routes' NIC rates through the links before it.
        int h = 0;
        for (int k = 0; k < links.table.routeCount; k++) {
            double rate = routeRate[k];
            int previous = -1;
            if (links.table.routeNic[k] < 0) {
                h = links.table.routeEnd[k]; // a class's hops are bundles: it offers what it is given (docs/twin.md)
                continue;
            }
            for (final int to = links.table.routeEnd[k]; h < to; h++) {
                final int l = links.table.hops[h];
                if (previous >= 0 && slot[l] >= 0) {
                    demand.get(slot[l])[ingressPort[previous]] += rate;
                }
                rate *= passOn[l];
                previous = l;
            }
        }
        // Per switch, its congested egresses share its ingress ports together: the egresses grouped by switch.
        final Integer[] bySwitch = new Integer[egresses.size()];
        for (int s = 0; s < bySwitch.length; s++) {
            bySwitch[s] = s;
        }
        Arrays.sort(bySwitch, Comparator.comparingInt((Integer s) -> links.fabric.txNode(egresses.get(s)))
            .thenComparingInt(s -> s));
        for (int from = 0; from < bySwitch.length;) {
            final int node = links.fabric.txNode(egresses.get(bySwitch[from]));
            int to = from;
            while (to < bySwitch.length && links.fabric.txNode(egresses.get(bySwitch[to])) == node) {
                to++;
            }
            final List<Integer> at = Arrays.asList(bySwitch).subList(from, to);
            from = to;
            final double[][] offered = new double[at.size()][];
            final double[] capacity = new double[at.size()];
            final double[] price = new double[at.size()];
            for (int j = 0; j < at.size(); j++) {
                final int e = egresses.get(at.get(j));
                offered[j] = demand.get(at.get(j));
                capacity[j] = pauseFactor[e] > 0 ? links.allocator.capacity(e) / pauseFactor[e] : 0;
                price[j] = egressPrice[e];
            }
            final double[] share = IngressPauses.unpausedShares(offered, capacity, price,
                links.fabric.degree(node));
            for (int j = 0; j < at.size(); j++) {
                egressPrice[egresses.get(at.get(j))] = price[j];
            }
            for (int port = 0; port < share.length; port++) {
                if (share[port] < 1) {
                    final int link = links.fabric.linkOf(node, port);
                    final int feeder = links.fabric.rxNode(2 * link) == node ? 2 * link : 2 * link + 1;
                    if (1 - share[port] > next[feeder]) {
                        next[feeder] = 1 - share[port];
                    }
                }
            }
        }
    }

    /**
     * What each link is offered: every flow starts at min(its demand, its fair share of its NIC's line rate) (a NIC
     * with k active flows offers each 1/k of its rate) and reaches each next link at what the links before it could
     * deliver — an overloaded link passes on its capacity, shared in proportion to what it was offered (a FIFO). So
     * colliding elephants overload the link where they collide, not every link behind it: a link downstream sees
     * only what its feeders deliver (docs/twin.md, PFC). Computed as a fixed point, exact after as many passes as
     * the longest path has links (paths go up then down, so no link feeds itself). The array is scratch: valid until
     * the next call.
     */
    double[] offeredLoad() {
        final int n = links.nominalCapacity.length;
        final int[] flowsFromNic = scratch.zeroedCounts();
        for (int k = 0; k < links.table.routeCount; k++) {
            if (links.table.routeFirst[k] && links.table.routeNic[k] >= 0) {
                flowsFromNic[links.table.routeNic[k]]++;
            }
        }
        final double[] deliverable = scratch.reused(DELIVERABLE);
        for (int d = 0; d < n; d++) {
            deliverable[d] = links.conditions.linkUp[d / 2]
                ? links.nominalCapacity[d] * links.conditions.capacityFactor[d] * (1 - links.conditions.stormPause[d])
                    / links.wire
                : 0;
        }
        if (routeRate == null || routeRate.length < links.table.routeCount) {
            routeRate = new double[Math.max(links.table.routeCount, routeRate == null ? 0 : 2 * routeRate.length)];
        }
        final double[] rate = routeRate;
        for (int k = 0; k < links.table.routeCount; k++) {
            final int nic = links.table.routeNic[k];
            if (nic < 0) {
                rate[k] = 0;
                continue;
            }
            final double natural = Math.min(links.table.routeDemand[k],
                links.nominalCapacity[nic] * links.conditions.capacityFactor[nic] / links.wire / flowsFromNic[nic]);
            rate[k] = natural * links.table.routeWeight[k];
        }
        final double[] offered = offeredByPasses(n, links.table.longestRoute, rate, deliverable);
        links.table.spreadBundles(offered, 1, null);
        return offered;
    }

    /** The fixed point, exact after as many passes as the longest path has links (paths go up then down). */
    private double[] offeredByPasses(final int n, final int longest, final double[] natural, final double[] deliverable) {
        double[] offered = null;
        final double[] passOn = scratch.reused(PASS_ON); // share of what a link is offered that it passes on
        Arrays.fill(passOn, 1.0);
        for (int pass = 0; pass < Math.max(1, longest); pass++) {
            // the two loads take turns: this pass's is compared with the one before
            final double[] next = scratch.zeroed(pass % 2 == 0 ? LOAD : OTHER_LOAD);
            int h = 0;
            for (int k = 0; k < links.table.routeCount; k++) {
                double rate = natural[k];
                if (links.table.routeNic[k] < 0) {
                    h = links.table.routeEnd[k]; // a class's hops are bundles, spread over their members afterwards
                    continue;
                }
                for (final int to = links.table.routeEnd[k]; h < to; h++) {
                    final int l = links.table.hops[h];
                    next[l] += rate;
                    rate *= passOn[l];
                }
            }
            if (offered != null && Arrays.equals(offered, next)) {
                break;
            }
            offered = next;
            boolean overloaded = false;
            for (int l = 0; l < n; l++) {
                passOn[l] = offered[l] > deliverable[l] ? deliverable[l] / offered[l] : 1;
                overloaded |= passOn[l] < 1;
            }
            if (!overloaded) {
                break; // nothing scaled: the next pass would give the same loads
            }
        }
        this.passOn = passOn;
        return offered;
    }
}
