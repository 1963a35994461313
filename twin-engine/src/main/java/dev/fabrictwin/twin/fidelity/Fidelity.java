package dev.fabrictwin.twin.fidelity;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.Transport;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.scenario.Routing;
import dev.fabrictwin.twin.sim.FluidSimulation;
import dev.fabrictwin.twin.sim.IterationRecord;
import dev.fabrictwin.twin.workload.JobSpec;
import dev.fabrictwin.twin.workload.Pattern;
import dev.fabrictwin.twin.workload.PlacedJob;

/** Runs a {@link ReferenceCase} on the twin: the makespan of one round of its flows, all started at t = 0. */
public final class Fidelity {

    /** The twin's answer for one case and hash seed. */
    public record Run(ReferenceCase reference, long seed, double makespanMs, double solveSeconds) {
    }

    /**
     * A case over hash seeds 1..n (one seed when the case has no ECMP choice that matters): the twin's median
     * against the reference's median, and both ranges.
     */
    public record Sweep(ReferenceCase reference, List<Run> runs) {

        public double twinMedianMs() {
            return ReferenceCase.median(runs.stream().map(Run::makespanMs).toList());
        }

        public double twinMinMs() {
            return runs.stream().mapToDouble(Run::makespanMs).min().orElse(Double.NaN);
        }

        public double twinMaxMs() {
            return runs.stream().mapToDouble(Run::makespanMs).max().orElse(Double.NaN);
        }

        public double twinMeanMs() {
            return runs.stream().mapToDouble(Run::makespanMs).average().orElse(Double.NaN);
        }

        /** Twin mean / reference mean: smooth where medians of step-valued makespans jump (docs/fidelity.md). */
        public double meanRatio() {
            return twinMeanMs() / reference.seedSpreadMs().stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        }

        /** Twin median / reference median. */
        public double ratio() {
            return twinMedianMs() / reference.referenceMedianMs();
        }

        /** Whether the twin's seed range and the reference's overlap. */
        public boolean rangesOverlap() {
            final double refMin = reference.seedSpreadMs().stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            final double refMax = reference.seedSpreadMs().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            return twinMinMs() <= refMax && twinMaxMs() >= refMin;
        }

        public double medianSolveSeconds() {
            return ReferenceCase.median(runs.stream().map(Run::solveSeconds).toList());
        }
    }

    public static Sweep sweep(final ReferenceCase c, final int seeds) {
        final int n = c.seedSpreadMs().size() > 1 ? seeds : 1;
        final List<Run> runs = new ArrayList<>();
        for (long s = 1; s <= n; s++) {
            runs.add(run(c, s, Routing.Mode.ECMP));
        }
        return new Sweep(c, List.copyOf(runs));
    }

    private Fidelity() {
    }

    public static Run run(final ReferenceCase c, final long seed, final Routing.Mode routing) {
        final Fabric fabric = c.fabric();
        final List<Node> hosts = fabric.hosts();
        final List<PortRef> ranks = new ArrayList<>();
        hosts.forEach(h -> ranks.addAll(fabric.nicsOf(h)));
        // A job whose first comm phase (the case's traffic matrix) starts at t = 1 µs, followed by a compute phase of
        // an hour: the run solves that one phase and nothing else.
        final JobSpec spec = new JobSpec("reference", hosts.size(), List.of(), Pattern.ALL_TO_ALL, c.bytes(),
            Duration.ofHours(2), 0.5);
        final PlacedJob job = new PlacedJob(spec, hosts, ranks, c.transfers());
        final FluidSimulation sim = new FluidSimulation(fabric, List.of(job), new Routing(routing, seed, false),
            List.of(), ModelParams.defaults(), seed);
        sim.setPhaseOffset(spec.id(), 1e-6 - spec.computeSeconds());
        sim.setTransport(Transport.PFC); // the reference: no ECN reaction, no DCQCN
        sim.stopRecording(); // the makespan is all it asks
        final long t0 = System.nanoTime();
        double until = 0.05;
        while (sim.iterations().isEmpty()) {
            sim.runUntil(until);
            until *= 2;
        }
        final double solve = (System.nanoTime() - t0) / 1e9;
        final IterationRecord first = sim.iterations().get(0);
        return new Run(c, seed, first.commSeconds() * 1e3, solve);
    }
}
