package dev.fabrictwin.twin.whatif;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.routing.Router;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.sim.FluidSimulation;
import dev.fabrictwin.twin.sim.Twin;
import dev.fabrictwin.twin.workload.PinSpec;
import dev.fabrictwin.twin.workload.PlacedJob;
import dev.fabrictwin.twin.workload.Transfer;

/**
 * Paths learned elsewhere (the analyzer's, from the fabric's counters) pinned onto a what-if's scenario as its
 * {@code pins:}: each names a job flow by its two NICs and the switch it crosses after its source switch. A pin whose
 * flow is no running job's, or whose switch is not one of that flow's first hops, is dropped. Pinned at the start of
 * every run, they hold whatever the hash seed (only unpinned flows rehash); a pin on a link a fault takes down is
 * ignored and the hash decides, as in the analyzer's replica.
 */
public record LearnedPins(Scenario scenario, int pinned, int dropped) {

    /** {@code scenario} with those of {@code pins} that fit its fabric and jobs added to its own pins. */
    public static LearnedPins onto(final Scenario scenario, final List<PinSpec> pins) {
        if (pins.isEmpty()) {
            return new LearnedPins(scenario, 0, 0);
        }
        final Twin twin = Twin.healthy(scenario, ModelParams.defaults());
        final Fabric fabric = twin.fabric();
        final FluidSimulation sim = twin.simulation();
        final Set<List<PortRef>> flows = new HashSet<>();
        for (final PlacedJob job : twin.jobs()) {
            for (final Transfer t : job.transfers()) {
                flows.add(List.of(t.source(), t.destination()));
            }
        }
        final List<PinSpec> kept = new ArrayList<>(scenario.pins());
        final Set<List<PortRef>> seen = new HashSet<>();
        for (final PinSpec p : pins) {
            final PortRef source = port(p.source());
            final PortRef destination = port(p.destination());
            if (source != null && destination != null && flows.contains(List.of(source, destination))
                && seen.add(List.of(source, destination)) && firstHop(fabric, sim.choices(source, destination), p.via())) {
                kept.add(p);
            }
        }
        final int pinned = kept.size() - scenario.pins().size();
        return new LearnedPins(scenario.withPins(kept), pinned, pins.size() - pinned);
    }

    /** {@code device/port}, or null. */
    private static PortRef port(final String text) {
        final int slash = text.indexOf('/');
        return slash <= 0 ? null : new PortRef(text.substring(0, slash), text.substring(slash + 1));
    }

    private static boolean firstHop(final Fabric fabric, final Router.Choices choices, final String via) {
        for (final int link : choices.firstHops()) {
            if (fabric.node(fabric.link(link).other(choices.node())).name().equals(via)) {
                return true;
            }
        }
        return false;
    }
}
