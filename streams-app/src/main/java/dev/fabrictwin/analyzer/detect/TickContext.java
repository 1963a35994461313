package dev.fabrictwin.analyzer.detect;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.ToDoubleFunction;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.analyzer.twin.ReplicaView;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.CongestionModel;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;

/** What a detector sees for one closed tick: the ports' observed-vs-twin values and the fabric around them. */
public final class TickContext {

    private final Tick tick;
    private final ReplicaView twin;
    private final AnalyzerConfig config;
    private final ToDoubleFunction<String> slowdowns;
    private final boolean calm;
    /** Devices an open alert names (its device, its link's other end); empty when calm. */
    private Set<String> covered = Set.of();
    /** The shard this analysis judges, and where it writes the pauses crossing its edge; null when unsharded. */
    private ShardView shards;
    private PfcBoundary.Builder pfcBoundary;

    public TickContext(final Tick tick, final ReplicaView twin, final AnalyzerConfig config,
                       final ToDoubleFunction<String> slowdowns) {
        this(tick, twin, config, slowdowns, true);
    }

    /** {@code calm}: no root-cause alert was open before this tick, so what detectors see is the healthy fabric. */
    public TickContext(final Tick tick, final ReplicaView twin, final AnalyzerConfig config,
                       final ToDoubleFunction<String> slowdowns, final boolean calm) {
        this.tick = tick;
        this.twin = twin;
        this.config = config;
        this.slowdowns = slowdowns;
        this.calm = calm;
    }

    /** This tick is one shard's: boundary devices' other ports are judged elsewhere ({@link ShardView}). */
    public TickContext sharded(final ShardView shard, final PfcBoundary.Builder boundary) {
        this.shards = shard;
        this.pfcBoundary = boundary;
        return this;
    }

    /** Whether the node has ports this shard does not see (never, unsharded). */
    boolean boundary(final int node) {
        return shards != null && shards.boundary(node);
    }

    /** Where the PFC detector records pauses crossing the shard's edge (only called when {@link #boundary} is true). */
    PfcBoundary.Builder pfcBoundary() {
        return pfcBoundary;
    }

    /** Whether no root-cause alert was open before this tick. */
    public boolean calm() {
        return calm;
    }

    /** The devices open alerts name (roots and victims): what they show now is not their healthy normal. */
    public TickContext covering(final Set<String> devices) {
        this.covered = devices;
        return this;
    }

    /**
     * Whether what this port shows is its own healthy normal, to learn from: no open alert names its device or the
     * device at its link's other end. A fault elsewhere does not stop a port learning (faults back to back would
     * starve it: a port that learned only the first minute judges every later traffic phase against it).
     */
    public boolean uncovered(final PortTick t) {
        if (calm) {
            return true;
        }
        return !covered.contains(t.port().device()) && !covered.contains(fabric().rxPort(t.index()).device());
    }

    /** Whether no open alert names this device (see {@link #uncovered(PortTick)}). */
    public boolean uncovered(final String device) {
        return calm || !covered.contains(device);
    }

    /**
     * A detector window given in ticks of 1-second telemetry, as ticks of this telemetry: the same wall span when
     * samples come faster (a 100 ms tick would otherwise judge a fraction of one comm phase), never fewer ticks
     * when they come slower.
     */
    public int ticks(final int ticksAtOneSecond) {
        return (int) Math.max(ticksAtOneSecond, Math.ceil(ticksAtOneSecond * 1000.0 / config.tickMs()));
    }

    /** How many times longer the job's comm phases run than the twin's (phase lock; 1 when unknown). */
    public double slowdown(final String job) {
        return slowdowns.applyAsDouble(job);
    }

    public Tick tick() {
        return tick;
    }

    /** The ports that reported in this tick, in port-index order. */
    public List<PortTick> ports() {
        return tick.ports();
    }

    /** A port's values in this tick, or null if it did not report (or the topology has no such port). */
    public PortTick port(final PortRef ref) {
        return tick.port(fabric().portIndex(ref));
    }

    /** The port of this {@code Fabric.portIndex} in this tick, or null if it did not report. */
    public PortTick port(final int index) {
        return tick.port(index);
    }

    /** The port at the other end of this port's link in this tick, or null if it did not report. */
    public PortTick peerOf(final PortTick t) {
        return tick.port(t.index() ^ 1);
    }

    public Fabric fabric() {
        return twin.fabric();
    }

    public ReplicaView twin() {
        return twin;
    }

    public AnalyzerConfig config() {
        return config;
    }

    /** Whether the port is a host's NIC. */
    public boolean isHost(final PortTick t) {
        return fabric().node(fabric().txNode(t.index())).isHost();
    }

    /** Links from a switch to the tier above: its ECMP group. */
    public List<Link> uplinks(final Node node) {
        final List<Link> out = new ArrayList<>();
        for (final int li : fabric().linksOf(node.index())) {
            final Link l = fabric().link(li);
            if (l.lowerNode() == node.index()) {
                out.add(l);
            }
        }
        return out;
    }

    /** Sum of per-priority PFC counters ({@code tx_pfc_pause} or {@code rx_pfc_pause}) observed on a port. */
    public static double pfc(final PortTick t, final String prefix, final boolean observed) {
        final int[] slots = CounterNames.TX_PFC_PAUSE.equals(prefix) ? CounterIndex.TX_PFC : CounterIndex.RX_PFC;
        double sum = 0;
        for (final int slot : slots) {
            sum += observed ? t.observed(slot) : t.expected(slot);
        }
        return sum;
    }

    /** Pause frames per second a port receiving/sending continuous pause would count: the unit for PFC rates. */
    public double pauseFramesPerSecond(final PortTick t) {
        return CongestionModel.pauseFramesPerSecond(capacityBps(t));
    }

    public double capacityBps(final PortTick t) {
        return fabric().link(t.index() / 2).capacityBps();
    }

    /** Whether a port reported itself down in this tick. */
    public static boolean down(final PortTick t) {
        return t.down();
    }
}
