package dev.fabrictwin.analyzer.detect;

import java.util.List;

import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;

/**
 * When the telemetry behind a finding was taken: the intervals, in the tick it was found, of the ports its entity
 * stands for (a port; both ends of a link, or of the one link its port names; every port of a device or its ECMP
 * group). A job has none. Ticks are labelled on a fixed grid while each device polls at its own phase and period, so
 * an interval can start up to a poll period after its tick's label: the alert must not claim that time.
 */
public final class EvidenceSpans {

    private EvidenceSpans() {
    }

    /** The findings of {@code tick}, each with its evidence span (unchanged when its entity reported nothing). */
    public static void stamp(final Tick tick, final Fabric fabric, final List<Finding> findings) {
        findings.replaceAll(f -> f.withEvidence(of(tick, fabric, f.entity())));
    }

    static Finding.Evidence of(final Tick tick, final Fabric fabric, final Entity entity) {
        final Span span = new Span();
        switch (entity.kind()) {
            case PORT -> span.add(tick.port(fabric.portIndex(new PortRef(entity.device(), entity.port()))));
            case LINK -> {
                final List<Link> links = entity.port() == null ? fabric.linksBetween(entity.device(), entity.peer())
                    : fabric.linkAt(new PortRef(entity.device(), entity.port())).map(List::of).orElse(List.of());
                for (final Link l : links) {
                    span.add(tick.port(l.up()));
                    span.add(tick.port(l.down()));
                }
            }
            case DEVICE, ECMP_GROUP -> fabric.node(entity.device()).ifPresent(node -> addDevice(tick, fabric, node, span));
            case JOB -> { }
        }
        return span.evidence();
    }

    private static void addDevice(final Tick tick, final Fabric fabric, final Node node, final Span span) {
        for (int i = 0; i < fabric.degree(node.index()); i++) {
            span.add(tick.port(fabric.link(fabric.linkOf(node.index(), i)).from(node.index())));
        }
    }

    /**
     * From the latest start of the intervals added to the latest end. The latest start: which of them shows the
     * finding is the detector's knowledge (a link-down is seen on one end, the other may have been polled just before
     * it), and claiming from the earliest could name a time only an interval without the finding covers.
     */
    private static final class Span {
        private long from = Long.MIN_VALUE;
        private long to = Long.MIN_VALUE;

        void add(final PortTick port) {
            if (port != null && port.t0() <= port.t1()) {
                from = Math.max(from, port.t0());
                to = Math.max(to, port.t1());
            }
        }

        Finding.Evidence evidence() {
            return to == Long.MIN_VALUE ? null : new Finding.Evidence(from, to);
        }
    }
}
