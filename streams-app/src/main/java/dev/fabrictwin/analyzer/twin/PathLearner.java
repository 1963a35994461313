package dev.fabrictwin.analyzer.twin;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.checkpoint.LearnedPart;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.routing.Router;
import dev.fabrictwin.twin.sim.FluidSimulation;
import dev.fabrictwin.twin.workload.Pattern;
import dev.fabrictwin.twin.workload.PlacedJob;
import dev.fabrictwin.twin.workload.Transfer;

/**
 * Learns from the counters which equal-cost path each of the replica's job flows takes, and returns the pins that put
 * the replica's flows on it (a {@link ReplicaSync.Pins}, which the analysis applies; docs/analyzer.md, "Paths learned
 * from counters"). The switches' hashes are unknown, so the replica's own hash puts colliding flows on other uplinks
 * than the fabric does; its predictions of where flows collide — the judge of congestion, pauses and job slowdown —
 * are then wrong wherever ECMP matters.
 *
 * <p>Over an epoch of ticks it sums the bytes every directed link sent. Each flow's bytes come from its source NIC,
 * which carries them whatever path they take (shared among the NIC's flows in proportion to their bytes per
 * iteration): no timing of the twin enters. The paths are then fitted by least squares: a flow moves to another
 * first hop when that cuts the squared difference between what the switch-to-switch links sent and what the flows
 * on them account for, by more than a share of the flow's own size (so flows that are interchangeable — same
 * job, same two leaves — do not churn). Greedy moves, largest flows first, until none helps: each epoch
 * re-checks the previous answer, so a path that changes is followed.
 *
 * <p>It learns only from calm epochs: no link went down and no root-cause alert was open. A fault's traffic is a
 * departure from the healthy fabric, not a path to learn (a slowed link would otherwise lose its flows on paper).
 * State: one sum per directed link (bounded by the fabric); the pins live in the replica's router, one per flow, and
 * the latest one per flow here too: they are its learned part ({@code learned-paths}), which an upgraded analysis pins
 * into its fresh replica before it runs.
 */
public final class PathLearner implements Serializable, LearnedPart {

    /** A flow, by its two NICs (as the replica's hash and pins name it). */
    private record Flow(PortRef source, PortRef destination) implements Serializable {
    }

    private static final Comparator<PortRef> BY_NAME =
        Comparator.comparing(PortRef::device).thenComparing(PortRef::port);

    private final Fabric fabric;
    private final DetectionCalibration.Paths cal;
    private final double[] sent;
    private int ticks;
    private boolean disturbed;
    private long moves;
    /** The latest pin of every flow moved: what the replica's router holds for the job flows. */
    private final Map<Flow, FluidSimulation.Pin> pinned = new HashMap<>();
    /** Pins an earlier build learned, for the replica to take before it runs ({@link #takenBack}). */
    private final List<FluidSimulation.Pin> takenBack = new ArrayList<>();

    public PathLearner(final Fabric fabric, final DetectionCalibration.Paths calibration) {
        this.fabric = fabric;
        this.cal = calibration;
        this.sent = new double[fabric.directedLinkCount()];
    }

    /**
     * Adds a closed tick; at the end of an epoch of {@code epochTicks}, fits the paths and returns the replica's flows
     * to pin (none before the epoch ends). {@code calm}: no root-cause alert is open.
     */
    public ReplicaSync.Pins onTick(final Tick tick, final ReplicaView twin, final boolean calm, final int epochTicks) {
        disturbed |= !calm;
        for (final PortTick t : tick.ports()) {
            if (t.gauge(CounterNames.OPER_UP) == 0) {
                disturbed = true;
            }
            sent[t.index()] += t.observed(CounterIndex.TX_BYTES); // a port's index is the directed link it sends on
        }
        // the replica runs up to the grace and a few fast-clock ticks ahead of the tick that closes: the pins take
        // effect at a fixed instant past that, so a restarted or reordered analysis pins at the same moment
        final long pinAtMs = tick.endMs() + cal.pinDelayMs();
        if (++ticks < epochTicks) {
            return new ReplicaSync.Pins(List.of(), pinAtMs);
        }
        final ReplicaSync.Pins moved = new ReplicaSync.Pins(disturbed ? List.of() : fit(twin), pinAtMs);
        Arrays.fill(sent, 0);
        ticks = 0;
        disturbed = false;
        return moved;
    }

    /** Flows moved so far (the tests' and the docs' figures). */
    public long moves() {
        return moves;
    }

    private record Candidate(Transfer transfer, int node, int[] firstHops, int[][] inner, double bytes) {
    }

    /** The flows whose fitted first hop differs from the replica's, pinned to it. */
    private List<FluidSimulation.Pin> fit(final ReplicaView twin) {
        final List<Candidate> flows = candidates(twin);
        if (flows.isEmpty()) {
            return List.of();
        }
        final int[] choice = new int[flows.size()];
        final double[] residual = sent.clone();
        for (int i = 0; i < flows.size(); i++) {
            final Candidate c = flows.get(i);
            final int now = twin.firstHop(c.transfer().source(), c.transfer().destination());
            choice[i] = indexOf(c.firstHops(), now);
            for (final int d : c.inner()[choice[i]]) {
                residual[d] -= c.bytes();
            }
        }
        final int[] initial = choice.clone();
        for (int pass = 0; pass < cal.maxPasses(); pass++) {
            boolean any = false;
            for (int i = 0; i < flows.size(); i++) {
                any |= improve(flows.get(i), i, choice, residual, cal.minGain());
            }
            if (!any) {
                break;
            }
        }
        final List<FluidSimulation.Pin> pins = new ArrayList<>();
        for (int i = 0; i < flows.size(); i++) {
            if (choice[i] != initial[i]) {
                final Candidate c = flows.get(i);
                pins.add(new FluidSimulation.Pin(c.transfer().source(), c.transfer().destination(), c.node(),
                    c.firstHops()[choice[i]]));
            }
        }
        moves += pins.size();
        pins.forEach(p -> pinned.put(new Flow(p.source(), p.destination()), p));
        return pins;
    }

    @Override
    public String learnedName() {
        return "learned-paths";
    }

    @Override
    public int learnedVersion() {
        return 1;
    }

    /**
     * Every pinned flow by name, sorted: its source and destination NIC (device, port), then the port of its source
     * switch it is pinned to (device, port), whose link is the first hop; never an index a new topology reorders.
     */
    @Override
    public void writeLearned(final DataOutput out) throws IOException {
        final List<FluidSimulation.Pin> sorted = pinned();
        out.writeInt(sorted.size());
        for (final FluidSimulation.Pin p : sorted) {
            final Link link = fabric.link(p.link());
            for (final PortRef port : List.of(p.source(), p.destination(),
                link.lowerNode() == p.node() ? link.lower() : link.upper())) {
                out.writeUTF(port.device());
                out.writeUTF(port.port());
            }
        }
    }

    /** The latest pin of every flow moved (or read back), by source then destination NIC name. */
    public List<FluidSimulation.Pin> pinned() {
        final List<FluidSimulation.Pin> sorted = new ArrayList<>(pinned.values());
        sorted.sort(Comparator.comparing(FluidSimulation.Pin::source, BY_NAME)
            .thenComparing(FluidSimulation.Pin::destination, BY_NAME));
        return sorted;
    }

    /** A pin naming a port or switch this fabric does not have is dropped; the rest wait for {@link #takenBack}. */
    @Override
    public boolean readLearned(final DataInput in, final int version) throws IOException {
        if (version != 1) {
            return false;
        }
        for (int i = in.readInt(); i > 0; i--) {
            final PortRef source = new PortRef(in.readUTF(), in.readUTF());
            final PortRef destination = new PortRef(in.readUTF(), in.readUTF());
            final PortRef via = new PortRef(in.readUTF(), in.readUTF());
            final int viaIndex = fabric.portIndex(via);
            if (fabric.portIndex(source) < 0 || fabric.portIndex(destination) < 0 || viaIndex < 0) {
                continue;
            }
            final FluidSimulation.Pin pin = new FluidSimulation.Pin(source, destination,
                fabric.requireNode(via.device()).index(), viaIndex / 2);
            pinned.put(new Flow(source, destination), pin);
            takenBack.add(pin);
        }
        return true;
    }

    /**
     * What an earlier build learned, for the replica to pin before it runs, from its epoch {@code epochMs} on (as
     * {@link #onTick} pins, at the start of the run), once: a pin whose link is no longer one of its flow's first hops
     * at that switch is dropped.
     */
    public ReplicaSync.Pins takenBack(final ReplicaView twin, final long epochMs) {
        final List<FluidSimulation.Pin> valid = new ArrayList<>();
        for (final FluidSimulation.Pin p : takenBack) {
            final Router.Choices choices = twin.choices(p.source(), p.destination());
            if (choices.node() == p.node() && contains(choices.firstHops(), p.link())) {
                valid.add(p);
            } else {
                pinned.remove(new Flow(p.source(), p.destination()));
            }
        }
        takenBack.clear();
        return new ReplicaSync.Pins(valid, epochMs);
    }

    /** Moves flow {@code i} to the first hop that cuts the squared residual most, if it cuts it enough. */
    private static boolean improve(final Candidate c, final int i, final int[] choice, final double[] residual,
                                   final double minGain) {
        final double x = c.bytes();
        final int[] from = c.inner()[choice[i]];
        int best = -1;
        double bestGain = minGain * x * x;
        for (int a = 0; a < c.firstHops().length; a++) {
            if (a == choice[i]) {
                continue;
            }
            final int[] to = c.inner()[a];
            double gain = 0;
            for (final int d : from) {
                if (!contains(to, d)) {
                    gain += residual[d] * residual[d] - (residual[d] + x) * (residual[d] + x);
                }
            }
            for (final int d : to) {
                if (!contains(from, d)) {
                    gain += residual[d] * residual[d] - (residual[d] - x) * (residual[d] - x);
                }
            }
            if (gain > bestGain) {
                bestGain = gain;
                best = a;
            }
        }
        if (best < 0) {
            return false;
        }
        for (final int d : from) {
            residual[d] += x;
        }
        for (final int d : c.inner()[best]) {
            residual[d] -= x;
        }
        choice[i] = best;
        return true;
    }

    /**
     * The running jobs' flows that have a choice at their source switch, largest first, each with the bytes its NIC
     * sent for it this epoch. Background traffic is left out: its peers are drawn anew each period, so the
     * replica's draws are not the fabric's.
     */
    private List<Candidate> candidates(final ReplicaView twin) {
        final Map<PortRef, Double> perNic = new HashMap<>();
        final List<Transfer> transfers = new ArrayList<>();
        for (final PlacedJob job : twin.jobs()) {
            if (job.spec().pattern() == Pattern.BACKGROUND) {
                continue;
            }
            for (final Transfer t : job.transfers()) {
                perNic.merge(t.source(), t.bytes(), Double::sum);
                transfers.add(t);
            }
        }
        final List<Candidate> out = new ArrayList<>();
        for (final Transfer t : transfers) {
            // what its NIC sent first: a shard sees its own NICs' bytes only, and would otherwise walk (and its
            // router remember) the choices of every flow of the fabric
            final double bytes = sent[fabric.txLink(t.source())] * t.bytes() / perNic.get(t.source());
            if (bytes <= 0) {
                continue;
            }
            final Router.Choices choices = twin.choices(t.source(), t.destination());
            if (choices.firstHops().length < 2 || twin.firstHop(t.source(), t.destination()) < 0) {
                continue;
            }
            final int[][] inner = new int[choices.paths().length][];
            for (int a = 0; a < inner.length; a++) {
                final int[] path = choices.paths()[a];
                inner[a] = Arrays.copyOfRange(path, 1, path.length - 1); // the NIC links carry it on any path
            }
            out.add(new Candidate(t, choices.node(), choices.firstHops(), inner, bytes));
        }
        out.sort((a, b) -> Double.compare(b.bytes(), a.bytes()));
        return out;
    }

    private static int indexOf(final int[] values, final int value) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == value) {
                return i;
            }
        }
        return 0;
    }

    private static boolean contains(final int[] values, final int value) {
        for (final int v : values) {
            if (v == value) {
                return true;
            }
        }
        return false;
    }
}
