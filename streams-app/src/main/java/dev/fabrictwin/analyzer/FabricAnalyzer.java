package dev.fabrictwin.analyzer;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import dev.fabrictwin.analyzer.alert.AlertLifecycle;
import dev.fabrictwin.analyzer.alert.Correlated;
import dev.fabrictwin.analyzer.alert.Correlator;
import dev.fabrictwin.analyzer.detect.Detector;
import dev.fabrictwin.analyzer.detect.EcmpSpreadDetector;
import dev.fabrictwin.analyzer.detect.EcnMisconfigDetector;
import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.analyzer.detect.JobFootprint;
import dev.fabrictwin.analyzer.detect.LatencySloDetector;
import dev.fabrictwin.analyzer.detect.LinkConservationDetector;
import dev.fabrictwin.analyzer.detect.LinkDownDetector;
import dev.fabrictwin.analyzer.detect.LinkErrorDetector;
import dev.fabrictwin.analyzer.detect.PfcOriginDetector;
import dev.fabrictwin.analyzer.detect.StragglerDetector;
import dev.fabrictwin.analyzer.detect.TickContext;
import dev.fabrictwin.analyzer.detect.UnexpectedTrafficDetector;
import dev.fabrictwin.analyzer.job.JobHealthTracker;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.analyzer.tick.TickAssembler;
import dev.fabrictwin.analyzer.twin.PathLearner;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.twin.fabric.PortNames;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.workload.PlacedJob;

/**
 * The analyzer's domain core, free of Kafka: port intervals in (any order across ports), alerts and job health
 * out. Each interval is compared with the twin replica over exactly its span and grouped into ticks; each
 * closed tick runs the phase lock (which steers the twin), every detector, the correlator and the alert
 * lifecycle. The Streams topology and {@code replay} both drive this one class.
 */
public final class FabricAnalyzer implements Serializable {

    /** What one step produced. */
    public record Output(List<Alert> alerts, List<JobHealth> jobHealth, List<Tick> ticks, String unmatched) {
        static final Output EMPTY = new Output(List.of(), List.of(), List.of(), null);

        Output(final List<Alert> alerts, final List<JobHealth> jobHealth, final List<Tick> ticks) {
            this(alerts, jobHealth, ticks, null);
        }

        /** An interval whose device/port names meet no topology port: not analyzed, for this reason. */
        static Output unmatched(final String reason) {
            return new Output(List.of(), List.of(), List.of(), reason);
        }
    }

    private final TwinReplica twin;
    private final AnalyzerConfig config;
    private final TickAssembler ticks;
    private final List<Detector> detectors;
    private final JobHealthTracker jobs;
    private final Correlator correlator;
    private final AlertLifecycle lifecycle;
    private final PathLearner paths;
    private final double[] expectedCounters = new double[CounterIndex.size()];
    private final double[] expectedGauges = new double[CounterIndex.size()];
    private final boolean[] present = new boolean[CounterIndex.size()];
    private long intervals;
    /** Per port index: the end of the latest interval taken (a port's intervals follow one another). */
    private final long[] lastEnd;
    private long duplicateIntervals;
    private double lastSolveMs;
    private List<String> footprintJobs;

    public FabricAnalyzer(final TwinReplica twin, final AnalyzerConfig config) {
        this.twin = twin;
        this.config = config;
        this.ticks = new TickAssembler(config.tickMs(), config.graceMs(), twin.fabric().directedLinkCount());
        this.detectors = List.of(new LinkDownDetector(), new LinkErrorDetector(), new PfcOriginDetector(),
            new LinkConservationDetector(), new EcnMisconfigDetector(), new UnexpectedTrafficDetector(),
            new StragglerDetector(), new EcmpSpreadDetector(), new LatencySloDetector());
        this.jobs = new JobHealthTracker(twin);
        this.footprintJobs = twin.jobs().stream().map(PlacedJob::id).toList();
        this.correlator = new Correlator(twin.fabric(), new JobFootprint(twin.fabric(), twin.jobs()));
        this.lifecycle = new AlertLifecycle(config.openAfterTicks(), config.updateEveryTicks(), config.resolveAfterTicks());
        this.paths = new PathLearner(twin.fabric());
        this.lastEnd = new long[twin.fabric().directedLinkCount()];
        java.util.Arrays.fill(lastEnd, Long.MIN_VALUE);
    }

    /**
     * Takes one port interval; returns what the ticks it closed produced. Its names are first resolved to a
     * topology port (the document's {@code names}); one that meets none is returned as {@link Output#unmatched}
     * and changes nothing, so unknown devices neither disturb the analysis nor hold state.
     */
    public Output accept(final PortInterval named) {
        final PortNames.Resolution resolution = twin.resolve(named.device(), named.port());
        if (!resolution.matched()) {
            return Output.unmatched(resolution.reason());
        }
        final PortInterval interval = named.renamed(resolution.port().device(), resolution.port().port());
        final int port = twin.fabric().portIndex(resolution.port());
        if (interval.t1() <= lastEnd[port]) {
            // a port's intervals follow one another: one ending no later than the last is a replay of it (an
            // upstream retry or restart delivering it again), and counting it twice would read as traffic, or loss
            duplicateIntervals++;
            return Output.EMPTY;
        }
        lastEnd[port] = interval.t1();
        intervals++;
        twin.observe(interval, port);
        jobs.observe(interval);
        final long start = System.nanoTime();
        twin.expectedInto(interval, expectedCounters, expectedGauges, present);
        lastSolveMs = (System.nanoTime() - start) / 1e6;
        final List<Tick> closed = ticks.add(interval, port, expectedCounters, expectedGauges);
        return closed.isEmpty() ? Output.EMPTY : analyze(closed);
    }

    /** End of input: closes the remaining ticks. Open alerts stay open (the capture ended, not the faults). */
    public Output flush() {
        return analyze(ticks.flush());
    }

    private Output analyze(final List<Tick> closed) {
        final List<Alert> alerts = new ArrayList<>();
        final List<JobHealth> health = new ArrayList<>();
        for (final Tick tick : closed) {
            followJobs();
            final List<Finding> findings = new ArrayList<>();
            final List<JobHealth> jobHealth = jobs.onTick(tick, findings);
            final TickContext context = new TickContext(tick, twin, config, jobs::slowdown,
                lifecycle.openRoots().isEmpty());
            for (final Detector d : detectors) {
                d.detect(context, findings);
            }
            final List<Correlated> correlated = correlator.correlate(findings, lifecycle.openRoots());
            alerts.addAll(lifecycle.onTick(tick.index(), tick.startMs(), tick.endMs(), correlated));
            if (config.learnPaths()) {
                paths.onTick(tick, twin, lifecycle.openRoots().isEmpty(), context.ticks(PathLearner.EPOCH_TICKS));
            }
            for (final JobHealth h : jobHealth) {
                health.add(explain(h, correlated));
            }
            // Every tick: the replica's history is what intervals still arriving can span, no more (Memory, docs/analyzer.md).
            twin.forgetBefore(tick.startMs() - config.historyMs());
        }
        return new Output(alerts, health, closed);
    }

    /** Keeps the correlator's job footprints to the jobs the replica runs now. */
    private void followJobs() {
        final List<PlacedJob> running = twin.jobs();
        final List<String> ids = running.stream().map(PlacedJob::id).toList();
        if (!ids.equals(footprintJobs)) {
            correlator.jobsChanged(new JobFootprint(twin.fabric(), running));
            footprintJobs = ids;
        }
    }

    /** Names the root-cause alert (and its link) holding a slowed job back. */
    private static JobHealth explain(final JobHealth h, final List<Correlated> correlated) {
        for (final Correlated c : correlated) {
            if (c.finding().type() == FaultType.JOB_BOTTLENECK && h.job().equals(c.finding().entity().job())) {
                final String cause = c.rootCause() ? c.id() : c.causedBy();
                final String link = correlated.stream().filter(r -> r.id().equals(cause)).findFirst()
                    .map(r -> r.finding().entity().key()).orElse(null);
                return h.withCause(link, cause);
            }
        }
        return h;
    }

    /** Takes back alerts that were open before a restart. */
    public void restore(final List<Alert> open) {
        open.forEach(a -> lifecycle.restore(a, 0));
    }

    public List<Alert> openAlerts() {
        return lifecycle.openAlerts();
    }

    public long intervals() {
        return intervals;
    }

    /** Intervals dropped because their port had already delivered them (see {@link #accept}). */
    public long duplicateIntervals() {
        return duplicateIntervals;
    }

    public long lateIntervals() {
        return ticks.lateIntervals();
    }

    /** Devices whose clocks run ahead of the fabric's event time, and by how much (ms): reported, not waited for. */
    public java.util.Map<String, Long> clocksAhead() {
        return ticks.devicesAhead();
    }

    /** Time the last twin evaluation took (ms): solving happens inside as the replica advances. */
    public double lastTwinMs() {
        return lastSolveMs;
    }

    /** Flows the path learner moved so far (docs/analyzer.md, "Paths learned from counters"). */
    public long pathMoves() {
        return paths.moves();
    }

    public TwinReplica twin() {
        return twin;
    }
}
