package dev.fabrictwin.twin.workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.Quoted;

/**
 * Places jobs in declaration order on the first free hosts in host order (or their {@code hostList}) and
 * turns each collective into per-iteration transfers with the byte counts docs/contracts.md fixes.
 */
public final class Placement {

    private Placement() {
    }

    public static List<PlacedJob> place(final Fabric fabric, final List<JobSpec> jobs, final long seed) {
        final Set<String> used = new HashSet<>();
        final List<PlacedJob> placed = new ArrayList<>();
        for (final JobSpec job : jobs) {
            final List<Node> hosts = new ArrayList<>();
            if (!job.hostList().isEmpty()) {
                for (final String name : job.hostList()) {
                    final Node n = fabric.node(name).filter(Node::isHost).orElseThrow(() ->
                        new IllegalArgumentException("job " + job.id() + ": " + Quoted.of(name)
                            + " is not a host of the fabric"));
                    if (!used.add(name)) {
                        throw new IllegalArgumentException("job " + job.id() + ": host " + name + " is already used by another job");
                    }
                    hosts.add(n);
                }
            } else {
                for (final Node h : fabric.hosts()) {
                    if (hosts.size() == job.hosts()) {
                        break;
                    }
                    if (used.add(h.name())) {
                        hosts.add(h);
                    }
                }
                if (hosts.size() < job.hosts()) {
                    throw new IllegalArgumentException("job " + job.id() + " needs " + job.hosts() + " hosts but only "
                        + hosts.size() + " are free (fabric has " + fabric.hosts().size() + ")");
                }
            }
            final List<PortRef> ranks = new ArrayList<>();
            for (final Node h : hosts) {
                ranks.addAll(fabric.nicsOf(h));
            }
            // a permutation is drawn by the job's place in the list, never its name: renaming moves no flow
            final SplittableRandom random = job.pattern() == Pattern.PERMUTATION
                ? new SplittableRandom(seed * 31 + placed.size()) : new SplittableRandom(seed ^ job.id().hashCode());
            final int k = ranks.size() / hosts.size();
            if (job.pattern() == Pattern.ALL_TO_ALL && (long) ranks.size() * (ranks.size() - k) > AGGREGATE_ABOVE) {
                placed.add(new PlacedJob(job, hosts, ranks, List.of(), allToAllClasses(fabric, job, ranks, k)));
            } else {
                placed.add(new PlacedJob(job, hosts, ranks, transfers(job, hosts.size(), ranks, random)));
            }
        }
        return placed;
    }

    /**
     * An all-to-all whose fabric flows pass this is placed as flow classes, one per (source switch, destination
     * switch): 64,512 flows (256 ranks on 4-NIC hosts) still go flow by flow, a 1,024-GPU all-to-all (~1 M flows) never.
     */
    public static final long AGGREGATE_ABOVE = 65_536;

    /**
     * One class per pair of switches the ranks' NICs hang off: every rank of switch A sends S/N to every rank of
     * switch B on another host. Members = |A|·|B| less the pairs on one host.
     */
    public static List<FlowClass> allToAllClasses(final Fabric fabric, final JobSpec job, final List<PortRef> ranks, final int k) {
        final Map<Integer, List<Integer>> bySwitch = new LinkedHashMap<>();
        for (int r = 0; r < ranks.size(); r++) {
            final PortRef nic = ranks.get(r);
            final int host = fabric.requireNode(nic.device()).index();
            bySwitch.computeIfAbsent(fabric.requireLinkAt(nic).other(host), s -> new ArrayList<>()).add(r);
        }
        final double each = job.bytesPerIteration() / ranks.size();
        final List<FlowClass> classes = new ArrayList<>();
        for (final List<Integer> a : bySwitch.values()) {
            final Map<Integer, Integer> perHostA = new HashMap<>();
            a.forEach(r -> perHostA.merge(r / k, 1, Integer::sum));
            for (final List<Integer> b : bySwitch.values()) {
                long sameHost = 0;
                for (final int r : b) {
                    sameHost += perHostA.getOrDefault(r / k, 0);
                }
                final long members = (long) a.size() * b.size() - sameHost;
                if (members > 0) {
                    classes.add(new FlowClass(a.stream().map(ranks::get).toList(), b.stream().map(ranks::get).toList(),
                        Math.toIntExact(members), each));
                }
            }
        }
        return classes;
    }

    /** Per-iteration transfers of the job's collective, merged per NIC pair, same-host pairs dropped. */
    static List<Transfer> transfers(final JobSpec job, final int hostCount, final List<PortRef> ranks,
                                    final SplittableRandom random) {
        final int n = ranks.size();
        final int k = n / hostCount;
        final double s = job.bytesPerIteration();
        final Map<Long, double[]> bytes = new LinkedHashMap<>();
        switch (job.pattern()) {
            case RING_ALLREDUCE -> {
                for (int r = 0; r < n && n > 1; r++) {
                    add(bytes, r, (r + 1) % n, 2.0 * (n - 1) / n * s, k);
                }
            }
            case TREE_ALLREDUCE -> {
                for (int r = 1; r < n; r++) {
                    final int parent = (r - 1) / 2;
                    add(bytes, r, parent, s, k);
                    add(bytes, parent, r, s, k);
                }
            }
            case HIERARCHICAL_ALLREDUCE -> {
                final int h = hostCount;
                for (int host = 0; host < h && h > 1; host++) {
                    for (int nic = 0; nic < k; nic++) {
                        add(bytes, host * k + nic, ((host + 1) % h) * k + nic, 2.0 * (h - 1) / h * s / k, k);
                    }
                }
            }
            case ALL_TO_ALL -> {
                for (int a = 0; a < n; a++) {
                    for (int b = 0; b < n; b++) {
                        if (a != b) {
                            add(bytes, a, b, s / n, k);
                        }
                    }
                }
            }
            case PIPELINE -> {
                for (int r = 0; r + 1 < n; r++) {
                    add(bytes, r, r + 1, s, k);
                    add(bytes, r + 1, r, s, k);
                }
            }
            case INCAST -> {
                for (int r = 1; r < n; r++) {
                    add(bytes, r, 0, s, k);
                }
            }
            case PERMUTATION -> {
                // Sattolo's shuffle: one cycle through every rank, so nobody sends to itself
                final int[] to = new int[n];
                for (int r = 0; r < n; r++) {
                    to[r] = r;
                }
                for (int i = n - 1; i > 0; i--) {
                    final int j = random.nextInt(i);
                    final int t = to[i];
                    to[i] = to[j];
                    to[j] = t;
                }
                for (int r = 0; r < n; r++) {
                    add(bytes, r, to[r], s, k);
                }
            }
            case SHIFT -> {
                if (n > 1 && job.offset() % n == 0) {
                    throw new IllegalArgumentException("job " + job.id() + ": offset " + job.offset()
                        + " is a multiple of its " + n + " ranks: every rank would send to itself");
                }
                for (int r = 0; r < n && n > 1; r++) {
                    add(bytes, r, (r + job.offset()) % n, s, k);
                }
            }
            case BACKGROUND -> {
                // One iteration's draw; the simulation redraws every period from the same seeded stream.
                for (int host = 0; host < hostCount && hostCount > 1; host++) {
                    int peer = random.nextInt(hostCount - 1);
                    if (peer >= host) {
                        peer++;
                    }
                    final int nic = random.nextInt(k);
                    add(bytes, host * k + nic, peer * k + nic, s, k);
                }
            }
            default -> throw new IllegalStateException("unhandled pattern " + job.pattern());
        }
        final List<Transfer> out = new ArrayList<>(bytes.size());
        for (final var e : bytes.entrySet()) {
            out.add(new Transfer(ranks.get((int) (e.getKey() >>> 32)), ranks.get((int) (long) e.getKey()), e.getValue()[0]));
        }
        return out;
    }

    private static void add(final Map<Long, double[]> bytes, final int from, final int to, final double b, final int nicsPerHost) {
        if (from / nicsPerHost == to / nicsPerHost) {
            return; // same host: NVLink, never on the fabric
        }
        bytes.computeIfAbsent(((long) from << 32) | to, x -> new double[1])[0] += b;
    }
}
