package dev.fabrictwin.analyzer.alert;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.fabrictwin.analyzer.DetectionCalibration;
import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.analyzer.detect.JobFootprint;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultType;

/**
 * One fault, one root-cause alert. Each tick:
 * <ol>
 * <li>root candidates are taken in order of how directly their signature shows a fault ({@link #PRECEDENCE}:
 *     a link reported down explains more than the imbalance its siblings show); a candidate whose entity
 *     shares a device with a stronger accepted root (this tick's, or an open alert's) is that root's victim;</li>
 * <li>a symptom is linked to the root-cause alert whose entity covers its cause (the same port or link, a port
 *     or device at either end of that link); a symptom nothing explains yet is held back, not raised;</li>
 * <li>a job slowed by the network follows the strongest root cause among those affecting it; a slowdown that
 *     nothing explains for {@link DetectionCalibration.Correlation#unexplainedTicks} ticks becomes a root cause of its
 *     own ({@code JOB_BOTTLENECK} on the job): the other detectors had their chance to name a fault.</li>
 * </ol>
 */
final class Correlator implements Serializable {

    static final List<FaultType> PRECEDENCE = List.of(FaultType.LINK_FLAP, FaultType.LINK_DOWN, FaultType.LINK_DEGRADED,
        FaultType.ECN_MISCONFIG, FaultType.PFC_STORM, FaultType.SILENT_DROP, FaultType.UNEXPECTED_TRAFFIC,
        FaultType.STRAGGLER, FaultType.ECMP_IMBALANCE, FaultType.LATENCY_SLO, FaultType.JOB_BOTTLENECK);

    private final Fabric fabric;
    private final DetectionCalibration.Correlation calibration;
    private JobFootprint footprint;
    private final Map<String, Integer> unexplainedSlowdown = new HashMap<>();
    private final Map<String, Integer> recovering = new HashMap<>();
    /** The root-cause alert each recovering job's slowdown was last attributed to. */
    private final Map<String, String> recoveringFrom = new HashMap<>();

    public Correlator(final Fabric fabric, final JobFootprint footprint,
                      final DetectionCalibration.Correlation calibration) {
        this.fabric = fabric;
        this.calibration = calibration;
        this.footprint = footprint;
    }

    /** The running jobs changed (the scheduler started or ended one): victims are attributed to the new set. */
    public void jobsChanged(final JobFootprint running) {
        this.footprint = running;
    }

    /** Correlates a tick's findings, given the root-cause alerts already open (id → finding). */
    public List<Correlated> correlate(final List<Finding> findings, final Map<String, Finding> openRoots) {
        final Map<String, Correlated> out = new LinkedHashMap<>();
        final Map<String, Finding> roots = new LinkedHashMap<>(openRoots);
        final List<Finding> candidates = new ArrayList<>(findings.stream().filter(Finding::rootCandidate).toList());
        candidates.sort(Comparator.comparingInt(f -> PRECEDENCE.indexOf(f.type())));
        final Set<String> seen = new HashSet<>();
        candidates.forEach(c -> seen.add(Alert.id(c.type(), c.entity())));
        for (final Finding f : candidates) {
            final String id = Alert.id(f.type(), f.entity());
            if (f.type() == FaultType.STRAGGLER && !openRoots.containsKey(id) && inAftermath(f, seen)) {
                continue;
            }
            // an open root too yields to a stronger fault that appears later on its device (one fault, one root)
            String stronger = strongerOverlapping(f, roots);
            if (stronger == null && SYMPTOMATIC.contains(f.type())) {
                stronger = explaining(f, roots, candidates);
            }
            if (stronger == null && f.type() == FaultType.ECMP_IMBALANCE) {
                stronger = rerouting(f, roots, candidates);
            }
            if (stronger == null && f.type() == FaultType.ECMP_IMBALANCE) {
                stronger = undeclaredEntering(f, roots, candidates);
            }
            if (stronger != null) {
                out.putIfAbsent(id, new Correlated(id, f, false, stronger, footprint.affected(f.entity())));
            } else {
                roots.put(id, f);
                out.putIfAbsent(id, new Correlated(id, f, true, null, footprint.affected(f.entity())));
            }
        }
        for (final Finding f : findings) {
            if (!f.rootCandidate() && f.type() != FaultType.JOB_BOTTLENECK) {
                final String id = Alert.id(f.type(), f.entity());
                final String cause = covering(f.cause(), roots);
                if (cause != null && !out.containsKey(id)) {
                    out.put(id, new Correlated(id, f, false, cause, footprint.affected(f.entity())));
                }
            }
        }
        final Set<String> slowJobs = new HashSet<>();
        for (final Finding f : findings) {
            if (f.rootCandidate() || f.type() != FaultType.JOB_BOTTLENECK) {
                continue;
            }
            final String job = f.entity().job();
            final String id = Alert.id(f.type(), f.entity());
            slowJobs.add(job);
            String cause = strongestAffecting(job, roots);
            if (cause == null) {
                cause = victimAffecting(job, out.values()); // e.g. a rogue sender sharing the job's NIC
            }
            if (cause != null) {
                unexplainedSlowdown.remove(job);
                recovering.put(job, calibration.recoveryTicks());
                recoveringFrom.put(job, cause);
                out.putIfAbsent(id, new Correlated(id, f, false, cause, List.of(job)));
            } else if (recovering.containsKey(job) && !roots.containsKey(id)) {
                continue; // still recovering from a fault that was explained: neither a victim nor a new cause
            } else if (unexplainedTooLong(unexplainedSlowdown.merge(job, 1, Integer::sum)) || roots.containsKey(id)) {
                out.putIfAbsent(id, new Correlated(id, f, true, null, List.of(job)));
            }
        }
        unexplainedSlowdown.keySet().retainAll(slowJobs);
        recovering.replaceAll((job, left) -> left - 1);
        recovering.values().removeIf(left -> left <= 0);
        recoveringFrom.keySet().retainAll(recovering.keySet());
        return new ArrayList<>(out.values());
    }

    /**
     * A slowdown nothing explained this many ticks in a row is a root cause of its own: the others had their chance.
     */
    boolean unexplainedTooLong(final int ticks) {
        return ticks >= calibration.unexplainedTicks();
    }

    /**
     * Whether a new straggler candidate's job is recovering from a fault that is no longer seen (its root-cause finding
     * did not come this tick): when a PFC storm or a link fault ends, the job's held-back traffic arrives in bursts
     * that queue at its NICs' switch ports while its phases still run slow, the signature of a straggler. Such a
     * candidate is neither a victim nor a new cause; a straggler that is real outlasts the
     * {@link DetectionCalibration.Correlation#recoveryTicks} ticks of recovery. One whose alert is already open is
     * judged as before.
     */
    private boolean inAftermath(final Finding f, final Set<String> seen) {
        return footprint.affected(f.entity()).stream().anyMatch(job -> recovering.containsKey(job)
            && recoveringFrom.containsKey(job) && !seen.contains(recoveringFrom.get(job)));
    }

    /**
     * Root types whose signature a fault elsewhere also produces: loss makes RoCE retransmit (go-back-N) and latency
     * rise wherever the affected flows go; congestion at a leaf queues at the ports facing its hosts.
     */
    static final Set<FaultType> SYMPTOMATIC = Set.of(FaultType.LATENCY_SLO, FaultType.STRAGGLER);

    /**
     * A fabric fault that explains a symptomatic candidate: for latency, a root whose jobs' flows also cross the
     * port (the jobs the footprint routes over both); for a straggler, a root that slows the straggler's job at the
     * switch its NIC hangs off (the queue facing the NIC is that fault's) or on a path its job's traffic into the NIC
     * may take (the collective runs at its slowest flow's pace, so the NIC takes in slowly and its switch port sees
     * the others' bursts). The strongest such root, or null.
     */
    private String explaining(final Finding f, final Map<String, Finding> roots, final List<Finding> candidates) {
        final Map<String, Finding> faults = faults(roots, candidates);
        final List<String> jobs = footprint.affected(f.entity());
        final PortRef nic = f.type() == FaultType.STRAGGLER && f.entity().port() != null
            ? new PortRef(f.entity().device(), f.entity().port()) : null;
        final String facing = f.type() == FaultType.STRAGGLER && f.entity().port() != null ? fabric.linkAt(new PortRef(f.entity().device(),
            f.entity().port())).map(l -> l.lower().device().equals(f.entity().device()) ? l.upper().device()
            : l.lower().device()).orElse(null) : null;
        return faults.entrySet().stream()
            .filter(e -> !SYMPTOMATIC.contains(e.getValue().type()) && e.getValue().type() != FaultType.JOB_BOTTLENECK)
            .filter(e -> f.type() != FaultType.STRAGGLER || facing != null && e.getValue().entity().touches(facing)
                || nic != null && footprint.inboundCrosses(nic, e.getValue().entity()))
            .filter(e -> footprint.affected(e.getValue().entity()).stream().anyMatch(jobs::contains))
            .min(Comparator.comparingInt(e -> PRECEDENCE.indexOf(e.getValue().type())))
            .map(Map.Entry::getKey).orElse(null);
    }

    /**
     * A link down one hop beyond an imbalanced group: it takes the switch's next hop at its near end out of the
     * equal-cost set towards its far end, so the switch's traffic there spreads over the other members, and how a
     * real switch rehashes it is unknown (the spread test hashes every flow over every member). A degraded link
     * changes no route, nor does a host's link going down (its flows stop; no switch's equal-cost set changes). The
     * root, or null; a real imbalance next to an open link-down is its victim until it ends.
     */
    private String rerouting(final Finding f, final Map<String, Finding> roots, final List<Finding> candidates) {
        final Map<String, Finding> faults = faults(roots, candidates);
        final Set<String> nextHops = new HashSet<>();
        fabric.node(f.entity().device()).ifPresent(n -> {
            for (int i = 0; i < fabric.degree(n.index()); i++) {
                final var other = fabric.node(fabric.link(fabric.linkOf(n.index(), i)).other(n.index()));
                if (!other.isHost()) {
                    nextHops.add(other.name());
                }
            }
        });
        return faults.entrySet().stream()
            .filter(e -> e.getValue().type() == FaultType.LINK_DOWN)
            .filter(e -> e.getValue().entity().kind() == Entity.Kind.LINK
                && nextHops.stream().anyMatch(h -> e.getValue().entity().touches(h))
                && betweenSwitches(e.getValue().entity()))
            .min(Comparator.comparingInt(e -> PRECEDENCE.indexOf(e.getValue().type())))
            .map(Map.Entry::getKey).orElse(null);
    }

    /** A link entity whose two ends are switches (a host's link is no hop of any equal-cost set). */
    private boolean betweenSwitches(final Entity link) {
        return fabric.node(link.device()).map(n -> !n.isHost()).orElse(false)
            && fabric.node(link.peer()).map(n -> !n.isHost()).orElse(false);
    }

    /**
     * Undeclared traffic entering the fabric at an imbalanced switch: a NIC on it sending what no job declares. The
     * twin does not know that flow, so where the switch hashes it reads as an imbalance of the group; it is the
     * sender's fault. The root, or null.
     */
    private String undeclaredEntering(final Finding f, final Map<String, Finding> roots, final List<Finding> candidates) {
        return faults(roots, candidates).entrySet().stream()
            .filter(e -> e.getValue().type() == FaultType.UNEXPECTED_TRAFFIC && e.getValue().rootCandidate()
                && e.getValue().entity().kind() == Entity.Kind.PORT
                && portLinkDevices(e.getValue().entity()).contains(f.entity().device()))
            .map(Map.Entry::getKey).findFirst().orElse(null);
    }

    /** The roots, then this tick's candidates not among them (a weaker fault of this tick can explain too). */
    private static Map<String, Finding> faults(final Map<String, Finding> roots, final List<Finding> candidates) {
        final Map<String, Finding> faults = new LinkedHashMap<>(roots);
        candidates.forEach(c -> faults.putIfAbsent(Alert.id(c.type(), c.entity()), c));
        return faults;
    }

    private String strongerOverlapping(final Finding f, final Map<String, Finding> roots) {
        final int rank = PRECEDENCE.indexOf(f.type());
        for (final var e : roots.entrySet()) {
            final Finding r = e.getValue();
            if (PRECEDENCE.indexOf(r.type()) < rank && sharesDevice(r.entity(), f.entity())) {
                return e.getKey();
            }
        }
        return null;
    }

    private boolean sharesDevice(final Entity a, final Entity b) {
        if (a.kind() == Entity.Kind.JOB || b.kind() == Entity.Kind.JOB) {
            final Entity job = a.kind() == Entity.Kind.JOB ? a : b;
            final Entity other = job == a ? b : a;
            return other.kind() == Entity.Kind.JOB ? job.job().equals(other.job()) : footprint.affected(other).contains(job.job());
        }
        return b.touches(a.device()) || a.peer() != null && b.touches(a.peer());
    }

    /** The strongest root affecting the job, other than the job's own unexplained-slowdown alert. */
    private String strongestAffecting(final String job, final Map<String, Finding> roots) {
        return roots.entrySet().stream()
            .filter(e -> !(e.getValue().type() == FaultType.JOB_BOTTLENECK && job.equals(e.getValue().entity().job())))
            .filter(e -> footprint.affected(e.getValue().entity()).contains(job))
            .min(Comparator.comparingInt(e -> PRECEDENCE.indexOf(e.getValue().type())))
            .map(Map.Entry::getKey).orElse(null);
    }

    /** The root-cause alert behind a victim that affects the job. */
    private String victimAffecting(final String job, final Collection<Correlated> correlated) {
        return correlated.stream().filter(c -> !c.rootCause() && c.causedBy() != null)
            .filter(c -> footprint.affected(c.finding().entity()).contains(job))
            .map(Correlated::causedBy).findFirst().orElse(null);
    }

    /** The root whose entity covers a symptom's cause entity. */
    private String covering(final Entity cause, final Map<String, Finding> roots) {
        if (cause == null) {
            return null;
        }
        for (final var e : roots.entrySet()) {
            if (covers(e.getValue().entity(), cause)) {
                return e.getKey();
            }
        }
        return null;
    }

    private boolean covers(final Entity root, final Entity cause) {
        if (root.key().equals(cause.key())) {
            return true;
        }
        final Set<String> causeDevices = cause.kind() == Entity.Kind.LINK ? Set.of(cause.device(), cause.peer())
            : cause.kind() == Entity.Kind.PORT ? portLinkDevices(cause) : Set.of();
        return switch (root.kind()) {
            case LINK -> causeDevices.contains(root.device()) && causeDevices.contains(root.peer());
            case PORT -> cause.kind() == Entity.Kind.LINK && portLinkDevices(root).equals(causeDevices)
                || cause.kind() == Entity.Kind.PORT && portLinkDevices(root).equals(causeDevices);
            case DEVICE, ECMP_GROUP -> causeDevices.contains(root.device());
            case JOB -> false;
        };
    }

    /** The two devices of a port's link (just the device if the topology does not know the port). */
    private Set<String> portLinkDevices(final Entity port) {
        return fabric.linkAt(new PortRef(port.device(), port.port()))
            .map(l -> Set.of(l.lower().device(), l.upper().device())).orElse(Set.of(port.device()));
    }
}
