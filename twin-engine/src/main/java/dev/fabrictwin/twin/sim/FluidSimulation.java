package dev.fabrictwin.twin.sim;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.Transport;
import dev.fabrictwin.twin.fault.FaultSpec;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.routing.Route;
import dev.fabrictwin.twin.routing.Router;
import dev.fabrictwin.twin.scenario.Routing;
import dev.fabrictwin.twin.solver.RateAllocator;
import dev.fabrictwin.twin.workload.FlowClass;
import dev.fabrictwin.twin.workload.PlacedJob;
import dev.fabrictwin.twin.workload.Transfer;

/**
 * The twin in motion: an event-driven fluid simulation. Between events every flow's rate is constant
 * (max-min fair, from {@link RateAllocator}), so each directed link's state is piecewise constant and
 * recorded in a {@link LinkTimeline} that counters integrate exactly.
 *
 * <p>Events: a job's comm phase starts (its collective's flows appear), its last flow finishes (the
 * compute phase of the next iteration begins: bulk-synchronous), background traffic redraws, faults start
 * and end. Lock-step collectives (ring, hierarchical) run every flow at the pace of the slowest, as a ring
 * does. PFC pauses propagate upstream: an egress overloaded beyond what ECN holds pauses the links that
 * feed it, which lowers their capacity for every flow on them (victims), up to three hops.
 *
 * <p>Deterministic for a given fabric, jobs, faults, routing seed and phase offsets.
 */
public final class FluidSimulation implements Serializable {

    private static final double EPS_SECONDS = EventQueue.EPS_SECONDS;
    private static final int PAUSE_HOPS = 3;

    private final Fabric fabric;
    private final Router router;
    private final RateAllocator allocator;
    private final RouteTable table;
    private final PfcCoupling pfc;
    private final Recorder recorder;
    private final Completions completions;
    private final LockStep lockStep;
    private final ModelParams params;
    /** The faults in force and the link states telemetry reports: what sets the conditions. */
    private final FaultState faults;
    private final Conditions conditions;
    private final LinkTimeline timeline;
    private final JobClock clock;
    private final List<SimFlow> flows = new ArrayList<>();
    private final EventQueue events = new EventQueue();
    private double now;
    private boolean started;

    public FluidSimulation(final Fabric fabric, final List<PlacedJob> placedJobs, final Routing routing,
                           final List<FaultSpec> faults, final ModelParams params, final long seed) {
        this.fabric = fabric;
        this.router = new Router(fabric, routing);
        this.params = params;
        this.clock = new JobClock(events, seed);
        this.conditions = new Conditions(fabric.directedLinkCount(), fabric.links().size(), fabric.nodes().size());
        final double[] nominalCapacity = new double[fabric.directedLinkCount()];
        for (int d = 0; d < nominalCapacity.length; d++) {
            nominalCapacity[d] = fabric.link(d / 2).capacityBps();
        }
        final double wire = fabric.technology().wirePerPayload();
        final double[] payload = nominalCapacity.clone();
        for (int d = 0; d < payload.length; d++) {
            payload[d] /= wire;
        }
        this.allocator = new RateAllocator(payload);
        final Bundles bundles = new Bundles(payload.length);
        this.timeline = new LinkTimeline(fabric.directedLinkCount());
        this.faults = new FaultState(fabric, placedJobs, faults, conditions, router, seed);
        this.table = new RouteTable(fabric, router, allocator, bundles, conditions);
        final LinkModel links = new LinkModel(fabric, params, conditions, allocator, bundles, table, nominalCapacity,
            wire);
        this.pfc = new PfcCoupling(links);
        this.completions = new Completions(flows, allocator);
        this.lockStep = new LockStep(flows, allocator, table, clock);
        this.recorder = new Recorder(links, pfc, timeline);
        for (final PlacedJob j : placedJobs) {
            clock.register(j);
        }
    }

    /**
     * A job that starts while the simulation runs (a scheduler started it): its first iteration's compute phase
     * begins at {@code at} seconds (not before now). A job of the same id must have been ended first.
     */
    public void addJob(final PlacedJob job, final double at) {
        final JobState old = clock.find(job.id());
        if (old != null && !old.ended) {
            throw new IllegalStateException("job '" + job.id() + "' is already running");
        }
        final JobState j = clock.register(job);
        j.phaseOffset = started ? Math.max(at, now) : at;
        if (started) {
            clock.scheduleFirstIteration(j, now);
        }
    }

    /**
     * The job ends at {@code at} seconds (now if that has passed): its flows leave the fabric and it starts no
     * further iteration. Ending is not a fault: the links simply stop carrying its traffic.
     */
    public void endJob(final String jobId, final double at) {
        final JobState j = job(jobId);
        if (j.ended) {
            return;
        }
        if (started && at > now + EPS_SECONDS) {
            clock.scheduleEnd(j, at);
            return;
        }
        if (!started) {
            j.endAt = Math.min(j.endAt, at);
            return;
        }
        finish(j);
        solveAndRecord();
    }

    /** Whether the job runs at simulated time {@code t} (at most now): started by then, and not ended by then. */
    public boolean isRunning(final String jobId, final double t) {
        return clock.isRunning(jobId, t);
    }

    private void finish(final JobState j) {
        clock.ended(j, now);
        flows.removeIf(f -> {
            if (f.job == j) {
                f.release(allocator);
                return true;
            }
            return false;
        });
    }

    public Fabric fabric() {
        return fabric;
    }

    public LinkTimeline timeline() {
        return timeline;
    }

    /** Keeps the timeline of these directed links only ({@link LinkTimeline#keepOnly}); the others are never read. */
    public void recordOnly(final boolean[] directedLinks) {
        timeline.keepOnly(directedLinks);
    }

    public List<IterationRecord> iterations() {
        return clock.iterations();
    }

    public double now() {
        return now;
    }

    public ModelParams params() {
        return params;
    }

    /** When the job's first iteration starts (seconds); set before the run. The analyzer locks this to telemetry. */
    public void setPhaseOffset(final String jobId, final double seconds) {
        if (started) {
            throw new IllegalStateException("phase offsets must be set before the simulation runs");
        }
        job(jobId).phaseOffset = seconds;
    }

    /** The transport's reaction to congestion (ECN with DCQCN by default); set before the run. */
    public void setTransport(final Transport transport) {
        if (started) {
            throw new IllegalStateException("the transport must be set before the simulation runs");
        }
        conditions.ecnByDefault = transport == Transport.ECN;
        pfc.withoutCongestionControl(transport == Transport.PFC);
        conditions.reset();
    }

    /**
     * Keeps no link timeline from now on: for runs that only read iteration and flow records (what-if, fidelity),
     * which then skip building every link's state at every solve. Counters can no longer be asked of this run.
     */
    public void stopRecording() {
        recorder.stop();
    }

    /**
     * Lets each compute phase last (1 + ε)·compute with ε ~ N(0, fraction²) from the job's seeded stream, so
     * job phases drift as real ones do (the generator uses this; the analyzer's twin does not).
     */
    public void setComputeJitter(final double fraction) {
        if (started) {
            throw new IllegalStateException("compute jitter must be set before the simulation runs");
        }
        clock.setComputeJitter(fraction);
    }

    /**
     * Coarse completions for a twin that must keep up with a large fabric: with {@code seconds} > 0 a flow completing
     * between two solves leaves its links at once (its bytes are exact) and the bandwidth it frees goes to the
     * other flows at the next multiple of {@code seconds} instead of at once, so a fabric whose thousands of flows
     * end at scattered instants costs at most one solve per grid step, not one per completion. Events (comm phases,
     * faults, jobs) still solve at their instant. 0 (the default) is exact.
     */
    public void setCompletionGrid(final double seconds) {
        if (!(seconds >= 0)) {
            throw new IllegalArgumentException("completion grid must be >= 0 seconds: " + seconds);
        }
        completions.setGrid(seconds);
    }

    /** Whether the latest report of the link ({@link #setLinkUp}, in effect or still ahead) has it up. */
    public boolean linkRequestedUp(final int link) {
        return faults.linkRequestedUp(link);
    }

    /**
     * Telemetry reports a physical link down (or back up) at time {@code at} (not before now): the twin follows,
     * re-routing flows as the fabric does, so a known-down link is expected to carry nothing. Reports must come in
     * time order per link (a report equal to the link's latest is dropped).
     */
    public void setLinkUp(final int link, final boolean up, final double at) {
        if (!faults.request(link, up)) {
            return;
        }
        if (started && at > now + EPS_SECONDS) {
            // an event of the run: the change takes effect at its instant however far the run has been advanced
            // when told (reports come in whatever order the devices' telemetry arrives)
            schedule(at, EventKind.LINK_REPORT, 2 * link + (up ? 1 : 0));
            return;
        }
        runUntil(Math.max(at, now));
        if (faults.report(link, up)) {
            applyConditions();
            solveAndRecord();
        }
    }

    /** A flow's next hop at a switch, pinned to a physical link ({@code link < 0} unpins). */
    public record Pin(PortRef source, PortRef destination, int node, int link) implements Serializable {
    }

    /**
     * Pins flows' next hops (their two ends name them, as the hash does) from time {@code at} on: flows running then
     * move at once, later iterations' flows take the pinned paths when they start. A time still ahead is an event of
     * the run, so the pins take effect at that simulated instant however far the run has been advanced when asked
     * (what makes a replica fed in another order or restarted compute the same); a time already past applies now.
     */
    public void pin(final Collection<Pin> pins, final double at) {
        if (pins.isEmpty()) {
            return;
        }
        if (started && at > now) {
            table.pinAt(events.schedule(at, EventKind.PIN, -1), pins);
            return;
        }
        if (table.applyPins(pins, flows) && started) {
            solveAndRecord();
        }
    }

    /** The first hops a flow between two NICs can take at its source switch, and the path behind each. */
    public Router.Choices choices(final PortRef source, final PortRef destination) {
        return router.choices(source, destination, Router.flowKey(source, destination, 0));
    }

    /** The first hop (physical link) the flow between two NICs takes now at its source switch, or -1. */
    public int firstHop(final PortRef source, final PortRef destination) {
        final List<Route> routes = router.routes(source, destination, Router.flowKey(source, destination, 0));
        return routes.size() == 1 && routes.get(0).links().length > 2 ? routes.get(0).links()[1] / 2 : -1;
    }

    /**
     * The analyzer's phase lock: moves the job's next comm phase to {@code at} (never before now), so the twin
     * follows the iterations its NICs show rather than its own schedule. Returns false, changing nothing, while
     * the job is in a comm phase (or is background traffic): a comm phase in progress is not moved.
     */
    public boolean retimeNextComm(final String jobId, final double at) {
        final JobState j = job(jobId);
        return started && clock.retimeNextComm(j, at, now);
    }

    /** When the job's pending comm phase starts (seconds), or NaN while it is in one or has none pending. */
    public double nextCommStart(final String jobId) {
        return clock.nextCommStart(job(jobId));
    }

    /**
     * The directed links that hold the job's slowest flows in flight now, each such flow's saturated bottleneck
     * ({@link RateAllocator#bottleneck}): what binds its comm phase at this instant (a lock-step ring runs at its
     * slowest flow's pace; the others are capped at it). Empty between comm phases, for flows held by their own demand,
     * and for a job with a flow that has no route (it stalls).
     */
    public int[] bindingLinks(final String jobId) {
        final JobState j = job(jobId);
        double slowest = Double.POSITIVE_INFINITY;
        for (final SimFlow f : flows) {
            if (f.job == j && !f.delivered) {
                slowest = Math.min(slowest, f.rate(allocator));
            }
        }
        final TreeSet<Integer> links = new TreeSet<>();
        for (final SimFlow f : flows) {
            if (f.job == j && !f.delivered && f.rate(allocator) <= slowest * (1 + 1e-9)) {
                for (final int id : f.ids) {
                    final int b = allocator.bottleneck(id);
                    if (b >= 0) {
                        links.add(b);
                    }
                }
            }
        }
        return links.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Forgets history before {@code t} (seconds): link states, iteration records and flow completions. For long runs. */
    public void forgetBefore(final double t) {
        timeline.forgetBefore(t);
        clock.forgetBefore(t);
        completions.forgetBefore(t);
    }

    /** A flow of no job: {@code bytes} from one NIC to another from {@code start} seconds, again every {@code repeat} if > 0. */
    public record ExplicitFlow(String id, PortRef source, PortRef destination, double bytes, double start, double repeat)
        implements Serializable {
    }

    /**
     * Adds an explicit flow: it starts at its start (not before now), runs as fast as the fabric lets it, hashed on its
     * two ends like any job flow, and leaves when its bytes are delivered ({@link #flowCompletions()}).
     */
    public void addFlow(final ExplicitFlow flow) {
        // a start already past begins now, and its repeats count from now
        final ExplicitFlow x = flow.start() >= now ? flow
            : new ExplicitFlow(flow.id(), flow.source(), flow.destination(), flow.bytes(), now, flow.repeat());
        schedule(x.start(), EventKind.FLOW_START, completions.addExplicit(x));
    }

    /** The explicit flows' completed runs, in completion order. */
    public List<FlowCompletion> flowCompletions() {
        return completions.flowCompletions();
    }

    /** Duration of the job's last completed comm phase (seconds), or NaN before the first one ends. */
    public double lastCommSeconds(final String jobId) {
        return job(jobId).lastCommSeconds;
    }

    /** Whether the simulation has run (its first {@link #runUntil}); jobs, faults and settings are fixed from then on. */
    public boolean started() {
        return started;
    }

    /** Advances simulated time to {@code until}, processing every event on the way. */
    public void runUntil(final double until) {
        if (!started) {
            start();
        }
        if (completions.coarse()) {
            runCoarsely(until);
            return;
        }
        while (true) {
            final double nextFlowEnd = completions.nextExact(now);
            final double nextEvent = events.nextTime();
            final double next = Math.min(Math.min(nextFlowEnd, nextEvent), until);
            completions.advance(now, next);
            now = Math.max(now, next);
            if (next >= until && nextEvent > until + EPS_SECONDS && nextFlowEnd > until + EPS_SECONDS) {
                return;
            }
            final List<SimFlow> done = completions.finishExactly();
            done.forEach(this::delivered);
            final boolean finished = !done.isEmpty();
            if (handleDueEvents() || finished) {
                solveAndRecord();
            }
        }
    }

    /** {@link #runUntil} with coarse completions: flows complete on their own, the fabric re-solves on the grid. */
    private void runCoarsely(final double until) {
        while (true) {
            final double nextCompletion = completions.nextDue();
            final double nextEvent = events.nextTime();
            final double nextSolve = completions.nextSolve();
            final double next = Math.min(Math.min(nextCompletion, nextEvent), Math.min(nextSolve, until));
            now = Math.max(now, next);
            if (next >= until && Math.min(Math.min(nextCompletion, nextEvent), nextSolve) > until + EPS_SECONDS) {
                return;
            }
            for (SimFlow f = completions.pollDue(now); f != null; f = completions.pollDue(now)) {
                complete(f);
            }
            final boolean onGrid = nextSolve <= now + EPS_SECONDS;
            if (handleDueEvents() || onGrid) {
                solveAndRecord();
            }
        }
    }

    /** Handles the events due now; whether there were any. */
    private boolean handleDueEvents() {
        boolean any = false;
        for (Event e = events.pollDue(now); e != null; e = events.pollDue(now)) {
            if (e.kind() == EventKind.LINK_REPORT && faults.reported(e.ref() / 2, e.ref() % 2 == 1)) {
                continue; // a report of the state the link is in (one arrived out of order): no solve
            }
            handle(e);
            any = true;
        }
        return any;
    }

    /**
     * Coarse completions: the flow's bytes are delivered now, between solves. It leaves the allocator and its links'
     * states at once (less its rate, its flow and its CNPs; queues and marks wait for the next solve), and its job's
     * comm phase ends if it was the last flow.
     */
    private void complete(final SimFlow f) {
        if (f.ids.length == 0) {
            return; // released since the solve (its job ended, it was re-routed)
        }
        recorder.lessFlow(f, now);
        completions.completeCoarsely(f, now);
        delivered(f);
    }

    private void start() {
        started = true;
        faults.scheduleAll(events);
        for (final JobState j : List.copyOf(clock.all())) {
            clock.scheduleFirstIteration(j, now);
        }
        applyConditions();
        solveAndRecord();
    }

    private void handle(final Event e) {
        switch (e.kind()) {
            case COMM_START -> startComm(clock.at(e.ref()));
            case BACKGROUND_TICK -> {
                final JobState j = clock.at(e.ref());
                addTransfers(j, j.job.transfers(), false);
                clock.redraw(j, now, e.ref());
            }
            case JOB_END -> finish(clock.at(e.ref()));
            case PIN -> table.applyPins(table.pendingAt(e.sequence()), flows);
            case LINK_REPORT -> {
                faults.report(e.ref() / 2, e.ref() % 2 == 1);
                applyConditions();
            }
            case FLOW_START -> {
                final ExplicitFlow x = completions.explicit(e.ref());
                final SimFlow f = new SimFlow(null, x.source(), x.destination(), x.bytes(), Double.POSITIVE_INFINITY, -1,
                    Router.flowKey(x.source(), x.destination(), 0), false, fabric.txLink(x.source()));
                f.explicit = e.ref();
                f.startedAt = now;
                table.route(f);
                flows.add(f);
                if (x.repeat() > 0) {
                    schedule(now + x.repeat(), EventKind.FLOW_START, e.ref());
                }
            }
            case FAULT_START -> {
                for (final SimFlow f : faults.start(e.ref(), events, now)) {
                    table.route(f);
                    flows.add(f);
                }
                applyConditions();
            }
            case FAULT_FLAP -> {
                if (faults.flap(e.ref(), events, now)) {
                    applyConditions();
                }
            }
            case FAULT_END -> {
                faults.end(e.ref());
                flows.removeIf(f -> {
                    if (f.rogueFault == e.ref()) {
                        f.release(allocator);
                        return true;
                    }
                    return false;
                });
                applyConditions();
            }
            default -> throw new IllegalStateException("unknown event " + e.kind());
        }
    }

    private void startComm(final JobState j) {
        clock.startComm(j, now);
        if (j.job.transfers().isEmpty() && j.job.classes().isEmpty()) {
            clock.endComm(j, now);
            return;
        }
        addTransfers(j, j.job.transfers(), j.job.spec().pattern().lockStep());
        addClasses(j);
    }

    /** A large all-to-all's flow classes: one weighted flow per class, over the bundles of its layers. */
    private void addClasses(final JobState j) {
        for (final FlowClass c : j.job.classes()) {
            final SimFlow f = new SimFlow(j, c.sources().get(0), c.destinations().get(0), c.bytes(),
                Double.POSITIVE_INFINITY, -1, Router.flowKey(c.sources().get(0), c.destinations().get(0), 0), false, -1);
            f.flowClass = c;
            table.route(f);
            flows.add(f);
            j.active++;
        }
    }

    private void addTransfers(final JobState j, final List<Transfer> transfers, final boolean lockStep) {
        for (final Transfer t : transfers) {
            // The hash sees what a switch sees (the two ends), never a label: renaming a job moves no flow.
            final SimFlow f = new SimFlow(j, t.source(), t.destination(), t.bytes(), Double.POSITIVE_INFINITY, -1,
                Router.flowKey(t.source(), t.destination(), 0), lockStep, fabric.txLink(t.source()));
            table.route(f);
            flows.add(f);
            j.active++;
        }
    }

    /** Recomputes conditions from the active faults, pushes capacities to the solver, re-routes if paths changed. */
    private void applyConditions() {
        final boolean reroute = faults.apply();
        pfc.pushCapacities();
        if (reroute) {
            table.forgetClassPaths();
            for (final SimFlow f : flows) {
                table.route(f);
            }
        }
    }

    private void solveAndRecord() {
        if (completions.coarse()) {
            completions.beforeSolve(now);
        }
        table.flatten(flows);
        pfc.pushNicShares();
        lockStep.solve();
        // What links are offered depends on the flows and the links' own capacities, not on pauses: once per solve.
        final double[] offered = pfc.offeredLoad();
        // PFC: overloaded egresses pause the links that feed them, which then carry less for everyone.
        for (int hop = 0; hop < PAUSE_HOPS; hop++) {
            if (!pfc.updatePauses(offered)) {
                break;
            }
            pfc.pushCapacities();
            pfc.pushNicShares();
            lockStep.solve();
        }
        recorder.record(offered, now);
        if (completions.coarse()) {
            completions.afterSolve(now);
        }
    }

    /** A flow's bytes are all delivered now: an explicit flow's run is recorded, a job's last flow ends its comm phase. */
    private void delivered(final SimFlow f) {
        completions.delivered(f, now);
        if (f.job != null && --f.job.active == 0 && f.job.inComm) {
            clock.endComm(f.job, now);
        }
    }

    private void schedule(final double time, final EventKind kind, final int ref) {
        events.schedule(time, kind, ref);
    }

    private JobState job(final String id) {
        return clock.job(id);
    }
}
