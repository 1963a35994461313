package dev.fabrictwin.twin.sim;

import java.io.Serializable;

import dev.fabrictwin.twin.model.CongestionModel;

/**
 * Writes each directed link's state after every solve into the {@link LinkTimeline} the counters integrate: what the
 * wire carries (the payload with its headers), its flows, queue, marks, pauses and CNPs, and the conditions faults set.
 */
final class Recorder implements Serializable {

    private final LinkModel links;
    private final PfcCoupling pfc;
    private final LinkTimeline timeline;
    /** Whether link states are kept for the counters (the generator, the analyzer) or not (what-if answers). */
    private boolean recording = true;
    /** Per-link scratch of {@link #record}, reused across solve events; cleared before each use. */
    private final LinkScratch scratch;

    Recorder(final LinkModel links, final PfcCoupling pfc, final LinkTimeline timeline) {
        this.links = links;
        this.pfc = pfc;
        this.timeline = timeline;
        this.scratch = new LinkScratch(links.nominalCapacity.length, 6);
    }

    /** Keeps no link state from now on (what-if and fidelity read only iterations and flow completions). */
    void stop() {
        recording = false;
    }

    /** The links' states from {@code now} on, at the rates just solved; {@code offeredPayload} per link. */
    void record(final double[] offeredPayload, final double now) {
        if (!recording) {
            return;
        }
        final int n = links.nominalCapacity.length;
        // set for every link just below: not zeroed first (six arrays over every link at each solve)
        final double[] offered = scratch.reused(0);
        // What the wire carries (the states and counters): the payload with its headers.
        final double[] rate = scratch.reused(1);
        final double[] capacity = scratch.reused(2);
        for (int d = 0; d < n; d++) {
            rate[d] = links.allocator.load(d) * links.wire;
            capacity[d] = links.allocator.capacity(d) * links.wire;
            offered[d] = offeredPayload[d] * links.wire;
        }
        final int[] flowCount = scratch.zeroedCounts();
        links.table.spreadBundles(rate, links.wire, flowCount);
        final double[] cnp = scratch.zeroed(3);
        final int mtu = links.fabric.technology().mtuBytes();
        // set for every link whose queue and mark are read below (all, or those needed())
        final double[] mark = scratch.reused(4);
        final double[] queue = scratch.reused(5);
        final boolean[] needed = timeline.keepsAll() ? null : needed();
        for (int d = 0; d < n; d++) {
            if (needed != null && !needed[d]) {
                continue;
            }
            final boolean ecn = links.conditions.ecnEnabled[links.fabric.txNode(d)];
            queue[d] = CongestionModel.queueBytes(links.params, rate[d], capacity[d], offered[d], mtu, ecn);
            mark[d] = ecn ? CongestionModel.markProbability(links.params, queue[d], links.nominalCapacity[d]) : 0;
        }
        final double cnpCap = 1e6 / links.params.cnpIntervalUs();
        int from = 0;
        for (int k = 0; k < links.table.routeCount; k++) {
            final int to = links.table.routeEnd[k];
            if (links.table.routeNic[k] < 0) {
                from = to; // a flow class: counted by spreadBundles, no CNPs (docs/twin.md)
                continue;
            }
            // the CNPs land on the route's two NIC links: a route with neither kept needs no marks
            final boolean counted = needed == null
                || to > from && (timeline.keeps(links.table.hops[from]) || timeline.keeps(links.table.hops[to - 1]));
            double unmarked = 1;
            for (int h = from; h < to; h++) {
                flowCount[links.table.hops[h]]++;
                if (counted) {
                    unmarked *= 1 - mark[links.table.hops[h]];
                }
            }
            // The receiving NIC returns CNPs (counted on the NIC's incoming link); the sender handles them
            // (counted on its outgoing link): the two ends never share a link, so one array serves both.
            if (unmarked < 1) {
                final double sent = links.allocator.rate(links.table.routeId[k]);
                final double cnps = Math.min((1 - unmarked) * sent / 8 / mtu, cnpCap);
                cnp[links.table.hops[to - 1]] += cnps;
                cnp[links.table.hops[from]] += cnps;
            }
            from = to;
        }
        for (int d = 0; d < n; d++) {
            if (!timeline.keeps(d)) {
                if (needed[d]) {
                    timeline.noteMark(d, mark[d]);
                }
                continue;
            }
            final boolean storm = links.conditions.stormPause[d] > 0;
            // a LinkState's values, without the object (LinkTimeline.append)
            timeline.append(d, now, rate[d], capacity[d], offered[d], flowCount[d],
                queue[d], mark[d], Math.max(pfc.pausedFraction(d), links.conditions.stormPause[d]), storm,
                links.conditions.dropFraction[d], links.conditions.fecPerBit[d], links.conditions.crcPerPacket[d],
                links.conditions.addedLatencyUs[d], cnp[d], links.conditions.linkUp[d / 2]);
        }
    }

    /**
     * A replica keeping some links' states only (a shard's): the links whose queue and marks it needs — its own, and
     * every hop of a NIC flow that starts or ends on one of them, whose marks decide that flow's CNPs (now, and in
     * {@link #lessFlow} until the next solve, from the marks noted here). The rest of the fabric's queues and marks
     * would be worked out at every solve for links the shard never reports.
     */
    private boolean[] needed() {
        final boolean[] needed = scratch.flags();
        for (int d = 0; d < needed.length; d++) {
            needed[d] = timeline.keeps(d);
        }
        int from = 0;
        for (int k = 0; k < links.table.routeCount; k++) {
            final int to = links.table.routeEnd[k];
            if (links.table.routeNic[k] >= 0 && to > from
                && (timeline.keeps(links.table.hops[from]) || timeline.keeps(links.table.hops[to - 1]))) {
                for (int h = from; h < to; h++) {
                    needed[links.table.hops[h]] = true;
                }
            }
            from = to;
        }
        return needed;
    }

    /**
     * Coarse completions: a flow completing between solves leaves its links' states at once, less its rate, its flow
     * and its CNPs (queues and marks wait for the next solve).
     */
    void lessFlow(final SimFlow f, final double now) {
        if (!recording) {
            return;
        }
        final int mtu = links.fabric.technology().mtuBytes();
        final double cnpCap = 1e6 / links.params.cnpIntervalUs();
        for (int i = 0; i < f.routes.length && f.flowClass != null; i++) {
            final double rate = links.allocator.rate(f.ids[i]);
            for (final int b : f.routes[i].links()) {
                final int[] members = links.bundles.members(b);
                for (final int l : members) {
                    timeline.lessOneFlow(l, now, rate * links.wire / members.length, 0);
                }
            }
        }
        for (int i = 0; i < f.routes.length && f.flowClass == null; i++) {
            final int[] route = f.routes[i].links();
            final double rate = links.allocator.rate(f.ids[i]);
            double unmarked = 1;
            for (final int l : route) {
                unmarked *= 1 - timeline.latestMark(l);
            }
            final double cnps = unmarked < 1 ? Math.min((1 - unmarked) * rate / 8 / mtu, cnpCap) : 0;
            for (int h = 0; h < route.length; h++) {
                final boolean end = h == 0 || h == route.length - 1;
                timeline.lessOneFlow(route[h], now, rate * links.wire, end ? cnps : 0);
            }
        }
    }
}
