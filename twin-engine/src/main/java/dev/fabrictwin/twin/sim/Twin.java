package dev.fabrictwin.twin.sim;

import java.util.List;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.workload.Placement;
import dev.fabrictwin.twin.workload.PlacedJob;

/**
 * Builds the twin of a scenario: its fabric, its placed jobs and a simulation over them, with the scenario's explicit
 * flows and pinned paths.
 */
public record Twin(Scenario scenario, Fabric fabric, List<PlacedJob> jobs, FluidSimulation simulation) {

    /** The twin with the scenario's faults injected (what the generator runs). */
    public static Twin withFaults(final Scenario scenario, final ModelParams params) {
        return build(scenario, params, true);
    }

    /** The healthy twin: declared jobs only, no faults (what the analyzer compares telemetry with). */
    public static Twin healthy(final Scenario scenario, final ModelParams params) {
        return build(scenario, params, false);
    }

    private static Twin build(final Scenario scenario, final ModelParams params, final boolean faults) {
        final Fabric fabric = scenario.fabric().build(scenario.name());
        final List<PlacedJob> jobs = Placement.place(fabric, scenario.jobs(), scenario.seed());
        final FluidSimulation sim = new FluidSimulation(fabric, jobs, scenario.routing(),
            faults ? scenario.faults() : List.of(), params, scenario.seed());
        sim.setTransport(scenario.transport());
        ScenarioTraffic.apply(scenario, sim);
        return new Twin(scenario, fabric, jobs, sim);
    }

    public CounterIntegrator counters() {
        return new CounterIntegrator(fabric, simulation.timeline(), simulation.params());
    }
}
