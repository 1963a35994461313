package dev.fabrictwin.twin.solver;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;

/**
 * Max-min fair rate allocation with demand caps over directed links: the unique allocation that progressive
 * filling (water-filling) reaches when every unfrozen flow's rate rises together, a link freezes its unfrozen
 * flows when its load reaches its capacity, and a flow also freezes when it reaches its demand cap.
 *
 * <h2>Full solve</h2>
 * Event-driven and exact, never a fixed-increment loop. While unfrozen flows cross link {@code l} their rates
 * all equal the current level, so {@code l} saturates at level {@code (capacity - used) / unfrozen}, where
 * {@code used} is the rate already fixed by frozen flows on it. Each step takes the lowest next event, either
 * the next saturating link or the next demand cap, freezes the affected flows at that level and updates the
 * links on their paths in O(1) each. Links sit in a binary heap keyed by saturation level; a link's level only
 * rises as its flows freeze (they freeze no higher than it), so stale keys stay in the heap as lower bounds and
 * a link is re-keyed only when it surfaces; once half the heap is links with no unfrozen flow left, one linear
 * pass drops them and refreshes the keys. Demand caps come from a list sorted once (radix sort) and reused
 * until demands change. Cost O(P + L log L) for P path entries and L links, with no allocation per solve.
 * Link-to-flow adjacency is a CSR array (entries carry the flow's path offset) rebuilt lazily after flows are
 * added or removed.
 *
 * <h2>Incremental resolve</h2>
 * Exactness rests on the bottleneck characterisation of max-min fairness: a feasible allocation is the max-min
 * fair one if and only if every flow is at its demand cap or has a saturated link on its path where no flow has
 * a higher rate. Every flow records such a certificate (its bottleneck link, or -1 for its cap), and
 * {@link #resolve()} repairs the previous allocation locally until all certificates hold again:
 * <ol>
 *   <li>seed the re-solve set {@code S} with added flows and flows whose demand changed;</li>
 *   <li>water-fill {@code S} alone on the capacity the other flows leave at their current rates;</li>
 *   <li>re-check every flow on a link whose capacity, flow set or rates changed (nowhere else can a certificate
 *       break; a flow whose recorded bottleneck did not change passes in O(1)). A fixed flow that fails, or sits
 *       on an over-full link, joins {@code S}; a flow of {@code S} that fails is out-ranked on its bottleneck by
 *       faster fixed flows, which join {@code S};</li>
 *   <li>repeat 2-3 until nothing fails. The allocation then satisfies the characterisation, so it is the unique
 *       max-min fair one and equals {@link #solve()} up to rounding (checks use a 1e-10 relative slack).</li>
 * </ol>
 * Flows whose rates do not move are never re-solved. The simpler exact scheme (keep flows frozen below the level
 * where a changed element first binds, re-solve the connected rest) degenerates to a full solve whenever a link
 * goes down, since that level is 0 and a fabric is one connected component; the certificate instead stops the
 * repair where rates stop moving. In densely loaded fabrics a one-link change can still move the rates of a
 * large share of all flows; when {@code S} or the work spent (extrapolated one round ahead) passes a quarter of
 * the problem, or a round makes no progress (a numerical corner case), it falls back to a full solve, so a
 * resolve costs at most a small multiple of a solve.
 *
 * <h2>Weighted flows (flow classes)</h2>
 * A flow may stand for {@code w} identical flows on the same path (an aggregated flow class, docs/twin.md): it counts
 * {@code w} times wherever flows are counted, so the allocation is exactly that of {@code w} separate flows, each at
 * the flow's per-member rate. {@link #rate}, {@link #load} and demand caps are totals (all members); the levels, the
 * certificates and {@link #maxRate} are per member. Weights are whole numbers, so the counts stay exact.
 *
 * <h2>Conventions</h2>
 * A flow with an empty path crosses no modelled link: it gets its demand if finite, else 0, because an unbounded
 * rate would make every sum over flows infinite while no link constrains or pays for it. Query methods report
 * the state of the last {@code solve()}/{@code resolve()}: a flow added since has rate 0. Not thread-safe.
 *
 * <h2>Parts</h2>
 * This class keeps the links, validates and counts; the rest are package-private parts: {@link FlowTable} (per-flow
 * state) and {@link FlowPaths} (their paths in one pool), {@link LinkFlows} (the CSR adjacency), {@link ChangeSet}
 * (links and flows changed since the last solve), {@link CapOrder} (the demand caps in order), {@link WaterFill} (the
 * event loop over an {@link EventHeap}) and {@link Repair} (the incremental resolve's certificate check).
 */
public final class RateAllocator implements Serializable {

    /** Relative slack under which a link counts as saturated for {@link #isSaturated}. */
    public static final double SATURATION_TOLERANCE = 1e-9;

    private static final int NONE = -1;
    private static final int INITIAL_FLOW_SLOTS = 16;

    private int links;
    private double[] capacity;
    private double[] load;
    /** Live flows per link, kept eagerly so the CSR rebuild needs no counting pass. */
    private int[] degree;
    /** Stamps of the links of the path being added ({@code pathEpoch}), to refuse a link crossed twice. */
    private int[] pathMark;
    private int pathEpoch;
    /** Links whose capacity changed or that lost a flow since the last solve/resolve. */
    private final ChangeSet dirty;
    private final WaterFill waterFill;
    private final Repair repair;

    private final LinkFlows adjacency;

    private int slots;
    private int live;
    private final FlowPaths paths = new FlowPaths();
    private final FlowTable flows = new FlowTable();
    /** Sum of the weights of the live flows on each link (their count when every weight is 1). */
    private double[] weightOn;
    /** Added, or demand changed, since the last solve/resolve. */
    private final ChangeSet changed = new ChangeSet(0);
    private int[] freeIds = new int[0];
    private int freeCount;
    private final CapOrder caps = new CapOrder();
    private boolean solvedOnce;

    /** One directed link per entry; the array is copied. Capacities must be finite and {@code >= 0} bit/s. */
    public RateAllocator(final double[] linkCapacityBps) {
        Objects.requireNonNull(linkCapacityBps, "linkCapacityBps");
        links = linkCapacityBps.length;
        capacity = new double[links];
        for (int l = 0; l < links; l++) {
            capacity[l] = checkCapacity(linkCapacityBps[l]);
        }
        load = new double[links];
        degree = new int[links];
        weightOn = new double[links];
        adjacency = new LinkFlows(links);
        pathMark = new int[links];
        dirty = new ChangeSet(links);
        waterFill = new WaterFill(links, flows, adjacency, paths);
        repair = new Repair(links, flows, paths, adjacency, waterFill, dirty, changed);
        growFlows(INITIAL_FLOW_SLOTS);
    }

    public int linkCount() {
        return links;
    }

    /**
     * Appends a link (e.g. a switch's ingress-to-egress crossing, {@link IngressSharing}) and returns its index; flows
     * added later may cross it. Storage grows by doubling, so adding links one by one stays amortized O(1).
     */
    public int addLink(final double capacityBps) {
        final double checked = checkCapacity(capacityBps);
        if (links == capacity.length) {
            final int size = Math.max(16, 2 * links);
            capacity = Arrays.copyOf(capacity, size);
            load = Arrays.copyOf(load, size);
            degree = Arrays.copyOf(degree, size);
            weightOn = Arrays.copyOf(weightOn, size);
            adjacency.growLinks(size);
            pathMark = Arrays.copyOf(pathMark, size);
            repair.growLinks(size);
            dirty.grow(size);
            waterFill.growLinks(size);
        }
        final int l = links++;
        capacity[l] = checked;
        adjacency.added(l);
        return l;
    }

    /** Live flows. */
    public int flowCount() {
        return live;
    }

    /**
     * Adds a flow over {@code path} (directed link indices, no repeats; NIC links included by the caller) with a
     * demand cap in bit/s ({@code >= 0}, may be {@link Double#POSITIVE_INFINITY}). Returns its id; ids of removed
     * flows are reused. Its rate stays 0 until the next solve/resolve.
     */
    public int addFlow(final int[] path, final double demandCapBps) {
        return addFlow(path, demandCapBps, 1);
    }

    /**
     * Adds a flow that stands for {@code members} identical flows over {@code path} (a whole number {@code >= 1}), with
     * a demand cap for all of them together; see the class comment.
     */
    public int addFlow(final int[] path, final double demandCapBps, final double members) {
        Objects.requireNonNull(path, "path");
        if (!(members >= 1 && members == Math.rint(members) && members <= 1L << 40)) {
            throw new IllegalArgumentException("a flow's members must be a whole number >= 1, got " + members);
        }
        final double cap = checkDemand(demandCapBps) / members;
        if (pathEpoch == Integer.MAX_VALUE) {
            Arrays.fill(pathMark, 0);
            pathEpoch = 0;
        }
        final int mark = ++pathEpoch;
        for (final int l : path) {
            checkLink(l);
            if (pathMark[l] == mark) {
                throw new IllegalArgumentException("path crosses link " + l + " twice: " + Arrays.toString(path));
            }
            pathMark[l] = mark;
        }
        final int id;
        if (freeCount > 0) {
            id = freeIds[--freeCount];
        } else {
            growFlows(slots + 1);
            id = slots++;
        }
        paths.add(id, path, flows.alive, slots);
        flows.demand[id] = cap;
        flows.weight[id] = members;
        flows.rate[id] = 0;
        flows.bottleneck[id] = NONE;
        flows.alive[id] = true;
        live++;
        for (final int l : path) {
            degree[l]++;
            weightOn[l] += members;
        }
        adjacency.invalidate();
        if (cap != Double.POSITIVE_INFINITY) {
            caps.invalidate();
        }
        changed.mark(id);
        return id;
    }

    public void removeFlow(final int flowId) {
        checkFlow(flowId);
        final int[] pool = paths.pool;
        final int at = paths.at[flowId];
        final int to = at + 1 + pool[at];
        for (int i = at + 1; i < to; i++) {
            final int l = pool[i];
            degree[l]--;
            weightOn[l] -= flows.weight[flowId];
            dirty.mark(l);
        }
        flows.alive[flowId] = false;
        live--;
        paths.remove(flowId);
        if (flows.demand[flowId] != Double.POSITIVE_INFINITY) {
            caps.invalidate();
        }
        flows.rate[flowId] = 0;
        flows.bottleneck[flowId] = NONE;
        freeIds[freeCount++] = flowId;
        adjacency.invalidate();
    }

    /** E.g. a degraded (halved) or down (0) link; takes effect at the next solve/resolve. */
    public void setCapacity(final int link, final double capacityBps) {
        checkLink(link);
        final double checked = checkCapacity(capacityBps);
        if (checked != capacity[link]) {
            capacity[link] = checked;
            dirty.mark(link);
        }
    }

    public void setDemand(final int flowId, final double demandCapBps) {
        checkFlow(flowId);
        final double cap = checkDemand(demandCapBps) / flows.weight[flowId];
        if (cap != flows.demand[flowId]) {
            caps.invalidate();
            flows.demand[flowId] = cap;
            changed.mark(flowId);
        }
    }

    /** Full water-filling over every live flow. */
    public SolveStats solve() {
        return fullSolve(System.nanoTime());
    }

    /**
     * Re-solves only what the changes since the last solve/resolve can affect (see the class comment); gives the
     * same rates as {@link #solve()} within rounding. Before any solve it is a full solve.
     */
    public SolveStats resolve() {
        final long start = System.nanoTime();
        if (!solvedOnce) {
            return fullSolve(start);
        }
        if (dirty.count() == 0 && changed.count() == 0) {
            return new SolveStats(0, 0, 0, System.nanoTime() - start);
        }
        ensureCsr();
        final int iterations = repair.run(capacity, load, links, live);
        if (iterations < 0) {
            return fullSolve(start);
        }
        clearChanges();
        return new SolveStats(repair.resolvedFlows(), repair.refilledLinks(), iterations, System.nanoTime() - start);
    }

    /** The flow's rate, all its members together. */
    public double rate(final int flowId) {
        checkFlow(flowId);
        return flows.rate[flowId] * flows.weight[flowId];
    }

    /** Sum of the rates of the flows crossing the link. */
    public double load(final int link) {
        checkLink(link);
        return load[link];
    }

    public double capacity(final int link) {
        checkLink(link);
        return capacity[link];
    }

    /** The highest per-member rate of a flow crossing the link (0 without flows), as of the last solve/resolve. */
    public double maxRate(final int link) {
        checkLink(link);
        ensureCsr();
        return repair.maxRate(link);
    }

    /** Carries at least one flow and its load is within {@link #SATURATION_TOLERANCE} of its capacity. */
    public boolean isSaturated(final int link) {
        checkLink(link);
        return degree[link] > 0 && load[link] >= capacity[link] * (1 - SATURATION_TOLERANCE);
    }

    /**
     * A saturated link on the flow's path where its rate is the highest (the link that froze it), or -1 when the
     * flow is limited by its demand cap or has an empty path. With ties, which qualifying link is named may depend
     * on the solve history.
     */
    public int bottleneck(final int flowId) {
        checkFlow(flowId);
        return flows.bottleneck[flowId];
    }

    // ---------------------------------------------------------------- water-filling

    private SolveStats fullSolve(final long start) {
        ensureCsr();
        waterFill.clear();
        int touched = 0;
        for (int l = 0; l < links; l++) {
            final double n = weightOn[l];
            waterFill.set(l, 0, n);
            if (n > 0) {
                waterFill.schedule(l, capacity[l] / n);
                touched++;
            }
        }
        for (int f = 0; f < slots; f++) {
            if (flows.alive[f]) {
                waterFill.prepare(f);
            }
        }
        caps.refresh(flows.alive, slots, flows.demand);
        final int iterations = waterFill.drain(caps.order(), caps.size(), capacity);
        for (int l = 0; l < links; l++) {
            load[l] = waterFill.fixed(l);
        }
        repair.forgetMaxRates();
        solvedOnce = true;
        clearChanges();
        return new SolveStats(live, touched, iterations, System.nanoTime() - start);
    }

    // ---------------------------------------------------------------- bookkeeping

    private void ensureCsr() {
        adjacency.rebuild(links, degree, flows.alive, slots, paths);
    }

    private void growFlows(final int needed) {
        if (needed <= flows.size()) {
            return;
        }
        final int size = Math.max(needed, 2 * flows.size());
        paths.growFlows(size);
        flows.grow(size);
        changed.grow(size);
        freeIds = Arrays.copyOf(freeIds, size);
        caps.growFlows(size);
        repair.growFlows(size);
    }

    private void clearChanges() {
        dirty.clear();
        changed.clear();
    }

    private void checkLink(final int link) {
        if (link < 0 || link >= links) {
            throw new IllegalArgumentException("link " + link + " out of range [0, " + links + ")");
        }
    }

    private void checkFlow(final int flowId) {
        if (flowId < 0 || flowId >= slots || !flows.alive[flowId]) {
            throw new IllegalArgumentException("unknown flow " + flowId);
        }
    }

    private static double checkCapacity(final double capacityBps) {
        if (!(capacityBps >= 0) || capacityBps == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("link capacity must be finite and >= 0 bit/s, got " + capacityBps);
        }
        return capacityBps + 0.0; // folds -0.0 into 0.0
    }

    private static double checkDemand(final double demandCapBps) {
        if (!(demandCapBps >= 0)) {
            throw new IllegalArgumentException("demand cap must be >= 0 bit/s (or +Infinity), got " + demandCapBps);
        }
        return demandCapBps + 0.0; // folds -0.0 into 0.0, whose bit pattern the demand sort relies on
    }
}
