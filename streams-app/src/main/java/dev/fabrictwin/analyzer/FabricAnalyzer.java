package dev.fabrictwin.analyzer;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.zip.CRC32;

import dev.fabrictwin.analyzer.alert.TickCorrelation;
import dev.fabrictwin.analyzer.checkpoint.LearnedPart;
import dev.fabrictwin.analyzer.checkpoint.LearnedState;
import dev.fabrictwin.analyzer.detect.Detector;
import dev.fabrictwin.analyzer.detect.Detectors;
import dev.fabrictwin.analyzer.detect.EvidenceSpans;
import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.analyzer.detect.PfcBoundary;
import dev.fabrictwin.analyzer.detect.TickContext;
import dev.fabrictwin.analyzer.job.JobHealthTracker;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.shard.ShardMap;
import dev.fabrictwin.analyzer.shard.ShardTick;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.analyzer.tick.TickAssembler;
import dev.fabrictwin.analyzer.twin.PathLearner;
import dev.fabrictwin.analyzer.twin.ReplicaSync;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortNames;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.CounterIndex;

/**
 * The analyzer's domain core, free of Kafka: port intervals in (any order across ports), alerts and job health
 * out. Each interval is compared with the twin replica over exactly its span and grouped into ticks; each
 * closed tick steers the replica with its link states, then runs the phase lock, every detector, the correlator, the
 * alert lifecycle and the path learner, and steers the replica with what the phase lock and the learner intend
 * ({@link ReplicaSync}). The Streams topology and {@code replay} both drive this one class.
 */
public final class FabricAnalyzer implements Serializable {

    /** What one step produced. */
    public record Output(List<Alert> alerts, List<JobHealth> jobHealth, List<Tick> ticks, List<ShardTick> shardTicks,
                         String unmatched) {
        static final Output EMPTY = new Output(List.of(), List.of(), List.of(), List.of(), null);

        /** An interval whose device/port names meet no topology port: not analyzed, for this reason. */
        static Output unmatched(final String reason) {
            return new Output(List.of(), List.of(), List.of(), List.of(), reason);
        }
    }

    private static final ReplicaSync.Pins NO_PINS = new ReplicaSync.Pins(List.of(), 0);

    private final TwinReplica twin;
    private final AnalyzerConfig config;
    private final TickAssembler ticks;
    private final List<Detector> detectors;
    private final JobHealthTracker jobs;
    private final TickCorrelation correlation;
    /** Sharded: the map and this analysis's shard; it then reports {@link ShardTick}s (its alerts are its own). */
    private final ShardMap shards;
    private final int shard;
    private final PathLearner paths;
    private final double[] expectedCounters = new double[CounterIndex.size()];
    private final double[] expectedGauges = new double[CounterIndex.size()];
    private final boolean[] present = new boolean[CounterIndex.size()];
    private long intervals;
    /** Per port index: the end of the latest interval taken (a port's intervals follow one another). */
    private final long[] lastEnd;
    private long duplicateIntervals;
    private double lastSolveMs;
    /** Time spent advancing and reading the replica, all told (ns), on {@link #twinClock}: how much of a shard's cost is the replica. */
    private transient long twinNanos;
    /**
     * The clock {@link #twinNanos} counts on: wall time (null), or one a caller sets ({@link #timeTwinWith}: the bench
     * takes the thread's CPU time, which a GC pause does not advance; on the wall clock, the pauses that fall in the
     * replica's calls count as its work).
     */
    private transient LongSupplier twinClock;

    public FabricAnalyzer(final TwinReplica twin, final AnalyzerConfig config) {
        this(twin, config, null, 0);
    }

    /**
     * The analysis of one shard of the fabric ({@link ShardMap}): it is given only its shard's ports, and each closed
     * tick is also reported as a {@link ShardTick} for the correlation stage. Its own alerts stand for "is anything
     * wrong in this shard", which is when its detectors stop learning the healthy fabric; the published ones are the
     * correlation stage's.
     */
    public FabricAnalyzer(final TwinReplica twin, final AnalyzerConfig config, final ShardMap shards, final int shard) {
        this.twin = twin;
        this.config = config;
        this.ticks = new TickAssembler(config.tickMs(), config.graceMs(), twin.fabric().directedLinkCount());
        this.detectors = Detectors.all();
        this.jobs = new JobHealthTracker(twin, config.calibration().jobs());
        this.correlation = new TickCorrelation(twin.fabric(), twin.jobs(), config.openAfterTicks(),
            config.updateEveryTicks(), config.resolveAfterTicks(), config.calibration().correlation());
        this.shards = shards;
        this.shard = shard;
        if (shards != null) {
            final boolean[] own = new boolean[twin.fabric().directedLinkCount()];
            for (int port = 0; port < own.length; port++) {
                own[port] = shards.ofPort(port) == shard;
            }
            twin.recordOnly(own); // its expectations are only asked for its own links
        }
        this.paths = new PathLearner(twin.fabric(), config.calibration().paths());
        this.lastEnd = new long[twin.fabric().directedLinkCount()];
        Arrays.fill(lastEnd, Long.MIN_VALUE);
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
        if (shards != null && shards.ofPort(port) != shard) {
            // another shard's port (routed here before the splitter knew the topology): that shard judges it
            return Output.EMPTY;
        }
        if (interval.t1() <= lastEnd[port]) {
            // a port's intervals follow one another: one ending no later than the last is a replay of it (an
            // upstream retry or restart delivering it again), and counting it twice would read as traffic, or loss
            duplicateIntervals++;
            return Output.EMPTY;
        }
        lastEnd[port] = interval.t1();
        intervals++;
        jobs.observe(interval);
        // the twin hears of the interval when its tick closes (link states, then expectations): the replica then
        // runs in tick order, and what it computes does not depend on the order the devices' telemetry came in
        final List<Tick> closed = ticks.add(interval, port);
        return closed.isEmpty() ? Output.EMPTY : analyze(closed);
    }

    /** The closing tick's link states steer the replica; then the twin's expectation for each port. */
    private void consultTwin(final Tick tick) {
        final long start = System.nanoTime();
        final long clockStart = twinClock == null ? start : twinClock.getAsLong();
        twin.steer(ReplicaSync.operStates(tick, twin));
        for (final PortTick t : tick.ports()) {
            t.expect((p, t0, t1, counters, gauges) -> twin.expectedInto(p, t0, t1, counters, gauges, present),
                expectedCounters, expectedGauges);
        }
        final long end = System.nanoTime();
        lastSolveMs = (end - start) / 1e6;
        twinNanos += twinClock == null ? end - start : twinClock.getAsLong() - clockStart;
    }

    /** End of input: closes the remaining ticks. Open alerts stay open (the capture ended, not the faults). */
    public Output flush() {
        return analyze(ticks.flush());
    }

    private Output analyze(final List<Tick> closed) {
        final List<Alert> alerts = new ArrayList<>();
        final List<JobHealth> health = new ArrayList<>();
        final List<ShardTick> shardTicks = new ArrayList<>();
        if (!closed.isEmpty() && !twin.started()) {
            final long epoch = epochOf(closed.get(0));
            twin.anchor(epoch); // builds the replica's run anew: what was taken back is pinned after it
            if (config.learnPaths()) {
                twin.steer(ReplicaSync.pins(paths.takenBack(twin, epoch)));
            }
        }
        for (final Tick tick : closed) {
            consultTwin(tick);
            final List<Finding> findings = new ArrayList<>();
            final JobHealthTracker.Judged judged = jobs.onTick(tick, findings);
            final List<JobHealth> jobHealth = judged.health();
            final boolean calm = correlation.openRoots().isEmpty();
            final TickContext context = new TickContext(tick, twin, config, jobs::slowdown, calm)
                .covering(calm ? Set.of() : coveredDevices());
            final PfcBoundary.Builder boundary = new PfcBoundary.Builder();
            if (shards != null) {
                context.sharded(shards, boundary);
            }
            for (final Detector d : detectors) {
                d.detect(context, findings);
            }
            EvidenceSpans.stamp(tick, twin.fabric(), findings);
            if (shards != null) {
                shardTicks.add(new ShardTick(shard, tick.index(), tick.startMs(), tick.endMs(), findings, jobHealth,
                    boundary.build()));
            }
            final TickCorrelation.Result result = correlation.onTick(tick.index(), tick.startMs(), tick.endMs(), findings,
                twin.jobs());
            alerts.addAll(result.alerts());
            final ReplicaSync.Pins pins = config.learnPaths()
                ? paths.onTick(tick, twin, correlation.openRoots().isEmpty(), context.ticks(config.calibration().paths().epochTicks()))
                : NO_PINS;
            health.addAll(TickCorrelation.explain(jobHealth, result.correlated()));
            // What the tick's judges intend steers the replica once they are done (none reads what another intends);
            // its history is then what intervals still arriving can span, no more (Memory, docs/analyzer.md).
            twin.steer(ReplicaSync.afterTick(judged.retimes(), pins, tick.startMs() - config.historyMs()));
        }
        return new Output(alerts, health, closed, shardTicks, null);
    }

    /**
     * The replica's time zero: the tick boundary at or before the earliest interval start of the first tick closed.
     * That tick holds every interval of its index (one arriving after it closed is late), so the epoch is the same
     * whichever interval came first.
     */
    private long epochOf(final Tick first) {
        long earliest = Long.MAX_VALUE;
        for (final PortTick t : first.ports()) {
            earliest = Math.min(earliest, t.t0());
        }
        return Math.floorDiv(earliest, config.tickMs()) * config.tickMs();
    }

    /** What the analysis has learned, for a checkpoint's section that an upgraded build takes back. */
    public LearnedState learned() {
        return LearnedState.of(fingerprint(twin.fabric()), learnedParts());
    }

    /**
     * Takes back what an analysis of the same fabric learned (an upgraded build's first start, whose exact state the
     * checkpoint could not give back), before this one has seen a tick; returns the parts that took theirs.
     */
    public List<String> relearn(final LearnedState state) {
        return state.restoreInto(fingerprint(twin.fabric()), learnedParts());
    }

    private List<LearnedPart> learnedParts() {
        final List<LearnedPart> parts = new ArrayList<>();
        for (final Detector d : detectors) {
            if (d instanceof LearnedPart p) {
                parts.add(p);
            }
        }
        parts.add(jobs);
        parts.add(jobs.phaseLocks());
        if (config.learnPaths()) {
            parts.add(paths);
        }
        return parts;
    }

    /** The fabric's id, ports in index order (what the learned parts' keys mean) and devices, as a CRC-32. */
    static long fingerprint(final Fabric fabric) {
        final CRC32 crc = new CRC32();
        crc.update((fabric.id() + '\n').getBytes(StandardCharsets.UTF_8));
        for (int d = 0; d < fabric.directedLinkCount(); d++) {
            final PortRef p = fabric.txPort(d);
            crc.update((p.device() + '/' + p.port() + '\n').getBytes(StandardCharsets.UTF_8));
        }
        for (final Node n : fabric.nodes()) {
            crc.update((n.name() + '\n').getBytes(StandardCharsets.UTF_8));
        }
        return (long) fabric.directedLinkCount() << 32 | crc.getValue();
    }

    /** The devices the open alerts name (a job's impact names none: its causes do). */
    private Set<String> coveredDevices() {
        final Set<String> devices = new HashSet<>();
        for (final Alert a : correlation.openAlerts()) {
            if (a.entity().device() != null) {
                devices.add(a.entity().device());
            }
            if (a.entity().peer() != null) {
                devices.add(a.entity().peer());
            }
        }
        return devices;
    }

    /** Takes back alerts that were open before a restart. */
    public void restore(final List<Alert> open) {
        correlation.restore(open);
    }

    public List<Alert> openAlerts() {
        return correlation.openAlerts();
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
    public Map<String, Long> clocksAhead() {
        return ticks.devicesAhead();
    }

    /** Time the twin took for the last tick closed (ms): link states, advancing the replica (solving inside) and expectations. */
    public double lastTwinMs() {
        return lastSolveMs;
    }

    /**
     * Time spent in the replica (advancing it and integrating expectations) since this instance was made or its clock
     * set, ns: wall time, or on the clock given to {@link #timeTwinWith}.
     */
    public long twinNanos() {
        return twinNanos;
    }

    /** Counts {@link #twinNanos} on this clock (ns) from now on, e.g. the thread's CPU time; not checkpointed. */
    public void timeTwinWith(final LongSupplier clock) {
        twinClock = clock;
        twinNanos = 0;
    }

    /** Flows the path learner moved so far (docs/analyzer.md, "Paths learned from counters"). */
    public long pathMoves() {
        return paths.moves();
    }

    public TwinReplica twin() {
        return twin;
    }
}
