package dev.fabrictwin.analyzer.detect;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.checkpoint.LearnedPart;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.model.LinkState;

/**
 * {@code ECMP_IMBALANCE}: a switch's uplinks (its ECMP group, members that are up) carry shares far from any spread
 * that hashing the twin's flows could give. The switch's hash is unknown (docs/twin.md), so the twin predicts the
 * spread statistically: it knows how many flows cross the group and how big each is, and the chance that uniform
 * hashing puts at least the observed share on the busiest member — over a window of
 * {@link DetectionCalibration.Ecmp#windowTicks} ticks — is bounded (Bernstein's inequality, union over members) or,
 * where the bound is too loose (few flows), counted by a Monte Carlo of uniform hash assignments whose p-value is
 * {@code (hits + 1) / (trials + 1)}, valid however few trials. The group is imbalanced beyond bad luck (a polarized or
 * skewed hash) when that chance is below {@link DetectionCalibration.Ecmp#pValue} divided by the fabric's ECMP groups
 * (Bonferroni): a run's hash is fixed, so a group that is unlucky by chance stays so for the whole run, and every group
 * of a large fabric is one more draw of that luck. A test the trial budget cannot resolve at that level falls back to
 * the bound alone: a miss, never a false alert. A group whose busiest member rose above every share it carried in its
 * calm past ({@link CalmShares}: the last {@link DetectionCalibration.Ecmp#calmWindows} windows not found imbalanced)
 * and also backed up beyond the twin in the tick (its queue or buffer peak, {@link PfcOriginDetector#backedUp}) is
 * judged at {@link DetectionCalibration.Ecmp#congestedPValue} over the groups: an imbalance that appears and congests
 * has two pieces of evidence (16 equal flows, 11 on one of four members, is 1 in 900 by chance: not called on its own
 * in a fabric of 8 groups, called when that member's share jumps and it queues). The queueing alone is no second piece:
 * a member that hashing gave 10 of 16 flows from the first tick queues beyond a twin that spreads evenly as surely as a
 * skewed one does; it differs from a fault only in having always been so. A move needs no chance at all: when the
 * busiest member carries more than in any calm window kept, every one of which saw the same number of the twin's flows
 * cross the group, for a whole window of ticks, the hash moved the same flows (a world whose hash put everything on one
 * uplink is normal there; everything moving to another is not, a capture from another simulator showed), and no chance
 * of hashing explains it — however few the flows. A bundle of parallel links from a switch down to one switch below
 * (a spine's links to one leaf) is a group of its own, judged the same way and named by its switch: a real Clos's
 * spine whose changed hash moved its links to one leaf from 1.6/4/17.8/1.6 to 9.9/4.6/4.6/5.4 Gb/s showed nothing on
 * any uplink.
 */
final class EcmpSpreadDetector implements Detector, LearnedPart {

    private final Map<String, List<Rolling>> windows = new HashMap<>();
    /** The fabric's groups ({@link #groups}) and the fabric they were found in. */
    private transient List<Group> groupList;
    private transient Object groupsOf;
    /** The fabric's ECMP groups with two or more members ({@link #groups}): the tests' family, counted at the first tick. */
    private int groups;
    /** Groups found imbalanced at their last judgement. */
    private final Set<String> imbalanced = new HashSet<>();
    /** Per group, whether a member's sample was missing at each of the window's ticks and the one before. */
    private final Map<String, ArrayDeque<Boolean>> lostTicks = new HashMap<>();
    /** Per group, the window's ticks in which a member sent or received PFC pauses. */
    private final Map<String, ArrayDeque<Boolean>> pausedTicks = new HashMap<>();
    /** The twin's flows over the group at each tick of the window: the busiest snapshot is the null model. */
    private final Map<String, ArrayDeque<double[]>> flowSnapshots = new HashMap<>();
    /** Per group, its members' shares while nothing was found: the group's own normal. */
    private final Map<String, CalmShares> calm = new HashMap<>();
    /** Per group, consecutive judged ticks its busiest member carried more than it ever did calm with the same flows. */
    private final Map<String, Integer> moved = new HashMap<>();

    @Override
    public String learnedName() {
        return "ecmp-calm-shares";
    }

    @Override
    public int learnedVersion() {
        return 1;
    }

    /** Each group's calm shares (its hash's normal), by switch name, in name order. */
    @Override
    public void writeLearned(final DataOutput out) throws IOException {
        final TreeMap<String, CalmShares> sorted = new TreeMap<>(calm);
        out.writeInt(sorted.size());
        for (final Map.Entry<String, CalmShares> e : sorted.entrySet()) {
            out.writeUTF(e.getKey());
            e.getValue().write(out);
        }
    }

    @Override
    public boolean readLearned(final DataInput in, final int version) throws IOException {
        if (version != 1) {
            return false;
        }
        final int groups = in.readInt();
        for (int i = 0; i < groups; i++) {
            final String node = in.readUTF();
            calm.put(node, CalmShares.read(in));
        }
        return true;
    }

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        final DetectionCalibration.Ecmp cal = context.config().calibration().ecmp();
        final List<Judged> judged = new ArrayList<>();
        for (final Group g : groups(context)) {
            final Node node = g.node();
            final List<Link> group = g.members();
            final String key = g.key();
            boolean memberDown = false;
            boolean untrusted = false;
            boolean paused = false;
            int present = 0;
            for (final Link l : group) {
                final PortTick t = context.port(l.from(node.index()));
                memberDown |= t != null && TickContext.down(t);
                untrusted |= t != null && t.unreliable();
                paused |= t != null && pausing(t);
                present += t == null ? 0 : 1;
            }
            if (present == 0) {
                continue; // another shard's switch (or every member lost alike: their catch-ups arrive together)
            }
            final boolean missing = present < group.size();
            if (group.size() < 2 || memberDown) {
                windows.remove(key); // the twin re-routes around a down member: start over
                imbalanced.remove(key);
                flowSnapshots.remove(key);
                lostTicks.remove(key);
                pausedTicks.remove(key);
                calm.remove(key); // and the hash spreads over other members when it is back
                moved.remove(key);
                continue;
            }
            if (untrusted) {
                // a reset, or averages over a long gap: this tick's bytes (a catch-up among them) are not worth
                // counting, and without its catch-up a member's lost ticks would read as an imbalance: start over
                windows.remove(key);
                lostTicks.remove(key);
                continue;
            }
            final List<Rolling> w = windows.computeIfAbsent(key, n -> {
                final List<Rolling> list = new ArrayList<>();
                group.forEach(l -> list.add(new Rolling(context.ticks(cal.windowTicks()))));
                return list;
            });
            double total = 0;
            for (int i = 0; i < group.size(); i++) {
                final PortTick t = context.port(group.get(i).from(node.index()));
                final double bytes = t == null ? 0 : t.observed(CounterIndex.TX_BYTES);
                w.get(i).add(bytes);
                total += bytes;
            }
            // A lost sample's bytes arrive with the member's next one, so every member counts every tick and a window
            // is judged only when it holds a lost tick together with its catch-up: not while the newest tick lost one,
            // nor when the tick that just left the window did (skipping the lost tick for everyone instead left the
            // catch-up alone in the window: one member a whole burst ahead, a false imbalance on bursty jobs).
            final ArrayDeque<Boolean> lost = lostTicks.computeIfAbsent(key, n -> new ArrayDeque<>());
            lost.addLast(missing);
            if (lost.size() > context.ticks(cal.windowTicks()) + 1) {
                lost.removeFirst();
            }
            final boolean split = missing || lost.size() > context.ticks(cal.windowTicks()) && lost.peekFirst();
            // pauses on a member, either way, mean flow control (a storm, a stalled job) and not the hash set the
            // window's shares (captures from another simulator: a storm stalled a leaf's uplinks to 0 bytes)
            final ArrayDeque<Boolean> pauses = pausedTicks.computeIfAbsent(key, n -> new ArrayDeque<>());
            pauses.addLast(paused);
            if (pauses.size() > context.ticks(cal.windowTicks())) {
                pauses.removeFirst();
            }
            final ArrayDeque<double[]> snapshots =
                flowSnapshots.computeIfAbsent(key, n -> new ArrayDeque<>());
            snapshots.addLast(flowSnapshot(context, node, group));
            if (snapshots.size() > cal.snapshotTicks()) {
                snapshots.removeFirst();
            }
            if (!w.get(0).full() || total <= 0 || split || pauses.contains(Boolean.TRUE)) {
                continue;
            }
            double windowTotal = 0;
            double busiest = 0;
            int busiestIndex = 0;
            for (int i = 0; i < w.size(); i++) {
                windowTotal += w.get(i).sum();
                if (w.get(i).sum() > busiest) {
                    busiest = w.get(i).sum();
                    busiestIndex = i;
                }
            }
            final double share = busiest / windowTotal;
            final double[] shares = new double[w.size()];
            for (int i = 0; i < w.size(); i++) {
                shares[i] = w.get(i).sum() / windowTotal;
            }
            final CalmShares past =
                calm.computeIfAbsent(key, n -> new CalmShares(group.size(), context.ticks(cal.windowTicks()), cal));
            final boolean departed = departs(past, busiestIndex, share, cal);
            final double[] busiestSnapshot = snapshots.stream()
                .max(Comparator.comparingDouble(EcmpSpreadDetector::rateOf)).orElse(new double[0]);
            final PortTick busiestPort = context.port(group.get(busiestIndex).from(node.index()));
            judged.add(new Judged(g, group.get(busiestIndex), group.size(), share, busiestSnapshot,
                departed && busiestPort != null && PfcOriginDetector.backedUp(context, busiestPort),
                departed ? past.highest(busiestIndex) : Double.NaN, shares, windowTotal));
        }
        if (groups == 0) {
            groups = (int) groups(context).stream().filter(g -> g.members().size() >= 2).count();
        }
        // the family is every group of the fabric (the same in every shard of a sharded analysis)
        final double alpha = cal.pValue() / Math.max(1, groups);
        // one finding per switch: its uplinks' group or any of its bundles to one switch below, the largest share
        final Map<String, Finding> found = new TreeMap<>();
        for (final Judged j : judged) {
            final long flows = flowsOf(j.snapshot());
            final CalmShares past = calm.get(j.group().key());
            // the hash moved: the same twin flows as in every calm window kept, and the busiest member carrying more
            // than it ever did then, for a whole window of ticks. A run's hash is fixed, so this is no bad luck to
            // weigh (a world whose hash put everything on one uplink is normal there; everything moving to another is
            // not), and no job's new flows hashed elsewhere (their count would differ)
            // (while no open alert names its switch — a fault elsewhere must not blind every group of a large fabric —
            // and a group already found stays found while it holds: its own alert names its switch)
            final boolean sameFlows = (context.uncovered(j.group().node().name()) || imbalanced.contains(j.group().key()))
                && !Double.isNaN(j.calmHighest()) && past.sameFlowsThroughout(flows) && past.usualTraffic(j.bytes())
                && movedLoad(j, context) >= cal.movedLoad() * j.busiest().capacityBps();
            final int movedTicks = sameFlows ? moved.merge(j.group().key(), 1, Integer::sum) : 0;
            if (!sameFlows) {
                moved.remove(j.group().key());
            }
            if (movedTicks >= context.ticks(cal.windowTicks())) {
                imbalanced.add(j.group().key());
                past.forgetPending();
                found.merge(j.group().node().name(), Finding.root(FaultType.ECMP_IMBALANCE,
                    Entity.ecmpGroup(j.group().node().name()), "busiest_member_share", j.share(), j.calmHighest(),
                    Severity.WARNING, String.format("%s moved its traffic: %s carries %.0f%% of its %d %s' traffic, at "
                        + "most %.0f%% while the same %d flows crossed it before, for %d ticks: the hash changed, not "
                        + "the flows", j.group().described(), j.group().member(j.busiest()), 100 * j.share(), j.members(),
                        j.group().membersAre(), 100 * j.calmHighest(), flows, movedTicks)), EcmpSpreadDetector::larger);
                continue;
            }
            if (flows < 2 || j.share() <= 1.0 / j.members() + 0.1) {
                imbalanced.remove(j.group().key());
                if (movedTicks == 0) {
                    past.add(j.shares(), flows, j.bytes());
                }
                continue;
            }
            // a busiest member that rose above its calm past and backs up beyond the twin is a change with evidence of
            // its own: the share then needs less luck to rule out
            final double opening = j.roseAndQueued() ? cal.congestedPValue() / Math.max(1, groups) : alpha;
            // a group found imbalanced stays so while its chance stays under ten times the level that found it: a
            // share hovering at the level is one imbalance, not one alert each time it crosses
            final double level = imbalanced.contains(j.group().key()) ? Math.min(0.5, cal.hold() * opening) : opening;
            final double p = chanceOfShare(weights(j.snapshot()), j.members(), j.share(), j.group().key().hashCode(), level,
                cal);
            if (p >= level) {
                imbalanced.remove(j.group().key());
                if (movedTicks == 0) {
                    past.add(j.shares(), flows, j.bytes());
                }
            } else {
                imbalanced.add(j.group().key());
                calm.get(j.group().key()).forgetPending();
                final String change = j.roseAndQueued()
                    ? String.format(" (at most %.0f%% before) and queues beyond the twin", 100 * j.calmHighest()) : "";
                found.merge(j.group().node().name(), Finding.root(FaultType.ECMP_IMBALANCE,
                    Entity.ecmpGroup(j.group().node().name()), "busiest_member_share", j.share(), 1.0 / j.members(),
                    Severity.WARNING, String.format("%s is imbalanced: %s carries %.0f%% of its %d %s' traffic%s; "
                        + "hashing its %d flows would do that by chance with p < %.0e (%d groups tested)",
                        j.group().described(), j.group().member(j.busiest()), 100 * j.share(), j.members(),
                        j.group().membersAre(), change, flows, Math.max(p, 1e-12), groups)), EcmpSpreadDetector::larger);
            }
        }
        out.addAll(found.values());
    }

    /** The port sent or received PFC pauses in the tick. */
    static boolean pausing(final PortTick t) {
        return TickContext.pfc(t, CounterNames.TX_PFC_PAUSE, true) > 0 || TickContext.pfc(t, CounterNames.RX_PFC_PAUSE, true) > 0;
    }

    /**
     * A group whose window is judged this tick: its busiest member's share, the twin's busiest flow snapshot, whether
     * that member rose above its calm past and backed up beyond the twin, and every member's share.
     */
    private record Judged(Group group, Link busiest, int members, double share, double[] snapshot, boolean roseAndQueued,
                          double calmHighest, double[] shares, double bytes) {
    }

    /**
     * The fabric's ECMP groups, rebuilt when the fabric changes: each switch's uplinks (its hash spreads over every
     * switch above it), and each bundle of two or more parallel links from a switch down to one switch below (its hash
     * spreads what goes to that switch over them: a spine's links to one leaf). A host's NICs are no group: each
     * carries its own flows.
     */
    private List<Group> groups(final TickContext context) {
        if (context.fabric() != groupsOf) {
            final List<Group> out = new ArrayList<>();
            for (final Node node : context.fabric().nodes()) {
                if (node.isHost()) {
                    continue;
                }
                out.add(new Group(node.name(), node, context.uplinks(node), null));
                final Map<Integer, List<Link>> below = new TreeMap<>();
                for (final int li : context.fabric().linksOf(node.index())) {
                    final Link l = context.fabric().link(li);
                    final Node other = context.fabric().node(l.other(node.index()));
                    if (l.upperNode() == node.index() && !other.isHost()) {
                        below.computeIfAbsent(other.index(), o -> new ArrayList<>()).add(l);
                    }
                }
                below.forEach((other, links) -> {
                    if (links.size() >= 2) {
                        final String toward = context.fabric().node(other).name();
                        out.add(new Group(node.name() + ">" + toward, node, List.copyOf(links), toward));
                    }
                });
            }
            groupList = List.copyOf(out);
            groupsOf = context.fabric();
        }
        return groupList;
    }

    /**
     * An ECMP group: {@code key} names its state (the switch's name for its uplinks, so what they learned keeps its
     * name), {@code toward} the switch below a bundle leads to (null for uplinks).
     */
    private record Group(String key, Node node, List<Link> members, String toward) {

        String described() {
            return toward == null ? node.name() + "'s ECMP group" : node.name() + "'s links to " + toward;
        }

        String membersAre() {
            return toward == null ? "uplinks" : "links";
        }

        /** What names a member: the switch above for uplinks, the switch's own port for a bundle. */
        String member(final Link link) {
            return toward == null ? link.upper().device() : link.portOf(node.index()).port();
        }
    }

    /** What the busiest member carries beyond its calm highest share of the window's traffic, in bits per second. */
    private static double movedLoad(final Judged j, final TickContext context) {
        final double seconds = context.ticks(context.config().calibration().ecmp().windowTicks())
            * context.config().tickMs() / 1000.0;
        return (j.share() - j.calmHighest()) * j.bytes() * 8 / seconds;
    }

    private static Finding larger(final Finding a, final Finding b) {
        return a.observed() >= b.observed() ? a : b;
    }

    /**
     * The twin's flows over each member in its busiest moment of the tick, {@code [flows, rate]} per member: two numbers
     * a member, not one a flow (a rail leaf of the 32k scenario carries 129,824 all-to-all members every tick).
     */
    private static double[] flowSnapshot(final TickContext context, final Node node, final List<Link> group) {
        final double[] snapshot = new double[2 * group.size()];
        for (int i = 0; i < group.size(); i++) {
            final LinkState s = context.twin().busiestState(group.get(i).from(node.index()),
                context.tick().startMs(), context.tick().endMs());
            snapshot[2 * i] = s.flows();
            snapshot[2 * i + 1] = s.rateBps();
        }
        return snapshot;
    }

    private static double rateOf(final double[] snapshot) {
        double rate = 0;
        for (int i = 1; i < snapshot.length; i += 2) {
            rate += snapshot[i];
        }
        return rate;
    }

    private static long flowsOf(final double[] snapshot) {
        long flows = 0;
        for (int i = 0; i < snapshot.length; i += 2) {
            flows += (long) snapshot[i];
        }
        return flows;
    }

    /** One weight per flow, each member's rate shared evenly among its flows: only when a share is judged. */
    private static double[] weights(final double[] snapshot) {
        final double[] weights = new double[Math.toIntExact(flowsOf(snapshot))];
        int at = 0;
        for (int i = 0; i < snapshot.length; i += 2) {
            final int flows = (int) snapshot[i];
            Arrays.fill(weights, at, at + flows, flows == 0 ? 0 : snapshot[i + 1] / flows);
            at += flows;
        }
        return weights;
    }

    /**
     * A member above every share it carried in the group's calm past by the calibration's departure (a bursty job's
     * windows vary), once the group has a past.
     */
    static boolean departs(final CalmShares past, final int member, final double share,
                           final DetectionCalibration.Ecmp cal) {
        return past.learned() && share > past.highest(member) + cal.departure();
    }

    /**
     * As {@link #chanceOfShare(double[], int, double, long, double, DetectionCalibration.Ecmp)} at the level of one
     * group judged alone.
     */
    static double chanceOfShare(final double[] weights, final int members, final double share, final long seed,
                                final DetectionCalibration.Ecmp cal) {
        return chanceOfShare(weights, members, share, seed, cal.pValue(), cal);
    }

    /**
     * An upper bound on the probability that hashing these flows uniformly onto {@code members} puts ≥ share on the
     * busiest, exact enough to compare with {@code alpha}: Bernstein's bound when it is already below {@code alpha},
     * else a Monte Carlo p-value {@code (hits + 1) / (trials + 1)} that stops as soon as it is sure to reach
     * {@code alpha} (a balanced group gets there in a few trials). When the trial budget cannot reach below
     * {@code alpha}, the bound is returned: the test stays valid, only its power is lost.
     */
    static double chanceOfShare(final double[] weights, final int members, final double share, final long seed,
                                final double alpha, final DetectionCalibration.Ecmp cal) {
        final double total = sum(weights);
        if (total <= 0) {
            return 1;
        }
        final double bound = bernstein(weights, members, share * total - total / members);
        if (bound < alpha) {
            return bound;
        }
        // enough trials that a chance near alpha is counted, not guessed (50 hits expected at alpha)
        final int trials = (int) Math.min(Math.min(cal.maxTrials(), Math.max(2_000, Math.ceil(50 / alpha))),
            cal.maxDraws() / Math.max(1, weights.length));
        if (1.0 / (trials + 1) >= alpha) {
            return bound;
        }
        final SplittableRandom random = new SplittableRandom(seed);
        int hits = 0;
        final double[] load = new double[members];
        for (int trial = 0; trial < trials; trial++) {
            Arrays.fill(load, 0);
            double max = 0;
            for (final double w : weights) {
                final int m = random.nextInt(members);
                load[m] += w;
                max = Math.max(max, load[m]);
            }
            if (max / total >= share - 1e-9 && (++hits + 1.0) / (trials + 1) >= alpha) {
                break;
            }
        }
        return Math.min(bound, (hits + 1.0) / (trials + 1));
    }

    /**
     * P(some member's load exceeds its mean by {@code excess}) ≤ members · exp(−t² / (2(σ² + b·t/3))): a member's
     * load is a sum of independent terms w·Bernoulli(1/members), of variance σ² and each at most b above its mean.
     */
    static double bernstein(final double[] weights, final int members, final double excess) {
        if (excess <= 0) {
            return 1;
        }
        final double q = 1.0 / members;
        double variance = 0;
        double largest = 0;
        for (final double w : weights) {
            variance += w * w * q * (1 - q);
            largest = Math.max(largest, w * (1 - q));
        }
        return Math.min(1, members * Math.exp(-excess * excess / (2 * (variance + largest * excess / 3))));
    }

    private static double sum(final double[] values) {
        double s = 0;
        for (final double v : values) {
            s += v;
        }
        return s;
    }
}
