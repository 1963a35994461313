package dev.fabrictwin.twin.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.routing.Router;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioException;
import dev.fabrictwin.twin.workload.FlowSpec;
import dev.fabrictwin.twin.workload.PinSpec;

/**
 * A scenario's explicit {@code flows:} and {@code pins:} on its twin (docs/contracts.md): their ends resolved on the
 * fabric, each {@code via} resolved to the first-hop link at the source switch towards that switch. The fabric is
 * needed to check them, so their errors come when the twin is built, as one-line {@link ScenarioException}s naming
 * the entry.
 */
final class ScenarioTraffic {

    private ScenarioTraffic() {
    }

    /** Adds the scenario's flows to the simulation and pins their paths and the pinned NIC pairs'; before the run. */
    static void apply(final Scenario scenario, final FluidSimulation sim) {
        final Fabric fabric = sim.fabric();
        final List<FluidSimulation.Pin> pins = new ArrayList<>();
        final Map<List<PortRef>, String> pinnedVia = new HashMap<>();
        for (int i = 0; i < scenario.flows().size(); i++) {
            final FlowSpec f = scenario.flows().get(i);
            final String where = "flows[" + i + "] (" + f.id() + ")";
            final PortRef src = nic(fabric, f.source(), where + ".src");
            final PortRef dst = nic(fabric, f.destination(), where + ".dst");
            if (src.device().equals(dst.device())) {
                throw new ScenarioException(where + ": src " + src + " and dst " + dst
                    + (src.equals(dst) ? " are the same port" : " are on one host (that traffic never touches the fabric)"));
            }
            if (f.via() != null) {
                pins.add(pin(sim, src, dst, f.via(), where, pinnedVia));
            }
            sim.addFlow(new FluidSimulation.ExplicitFlow(f.id(), src, dst, f.bytes(), f.startSeconds(), f.repeatSeconds()));
        }
        for (int i = 0; i < scenario.pins().size(); i++) {
            final PinSpec p = scenario.pins().get(i);
            final String where = "pins[" + i + "]";
            pins.add(pin(sim, nic(fabric, p.source(), where + ".src"), nic(fabric, p.destination(), where + ".dst"), p.via(),
                where, pinnedVia));
        }
        sim.pin(pins, 0);
    }

    /** {@code device/port} of a host, or {@code device} for the host's first NIC. */
    static PortRef nic(final Fabric fabric, final String text, final String where) {
        final int slash = text.indexOf('/');
        final String device = slash < 0 ? text : text.substring(0, slash);
        final Node host = fabric.node(device).filter(Node::isHost).orElseThrow(() -> new ScenarioException(where + ": '"
            + text + "' is not a host of the fabric (hosts are named like " + fabric.hosts().get(0).name() + ")"));
        final List<PortRef> nics = fabric.nicsOf(host);
        if (slash < 0) {
            return nics.get(0);
        }
        final PortRef port = new PortRef(device, text.substring(slash + 1));
        if (!nics.contains(port)) {
            throw new ScenarioException(where + ": '" + text + "' is not a NIC of " + device + " (its NICs: "
                + nics.stream().map(PortRef::port).collect(Collectors.joining(", ")) + ")");
        }
        return port;
    }

    /** The pin that sends flows from {@code src} to {@code dst} through {@code via} right after their source switch. */
    private static FluidSimulation.Pin pin(final FluidSimulation sim, final PortRef src, final PortRef dst, final String via,
                                           final String where, final Map<List<PortRef>, String> pinnedVia) {
        final String before = pinnedVia.putIfAbsent(List.of(src, dst), via);
        if (before != null && !before.equals(via)) {
            throw new ScenarioException(where + ".via: " + src + " → " + dst + " is already pinned via " + before
                + ", cannot also go via " + via);
        }
        final Fabric fabric = sim.fabric();
        final Router.Choices choices = sim.choices(src, dst);
        final String from = fabric.node(choices.node()).name();
        final List<String> names = new ArrayList<>();
        for (final int link : choices.firstHops()) {
            final Node next = fabric.node(fabric.link(link).other(choices.node()));
            if (next.name().equals(via)) {
                return new FluidSimulation.Pin(src, dst, choices.node(), link);
            }
            names.add(next.name());
        }
        throw new ScenarioException(where + ".via: '" + via + "' is not a next hop of " + from + " towards " + dst
            + (names.isEmpty() ? " (both ends hang off " + from + ": there is no choice to pin)"
                : " (its choices: " + String.join(", ", names) + ")"));
    }
}
