package dev.fabrictwin.twin.sim;

import static dev.fabrictwin.twin.TwinFixtures.scenario;

import java.util.ArrayList;
import java.util.List;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.routing.Router;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.solver.RateAllocator;

/** The parts of a simulation wired as {@link FluidSimulation} wires them, over a small fabric, for their unit tests. */
final class SimParts {

    /** Wire bits per payload bit of the fabrics below. */
    final double wire;
    final Fabric fabric;
    final Router router;
    final Conditions conditions;
    final RateAllocator allocator;
    final Bundles bundles;
    final RouteTable table;
    final PfcCoupling pfc;
    final LinkTimeline timeline;
    final Recorder recorder;
    final List<SimFlow> flows = new ArrayList<>();

    /** {@code spines} spines over 2 leaves of 2 hosts with one NIC each, 100G everywhere. */
    SimParts(final int spines) {
        final Scenario s = scenario("""
            name: parts
            fabric: {kind: spine-leaf, spines: %d, leaves: 2, hostsPerLeaf: 2, nicsPerHost: 1, linkSpeed: 100G}
            jobs: []
            """.formatted(spines));
        fabric = s.fabric().build(s.name());
        router = new Router(fabric, s.routing());
        wire = fabric.technology().wirePerPayload();
        final double[] nominal = new double[fabric.directedLinkCount()];
        final double[] payload = new double[nominal.length];
        for (int d = 0; d < nominal.length; d++) {
            nominal[d] = fabric.link(d / 2).capacityBps();
            payload[d] = nominal[d] / wire;
        }
        conditions = new Conditions(nominal.length, fabric.links().size(), fabric.nodes().size());
        allocator = new RateAllocator(payload);
        bundles = new Bundles(payload.length);
        table = new RouteTable(fabric, router, allocator, bundles, conditions);
        final LinkModel links = new LinkModel(fabric, ModelParams.defaults(), conditions, allocator, bundles, table,
            nominal, wire);
        pfc = new PfcCoupling(links);
        timeline = new LinkTimeline(nominal.length);
        recorder = new Recorder(links, pfc, timeline);
    }

    static PortRef nic(final int host) {
        return new PortRef("host-" + host, "nic0");
    }

    /** A routed flow of {@code bytes} (unbounded demand) from one host's NIC to another's, in the flow list. */
    SimFlow flow(final int from, final int to, final double bytes) {
        final SimFlow f = new SimFlow(null, nic(from), nic(to), bytes, Double.POSITIVE_INFINITY, -1,
            Router.flowKey(nic(from), nic(to), 0), false, fabric.txLink(nic(from)));
        table.route(f);
        flows.add(f);
        return f;
    }

    /** The directed link from the node named {@code from} to the node named {@code to}. */
    int link(final String from, final String to) {
        for (int d = 0; d < fabric.directedLinkCount(); d++) {
            if (fabric.node(fabric.txNode(d)).name().equals(from) && fabric.node(fabric.rxNode(d)).name().equals(to)) {
                return d;
            }
        }
        throw new IllegalArgumentException(from + " -> " + to);
    }
}
