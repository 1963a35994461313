package dev.fabrictwin.analyzer.twin;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.fabric.PortNames;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.model.LinkState;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.routing.Router;
import dev.fabrictwin.twin.scenario.Routing;
import dev.fabrictwin.twin.fabric.Transport;
import dev.fabrictwin.twin.sim.CounterIntegrator;
import dev.fabrictwin.twin.sim.FluidSimulation;
import dev.fabrictwin.twin.sim.PortCounters;
import dev.fabrictwin.twin.workload.JobJson;
import dev.fabrictwin.twin.workload.JobSpec;
import dev.fabrictwin.twin.workload.Placement;
import dev.fabrictwin.twin.workload.PlacedJob;

/**
 * The analyzer's copy of the twin, built from what {@code fabric.topology} and {@code fabric.jobs} carry and
 * run in step with telemetry time: it is advanced to each interval it is asked about (in tick order: see
 * {@code FabricAnalyzer}), it follows link state
 * the telemetry reports (a down link re-routes the replica's flows, so it expects the siblings to carry them),
 * and it answers "what should this port have done over exactly [t0, t1]". It is steered through one method,
 * {@link #steer}, in the order a {@link ReplicaSync} step fixes; detectors and learners see it as a {@link ReplicaView}.
 *
 * <p>It knows nothing the generator hides: not the ECMP hash seeds (its own seed is arbitrary), not the
 * physical parameters (defaults), not the faults. Time zero of its simulation is {@code epochMs}.
 */
public final class TwinReplica implements Serializable, ReplicaView {

    /** Any fixed seed: the real switches' hashes are unknown, so the replica does not pretend to know them. */
    private static final long REPLICA_HASH_SEED = 0x5EED;
    /**
     * The replica shares bandwidth a completing flow frees on this grid (FluidSimulation#setCompletionGrid), not at
     * each completion: a 49k-port fabric's background flows end hundreds of times a second, each a re-solve of the
     * whole fabric (bench streams --ports 49152: 37k → 88k samples per CPU second). A tick is a multiple of it, so
     * bytes stay in their tick; the scenario library scores the same with it (docs/analyzer.md).
     */
    static final double COMPLETION_GRID_SECONDS = 0.05;
    /** Optional fields of a job document: when the scheduler started it and when it ends (epoch ms). */
    static final String START_MS = "startMs";
    static final String END_MS = "endMs";

    private final Fabric fabric;
    /** Every declared job the replica follows (started or waiting to), by id, in declaration order. */
    private final Map<String, PlacedJob> placed = new LinkedHashMap<>();
    private final Map<String, JsonNode> documents = new LinkedHashMap<>();
    private final Transport transport;
    /** The directed links whose history is kept ({@link #recordOnly}), or null for all. */
    private boolean[] recorded;
    /** Built again, with the epoch and jobs known then, while the replica has not run ({@link #anchor}). */
    private FluidSimulation simulation;
    private CounterIntegrator integrator;
    private long epochMs;
    private final PortNames.Resolver names;

    private TwinReplica(final Fabric fabric, final PortNames names, final Transport transport, final long epochMs) {
        this.fabric = fabric;
        this.names = names.bind(fabric);
        this.transport = transport;
        this.epochMs = epochMs;
    }

    /** Builds the replica from the topology document and the declared jobs (as the topics carry them). */
    public static TwinReplica from(final JsonNode topology, final List<JsonNode> jobDocuments, final long epochMs) {
        final Fabric fabric = FabricJson.fromJson(topology, "fabric", Technology.ROCE_V2);
        final TwinReplica replica = new TwinReplica(fabric, PortNames.fromJson(topology.get("names")),
            FabricJson.transport(topology), epochMs); // the document's transport (ecn when absent)
        replica.declare(jobDocuments);
        return replica;
    }

    /**
     * The jobs as declared before the replica runs: placed together in declaration order, started at their
     * {@code startMs} (or with the replica), ended at their {@code endMs}; the simulation is built anew on them.
     */
    private void declare(final List<JsonNode> jobDocuments) {
        final List<JobSpec> specs = new ArrayList<>();
        for (final JsonNode j : jobDocuments) {
            specs.add(JobJson.fromJson(j));
        }
        placed.clear();
        documents.clear();
        Placement.place(fabric, specs, REPLICA_HASH_SEED).forEach(j -> placed.put(j.id(), j));
        for (final JsonNode j : jobDocuments) {
            documents.put(j.get("id").asText(), j);
        }
        simulation = new FluidSimulation(fabric, List.copyOf(placed.values()), Routing.ecmp(REPLICA_HASH_SEED), List.of(),
            ModelParams.defaults(), REPLICA_HASH_SEED);
        integrator = new CounterIntegrator(fabric, simulation.timeline(), ModelParams.defaults());
        simulation.setCompletionGrid(COMPLETION_GRID_SECONDS);
        simulation.setTransport(transport);
        if (recorded != null) {
            simulation.recordOnly(recorded);
        }
        for (final Map.Entry<String, JsonNode> e : documents.entrySet()) {
            final long start = e.getValue().path(START_MS).asLong(Long.MIN_VALUE);
            if (start > epochMs) {
                simulation.setPhaseOffset(e.getKey(), seconds(start));
            }
            if (e.getValue().hasNonNull(END_MS)) {
                simulation.endJob(e.getKey(), seconds(e.getValue().get(END_MS).asLong()));
            }
        }
    }

    /**
     * Sets the replica's time zero, which a job declared without {@code startMs} starts at, before it has run. The
     * analysis anchors it on its first closed tick, whose intervals are all there (unless late): a replica built when
     * some other interval happened to arrive first then starts the same, so the output does not depend on start-up
     * timing or arrival order.
     */
    public void anchor(final long epochMs) {
        if (simulation.started()) {
            throw new IllegalStateException("the replica has run: its epoch is fixed");
        }
        if (epochMs != this.epochMs) {
            this.epochMs = epochMs;
            declare(List.copyOf(documents.values()));
        }
    }

    /** Whether the replica has run (its epoch and the jobs it started with are fixed). */
    public boolean started() {
        return simulation.started();
    }

    /**
     * Follows the scheduler: jobs whose document appeared start (at their {@code startMs}, or now), jobs whose
     * document went away (a tombstone) end now, a changed document ends the old job and starts the new one, and
     * an {@code endMs} ends the job then. Their traffic appears and leaves the replica at those event times, so
     * a job starting or ending is expected, not a fault. Before the replica has run, the documents are simply the
     * ones it starts with (as if they had been there when it was built).
     */
    private void updateJobs(final List<JsonNode> jobDocuments, final long nowMs) {
        final Map<String, JsonNode> next = new LinkedHashMap<>();
        for (final JsonNode j : jobDocuments) {
            next.put(JobJson.fromJson(j).id(), j);
        }
        if (!simulation.started()) {
            if (!next.equals(documents)) {
                declare(List.copyOf(next.values()));
            }
            return;
        }
        for (final String id : List.copyOf(documents.keySet())) {
            if (!documents.get(id).equals(next.get(id))) {
                simulation.endJob(id, seconds(nowMs));
                placed.remove(id);
                documents.remove(id);
            }
        }
        for (final Map.Entry<String, JsonNode> e : next.entrySet()) {
            if (documents.containsKey(e.getKey())) {
                continue;
            }
            final List<JobSpec> specs = new ArrayList<>();
            placed.values().forEach(p -> specs.add(p.spec()));
            specs.add(JobJson.fromJson(e.getValue()));
            final PlacedJob job = Placement.place(fabric, specs, REPLICA_HASH_SEED).get(specs.size() - 1);
            final long start = Math.max(nowMs, e.getValue().path(START_MS).asLong(nowMs));
            simulation.addJob(job, seconds(start));
            if (e.getValue().hasNonNull(END_MS)) {
                simulation.endJob(job.id(), seconds(e.getValue().get(END_MS).asLong()));
            }
            placed.put(job.id(), job);
            documents.put(job.id(), e.getValue());
        }
    }

    /**
     * The replica's steering, all of it: applies the step's parts in {@link ReplicaSync}'s order — the declared jobs,
     * the link states reported, the phase lock's retimes, the learned pins, then forgets the history before its
     * {@code forgetBeforeMs}. A job document that cannot be used throws {@link IllegalArgumentException} before the
     * rest is applied.
     */
    public void steer(final ReplicaSync sync) {
        if (sync.jobs() != null) {
            updateJobs(sync.jobs().documents(), sync.jobs().atMs());
        }
        for (final ReplicaSync.OperState r : sync.operStates()) {
            simulation.setLinkUp(r.port() / 2, r.up(), seconds(r.atMs()));
        }
        for (final ReplicaSync.Retime r : sync.retimes()) {
            simulation.retimeNextComm(r.job(), (r.atMs() - epochMs) / 1000.0);
        }
        for (final ReplicaSync.Pins p : sync.pins()) {
            simulation.pin(p.flows(), seconds(p.atMs()));
        }
        if (sync.forgetBeforeMs() != Long.MIN_VALUE) {
            simulation.forgetBefore(seconds(sync.forgetBeforeMs()));
        }
    }

    /** The topology port a telemetry device/port name stands for (the document's {@code names}), or why none. */
    public PortNames.Resolution resolve(final String device, final String port) {
        return names.resolve(device, port);
    }

    @Override
    public Fabric fabric() {
        return fabric;
    }

    /** The jobs running at the replica's current time (started, not ended), in declaration order. */
    @Override
    public List<PlacedJob> jobs() {
        return runningAt(simulation.now());
    }

    /**
     * The jobs running at epoch ms {@code atMs} (before the replica's start: those running at its start). Ticks
     * close behind the replica's time, so judging a tick asks for the jobs of the tick's time.
     */
    @Override
    public List<PlacedJob> jobsAt(final long atMs) {
        return runningAt(atMs <= epochMs ? 0 : seconds(atMs));
    }

    private List<PlacedJob> runningAt(final double t) {
        final List<PlacedJob> running = new ArrayList<>(placed.size());
        for (final PlacedJob j : placed.values()) {
            if (simulation.isRunning(j.id(), t)) {
                running.add(j);
            }
        }
        return running;
    }

    /** What the port should show over the interval (counter increases, mean gauges). */
    public PortCounters expected(final PortInterval interval) {
        final double t0 = seconds(interval.t0());
        final double t1 = seconds(interval.t1());
        if (t1 > simulation.now()) {
            simulation.runUntil(t1);
        }
        return integrator.expected(new PortRef(interval.device(), interval.port()), Math.max(0, t0), Math.max(0, t1));
    }

    /** As {@link #expected}, into arrays indexed by {@code CounterIndex} (the analyzer's hot path). */
    public void expectedInto(final PortInterval interval, final double[] counters, final double[] gauges,
                             final boolean[] present) {
        expectedInto(new PortRef(interval.device(), interval.port()), interval.t0(), interval.t1(), counters, gauges,
            present);
    }

    /** As {@link #expectedInto(PortInterval, double[], double[], boolean[])}, for the port over [t0Ms, t1Ms]. */
    public void expectedInto(final PortRef port, final long t0Ms, final long t1Ms, final double[] counters,
                             final double[] gauges, final boolean[] present) {
        expectedInto(fabric.txLink(port), t0Ms, t1Ms, counters, gauges, present);
    }

    /** As above, for the port of this {@code Fabric.portIndex}. */
    public void expectedInto(final int port, final long t0Ms, final long t1Ms, final double[] counters,
                             final double[] gauges, final boolean[] present) {
        final double t0 = seconds(t0Ms);
        final double t1 = seconds(t1Ms);
        if (t1 > simulation.now()) {
            simulation.runUntil(t1);
        }
        // A span reaching back past the kept history (a gap, a device far behind): its known part, scaled to the
        // whole span, as the counters' increases over a gap are averages too.
        final double from = Math.max(0, t0);
        final double known = Math.max(from, simulation.timeline().forgottenBefore());
        final double to = Math.max(0, t1);
        final boolean scaled = known > from && to > known;
        integrator.expectedInto(port, scaled ? known : from, to, counters, gauges, present);
        if (scaled) {
            final double factor = (to - from) / (to - known);
            for (int i = 0; i < counters.length; i++) {
                counters[i] *= factor;
            }
        }
    }

    /** Whether a report of the port of this {@code Fabric.portIndex} being up (or down) differs from its link's latest. */
    public boolean changesLink(final int port, final boolean up) {
        return simulation.linkRequestedUp(port / 2) != up;
    }

    /**
     * Keeps the link timeline of these directed links only (by {@code Fabric.portIndex}): a shard's replica, whose
     * expectations are only ever asked for its own links, keeps only their history.
     */
    public void recordOnly(final boolean[] directedLinks) {
        recorded = directedLinks.clone();
        simulation.recordOnly(directedLinks);
    }

    /** The twin's state of a directed link with the most flows during [t0, t1] (epoch ms). */
    @Override
    public LinkState busiestState(final int directedLink, final long t0, final long t1) {
        return simulation.timeline().busiest(directedLink, seconds(t0), seconds(t1));
    }

    /** The twin's duration of the job's last comm phase (ms), NaN before its first one ends. */
    @Override
    public double lastCommMs(final String jobId) {
        return simulation.lastCommSeconds(jobId) * 1000;
    }

    /** When the twin starts the job's next comm phase (epoch ms), NaN while one is running. */
    @Override
    public double nextCommStartMs(final String jobId) {
        return epochMs + simulation.nextCommStart(jobId) * 1000;
    }

    /** The first hops a flow between two NICs can take at its source switch, and the path behind each. */
    @Override
    public Router.Choices choices(final PortRef source, final PortRef destination) {
        return simulation.choices(source, destination);
    }

    /** The first hop (physical link) the replica routes the flow between two NICs on now, or -1. */
    @Override
    public int firstHop(final PortRef source, final PortRef destination) {
        return simulation.firstHop(source, destination);
    }

    /** Link states the replica keeps (its history, bounded by the {@link ReplicaSync#forgetBeforeMs} it is steered with). */
    public long historyStates() {
        return simulation.timeline().stateCount();
    }

    private double seconds(final long epochMillis) {
        return (epochMillis - epochMs) / 1000.0;
    }
}
