package dev.fabrictwin.analyzer.shard;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.alert.TickCorrelation;
import dev.fabrictwin.analyzer.detect.CrossShard;
import dev.fabrictwin.analyzer.detect.Detector;
import dev.fabrictwin.analyzer.detect.Detectors;
import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.analyzer.detect.PfcBoundary;
import dev.fabrictwin.analyzer.twin.ReplicaView;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.twin.workload.PlacedJob;

/**
 * The second stage of a sharded analysis (docs/analyzer.md, "Sharding"): the shards' {@link ShardTick}s in, the
 * fabric's alerts and job health out. A tick is correlated once every shard has reported it (shards close ticks in
 * order, so a shard that reported a later one is past it), or once it is {@value #WAIT_TICKS} ticks behind the newest
 * any shard reported (a shard whose every device went silent must not hold the fabric's alerts back); a shard's tick
 * that comes after its tick was correlated joins the next one. Then, over the whole fabric:
 * <ul>
 * <li>the shards' findings, in shard order, are completed by every detector's {@link Detector#acrossShards} hook
 *     (the PFC pauses crossing shard edges walked on, unexplained traffic linked to its source);</li>
 * <li>the findings go through the one {@link TickCorrelation} (root vs victim across shards);</li>
 * <li>each job's health is the view of its home shard ({@link ShardMap#homeOf}), explained by the correlation.</li>
 * </ul>
 * Its state is a few ticks of findings and the open alerts: bounded by the fabric, never by time.
 */
public final class ShardedCorrelation implements Serializable {

    private static final long serialVersionUID = 1L;

    /**
     * A shard is waited for this many ticks of event time: while a backlog drains, shards run far apart in event time
     * (a 120-tick wait dropped a lagging shard's LINK_DOWN in the chaos test's backlog run). An hour of ticks is small
     * (a shard's tick without findings is a few hundred bytes); a shard whose devices all fell silent holds the alerts
     * back that long.
     */
    static final int WAIT_TICKS = 3_600;

    /** What one step published. */
    public record Output(List<Alert> alerts, List<JobHealth> jobHealth, int ticks) {
        static final Output NONE = new Output(List.of(), List.of(), 0);
    }

    private ReplicaView twin;
    private final ShardMap shards;
    private final TickCorrelation correlation;
    /** The detectors' numbers, for their cross-shard hooks. */
    private final DetectionCalibration calibration;
    /** Detectors of its own, for their cross-shard hooks only (which keep no state): made again after a restore. */
    private transient List<Detector> detectors;
    private final TreeMap<Long, ShardTick[]> pending = new TreeMap<>();
    /** Each shard's newest tick reported. */
    private final long[] reached;
    private long lastDone = Long.MIN_VALUE;
    private long lateTicks;
    private final Map<String, Integer> homes = new HashMap<>();

    /** {@code twin} gives the fabric and the jobs running at each tick (it is never advanced). */
    public ShardedCorrelation(final ReplicaView twin, final ShardMap shards, final AnalyzerConfig config) {
        this.twin = twin;
        this.shards = shards;
        this.correlation = new TickCorrelation(twin.fabric(), twin.jobs(), config.openAfterTicks(),
            config.updateEveryTicks(), config.resolveAfterTicks(), config.calibration().correlation());
        this.calibration = config.calibration();
        this.reached = new long[shards.shards()];
        Arrays.fill(reached, Long.MIN_VALUE);
    }

    /** Takes one shard's tick; returns what the ticks it completed published. */
    public Output accept(final ShardTick t) {
        if (t.shard() < 0 || t.shard() >= reached.length) {
            throw new IllegalArgumentException("shard " + t.shard() + " of a " + reached.length + "-shard analysis");
        }
        final long index = lastDone != Long.MIN_VALUE && t.index() <= lastDone ? lastDone + 1 : t.index();
        if (index != t.index()) {
            lateTicks++;
        }
        final ShardTick[] parts = pending.computeIfAbsent(index, i -> new ShardTick[reached.length]);
        parts[t.shard()] = parts[t.shard()] == null ? t : merged(parts[t.shard()], t);
        reached[t.shard()] = Math.max(reached[t.shard()], t.index());
        return drain(false);
    }

    /** End of input: correlates every tick still waiting. */
    public Output flush() {
        return drain(true);
    }

    /** Shard ticks that arrived after their tick was correlated (they joined the next). */
    long lateTicks() {
        return lateTicks;
    }

    public List<Alert> openAlerts() {
        return correlation.openAlerts();
    }

    public void restore(final List<Alert> open) {
        correlation.restore(open);
    }

    /**
     * The declared jobs changed: from now on the jobs running at each tick are those of {@code rebuilt} (the same
     * topology; its jobs from the new documents, their start and end as declared). Open alerts and the ticks waiting
     * are kept.
     */
    public void follow(final ReplicaView rebuilt) {
        if (rebuilt.fabric().directedLinkCount() != twin.fabric().directedLinkCount()) {
            throw new IllegalArgumentException("a correlation follows the jobs of its own fabric only");
        }
        twin = rebuilt;
        homes.clear();
    }

    private Output drain(final boolean all) {
        long slowest = Long.MAX_VALUE;
        long newest = Long.MIN_VALUE;
        for (final long r : reached) {
            slowest = Math.min(slowest, r);
            newest = Math.max(newest, r);
        }
        final List<Alert> alerts = new ArrayList<>();
        final List<JobHealth> health = new ArrayList<>();
        int ticks = 0;
        while (!pending.isEmpty()) {
            final long first = pending.firstKey();
            if (!all && slowest < first && newest - first <= WAIT_TICKS) {
                break;
            }
            correlate(first, pending.pollFirstEntry().getValue(), alerts, health);
            lastDone = first;
            ticks++;
        }
        return ticks == 0 ? Output.NONE : new Output(alerts, health, ticks);
    }

    private void correlate(final long index, final ShardTick[] parts, final List<Alert> alerts, final List<JobHealth> health) {
        long startMs = Long.MAX_VALUE;
        long endMs = Long.MIN_VALUE;
        for (final ShardTick p : parts) {
            if (p != null) {
                startMs = Math.min(startMs, p.startMs());
                endMs = Math.max(endMs, p.endMs());
            }
        }
        final List<PlacedJob> running = twin.jobsAt(endMs);
        homes.keySet().retainAll(running.stream().map(PlacedJob::id).toList());
        if (detectors == null) {
            detectors = Detectors.all();
        }
        final List<Finding> findings = findings(parts, job -> home(job, running), detectors, calibration);
        final TickCorrelation.Result result = correlation.onTick(index, startMs, endMs, findings, running);
        alerts.addAll(result.alerts());
        final List<JobHealth> home = new ArrayList<>();
        for (final ShardTick p : parts) {
            if (p != null) {
                p.jobHealth().stream().filter(h -> home(h.job(), running) == p.shard()).forEach(home::add);
            }
        }
        health.addAll(TickCorrelation.explain(home, result.correlated()));
    }

    /**
     * The findings of one tick over the whole fabric: every shard's, in shard order, then what each detector's
     * {@link Detector#acrossShards} hook makes of them and of what the shards saw at their edges. A finding about a
     * job (its slowdown) is its home shard's ({@code homeOf}): every shard holding some of its NICs judges it; and an
     * entity two shards both report on (a boundary device) is taken from the first only.
     */
    static List<Finding> findings(final ShardTick[] parts, final ToIntFunction<String> homeOf,
                                  final List<Detector> detectors, final DetectionCalibration calibration) {
        final List<Finding> findings = new ArrayList<>();
        final Map<String, Integer> reportedBy = new HashMap<>();
        final Map<Integer, PfcBoundary> pfc = new LinkedHashMap<>();
        for (final ShardTick p : parts) {
            if (p != null) {
                for (final Finding f : p.findings()) {
                    final boolean foreignJob = f.entity().kind() == Entity.Kind.JOB && homeOf.applyAsInt(f.entity().job()) != p.shard();
                    if (!foreignJob && claim(reportedBy, p.shard(), f)) {
                        findings.add(f);
                    }
                }
                pfc.put(p.shard(), p.pfc());
            }
        }
        final CrossShard tick = new CrossShard() {
            @Override
            public Map<Integer, PfcBoundary> pfc() {
                return pfc;
            }

            @Override
            public boolean claim(final int shard, final Finding f) {
                return ShardedCorrelation.claim(reportedBy, shard, f);
            }

            @Override
            public DetectionCalibration calibration() {
                return calibration;
            }
        };
        for (final Detector d : detectors) {
            d.acrossShards(tick, findings);
        }
        return findings;
    }

    /** Whether {@code shard} reports {@code f}: no other shard reported its type on its entity first. */
    private static boolean claim(final Map<String, Integer> reportedBy, final int shard, final Finding f) {
        return reportedBy.computeIfAbsent(Alert.id(f.type(), f.entity()), id -> shard) == shard;
    }

    private int home(final String job, final List<PlacedJob> running) {
        final Integer known = homes.get(job);
        if (known != null) {
            return known;
        }
        for (final PlacedJob j : running) {
            if (j.id().equals(job)) {
                final int home = shards.homeOf(twin.fabric(), j);
                homes.put(job, home);
                return home;
            }
        }
        return -1; // a job the declared documents do not (yet) have: no shard speaks for it
    }

    private static ShardTick merged(final ShardTick a, final ShardTick b) {
        final List<Finding> findings = new ArrayList<>(a.findings());
        findings.addAll(b.findings());
        final List<JobHealth> health = new ArrayList<>(a.jobHealth());
        health.addAll(b.jobHealth());
        final List<PfcBoundary.Entry> entries = new ArrayList<>(a.pfc().entries());
        entries.addAll(b.pfc().entries());
        final List<PfcBoundary.Exit> exits = new ArrayList<>(a.pfc().exits());
        exits.addAll(b.pfc().exits());
        return new ShardTick(a.shard(), a.index(), Math.min(a.startMs(), b.startMs()), Math.max(a.endMs(), b.endMs()),
            findings, health, new PfcBoundary(entries, exits));
    }
}
