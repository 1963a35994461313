package dev.fabrictwin.analyzer.detect;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.LinkState;

/**
 * {@code ECMP_IMBALANCE}: a switch's uplinks (its ECMP group, members that are up) carry shares far from any
 * spread that hashing the twin's flows could give. The switch's hash is unknown (docs/twin.md), so the twin
 * predicts the spread statistically: it knows how many flows cross the group and how big each is, and a
 * Monte Carlo of {@value #TRIALS} uniform hash assignments gives how often the busiest member would carry at
 * least the observed share. Below {@value #P_VALUE} — over a window of {@value #WINDOW} ticks — the group is
 * imbalanced beyond bad luck (a polarized or skewed hash).
 */
public final class EcmpSpreadDetector implements Detector {

    static final int WINDOW = 5;
    static final int TRIALS = 2000;
    static final double P_VALUE = 1e-3;
    /** Ticks of the twin's flow snapshots kept: bursty jobs may cross the group in only some ticks. */
    static final int SNAPSHOTS = 20;

    private final Map<String, List<Rolling>> windows = new HashMap<>();
    /** Per group, whether a member's sample was missing at each of the window's ticks and the one before. */
    private final Map<String, java.util.ArrayDeque<Boolean>> lostTicks = new HashMap<>();
    /** The twin's flows over the group at each tick of the window: the busiest snapshot is the null model. */
    private final Map<String, java.util.ArrayDeque<double[]>> flowSnapshots = new HashMap<>();

    @Override
    public void detect(final TickContext context, final List<Finding> out) {
        for (final Node node : context.fabric().nodes()) {
            if (node.isHost()) {
                continue;
            }
            final List<Link> group = context.uplinks(node);
            boolean memberDown = false;
            boolean untrusted = false;
            int present = 0;
            for (final Link l : group) {
                final PortTick t = context.port(l.from(node.index()));
                memberDown |= t != null && TickContext.down(t);
                untrusted |= t != null && t.unreliable();
                present += t == null ? 0 : 1;
            }
            if (present == 0) {
                continue; // another shard's switch (or every member lost alike: their catch-ups arrive together)
            }
            final boolean missing = present < group.size();
            if (group.size() < 2 || memberDown) {
                windows.remove(node.name()); // the twin re-routes around a down member: start over
                flowSnapshots.remove(node.name());
                lostTicks.remove(node.name());
                continue;
            }
            if (untrusted) {
                // a reset, or averages over a long gap: this tick's bytes (a catch-up among them) are not worth
                // counting, and without its catch-up a member's lost ticks would read as an imbalance: start over
                windows.remove(node.name());
                lostTicks.remove(node.name());
                continue;
            }
            final List<Rolling> w = windows.computeIfAbsent(node.name(), n -> {
                final List<Rolling> list = new ArrayList<>();
                group.forEach(l -> list.add(new Rolling(context.ticks(WINDOW))));
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
            final java.util.ArrayDeque<Boolean> lost = lostTicks.computeIfAbsent(node.name(), n -> new java.util.ArrayDeque<>());
            lost.addLast(missing);
            if (lost.size() > context.ticks(WINDOW) + 1) {
                lost.removeFirst();
            }
            final boolean split = missing || lost.size() > context.ticks(WINDOW) && lost.peekFirst();
            final java.util.ArrayDeque<double[]> snapshots =
                flowSnapshots.computeIfAbsent(node.name(), n -> new java.util.ArrayDeque<>());
            snapshots.addLast(flowSnapshot(context, node, group));
            if (snapshots.size() > SNAPSHOTS) {
                snapshots.removeFirst();
            }
            if (!w.get(0).full() || total <= 0 || split) {
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
            final double[] busiestSnapshot = snapshots.stream()
                .max(java.util.Comparator.comparingDouble(EcmpSpreadDetector::rateOf)).orElse(new double[0]);
            final long flows = flowsOf(busiestSnapshot);
            if (flows < 2 || share <= 1.0 / group.size() + 0.1) {
                continue;
            }
            final double p = chanceOfShare(weights(busiestSnapshot), group.size(), share, node.name().hashCode());
            if (p < P_VALUE) {
                final Link member = group.get(busiestIndex);
                out.add(Finding.root(FaultType.ECMP_IMBALANCE, Entity.ecmpGroup(node.name()), "busiest_member_share",
                    share, 1.0 / group.size(), Severity.WARNING, String.format("%s's ECMP group is imbalanced: "
                        + "%s carries %.0f%% of its %d uplinks' traffic; hashing its %d flows would do that by chance "
                        + "with p < %.0e", node.name(), member.upper().device(), 100 * share, group.size(),
                        flows, Math.max(p, 1.0 / TRIALS))));
            }
        }
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
            java.util.Arrays.fill(weights, at, at + flows, flows == 0 ? 0 : snapshot[i + 1] / flows);
            at += flows;
        }
        return weights;
    }

    /**
     * Probability that hashing these flows uniformly onto {@code members} puts ≥ share on the busiest. Stops as soon
     * as the answer is sure to reach {@value #P_VALUE} (a balanced group gets there in a few trials) and returns
     * the hits so far over all trials: a lower bound that is already at least {@value #P_VALUE}.
     */
    static double chanceOfShare(final double[] weights, final int members, final double share, final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final double total = sum(weights);
        if (total <= 0) {
            return 1;
        }
        int hits = 0;
        final double[] load = new double[members];
        for (int trial = 0; trial < TRIALS; trial++) {
            java.util.Arrays.fill(load, 0);
            double max = 0;
            for (final double w : weights) {
                final int m = random.nextInt(members);
                load[m] += w;
                max = Math.max(max, load[m]);
            }
            if (max / total >= share - 1e-9 && ++hits >= P_VALUE * TRIALS) {
                break;
            }
        }
        return (double) hits / TRIALS;
    }

    private static double sum(final double[] values) {
        double s = 0;
        for (final double v : values) {
            s += v;
        }
        return s;
    }
}
