package dev.fabrictwin.analyzer.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.fabrictwin.analyzer.detect.TickContext;
import dev.fabrictwin.analyzer.tick.PortTick;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Link;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.CounterNames;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The fabric's load in a tick, observed beside the twin's expectation: per tier and per pod summed over every port;
 * per device only for the {@link SeriesLimits#devices()} devices a {@link Shortlist} keeps (open alerts first, then
 * the largest residuals); per port only for ports with an open alert on those devices or among the
 * {@link SeriesLimits#ports()} largest residuals. A device or port that leaves its list has its series removed.
 * Only the refresher thread calls {@link #show}.
 */
final class FabricLoadMeters implements MeterBinder {

    private final SeriesLimits limits;
    private final Shortlist<String> listedDevices = new Shortlist<>();
    private final Shortlist<PortRef> listedPorts = new Shortlist<>();
    /** The pods of the latest fabric (recomputed when the topology changes). */
    private Pods podsOf;
    /**
     * What the listed devices and ports showed last: shown again while a tick misses one (its sample landed in the
     * next tick), so its lines do not break; as bounded as the lists.
     */
    private Map<String, Load> shownDevices = Map.of();
    private Map<PortRef, double[]> shownPorts = Map.of();
    private MultiGauge portUtilization;
    private LoadGauges devices;
    private LoadGauges tiers;
    private LoadGauges pods;

    FabricLoadMeters(final SeriesLimits limits) {
        this.limits = limits;
    }

    @Override
    public void bindTo(final MeterRegistry registry) {
        this.portUtilization = MultiGauge.builder("fabric.port.utilization.ratio")
            .description("Tx utilization of ports with an open alert or the largest residual, observed and expected")
            .register(registry);
        this.devices = new LoadGauges(registry, "device");
        this.tiers = new LoadGauges(registry, "tier");
        this.pods = new LoadGauges(registry, "pod");
    }

    /**
     * Per-tier and per-pod sums of every port; per-device sums of the listed devices; the per-port rows of the listed
     * ports. A device's and a port's score is its tx utilization residual (the device's: its ports' largest).
     */
    void show(final Fabric fabric, final Tick tick, final List<Alert> open) {
        if (podsOf == null || podsOf.fabric() != fabric) {
            podsOf = Pods.of(fabric);
        }
        final Map<String, Load> byDevice = new HashMap<>();
        final Map<String, Load> byTier = new HashMap<>();
        final Map<String, Load> byPod = new HashMap<>();
        final Map<String, Double> deviceScores = new HashMap<>();
        final Map<PortRef, Double> portScores = new HashMap<>();
        for (final PortTick t : tick.ports()) {
            final Node node = fabric.node(t.port().device()).orElse(null);
            final double capacity = fabric.linkAt(t.port()).map(Link::capacityBps).orElse(0.0);
            if (node == null || capacity <= 0 || t.seconds() <= 0) {
                continue;
            }
            final Load port = Load.of(t, capacity);
            byDevice.computeIfAbsent(node.name(), n -> new Load()).add(port);
            byTier.computeIfAbsent(node.tier().label(), n -> new Load()).add(port);
            byPod.computeIfAbsent(podsOf.of(node.name()), n -> new Load()).add(port);
            final double residual = Math.abs(port.observedBps - port.expectedBps) / capacity;
            portScores.put(t.port(), residual);
            deviceScores.merge(node.name(), residual, Math::max);
        }
        final Set<String> listed = listedDevices.update(alertDevices(open), deviceScores, limits.devices());
        shownDevices = latestOf(listed, byDevice, shownDevices);
        devices.register(shownDevices);
        tiers.register(byTier);
        pods.register(byPod);
        final List<PortRef> alerted = alertPorts(open, listed);
        final Map<PortRef, double[]> utilization = new HashMap<>();
        final Set<PortRef> ports = listedPorts.update(alerted, portScores, alerted.size() + limits.ports());
        for (final PortRef p : ports) {
            if (portScores.containsKey(p)) {
                final PortTick t = tick.port(fabric.portIndex(p));
                final double line = fabric.requireLinkAt(p).capacityBps() / 8 * t.seconds();
                utilization.put(p, new double[] {t.observed(CounterNames.TX_BYTES) / line, t.expected(CounterNames.TX_BYTES) / line});
            }
        }
        shownPorts = latestOf(ports, utilization, shownPorts);
        final List<MultiGauge.Row<?>> portRows = new ArrayList<>();
        shownPorts.forEach((p, u) -> {
            final Tags tags = Tags.of("device", p.device(), "port", p.port());
            portRows.add(MultiGauge.Row.of(tags.and("kind", "observed"), u[0]));
            portRows.add(MultiGauge.Row.of(tags.and("kind", "expected"), u[1]));
        });
        portUtilization.register(portRows, true);
    }

    /** The devices open alerts name (a link's two ends), root causes' before victims'. */
    private static List<String> alertDevices(final List<Alert> open) {
        final Set<String> devices = new LinkedHashSet<>();
        for (final boolean root : new boolean[] {true, false}) {
            for (final Alert a : open) {
                if (a.rootCause() == root) {
                    addIfNamed(devices, a.entity().device());
                    addIfNamed(devices, a.entity().peer());
                }
            }
        }
        return List.copyOf(devices);
    }

    private static void addIfNamed(final Set<String> devices, final String device) {
        if (device != null) {
            devices.add(device);
        }
    }

    /** The ports open alerts name on the listed devices, root causes' first. */
    private static List<PortRef> alertPorts(final List<Alert> open, final Set<String> listed) {
        final Set<PortRef> ports = new LinkedHashSet<>();
        for (final boolean root : new boolean[] {true, false}) {
            for (final Alert a : open) {
                if (a.rootCause() == root && a.entity().port() != null && listed.contains(a.entity().device())) {
                    ports.add(new PortRef(a.entity().device(), a.entity().port()));
                }
            }
        }
        return List.copyOf(ports);
    }

    /** For each listed key, its value in this tick, else the one shown last (none if it never had one). */
    private static <K, V> Map<K, V> latestOf(final Set<K> listed, final Map<K, V> now, final Map<K, V> before) {
        final Map<K, V> out = new HashMap<>();
        for (final K k : listed) {
            final V v = now.containsKey(k) ? now.get(k) : before.get(k);
            if (v != null) {
                out.put(k, v);
            }
        }
        return out;
    }

    /** One port's (or a sum of ports') load in a tick, observed beside the twin's expectation. */
    private static final class Load {
        double observedBps;
        double expectedBps;
        double capacityBps;
        double observedPausesPerSec;
        double expectedPausesPerSec;
        double observedMarksPerSec;
        double expectedMarksPerSec;

        static Load of(final PortTick t, final double capacityBps) {
            final Load l = new Load();
            l.observedBps = t.observed(CounterNames.TX_BYTES) * 8 / t.seconds();
            l.expectedBps = t.expected(CounterNames.TX_BYTES) * 8 / t.seconds();
            l.capacityBps = capacityBps;
            l.observedPausesPerSec = TickContext.pfc(t, CounterNames.TX_PFC_PAUSE, true) / t.seconds();
            l.expectedPausesPerSec = TickContext.pfc(t, CounterNames.TX_PFC_PAUSE, false) / t.seconds();
            l.observedMarksPerSec = t.observedRate(CounterNames.ECN_MARKED);
            l.expectedMarksPerSec = t.expectedRate(CounterNames.ECN_MARKED);
            return l;
        }

        void add(final Load o) {
            observedBps += o.observedBps;
            expectedBps += o.expectedBps;
            capacityBps += o.capacityBps;
            observedPausesPerSec += o.observedPausesPerSec;
            expectedPausesPerSec += o.expectedPausesPerSec;
            observedMarksPerSec += o.observedMarksPerSec;
            expectedMarksPerSec += o.expectedMarksPerSec;
        }
    }

    /** The load meters of one grouping ({@code device}, {@code tier} or {@code pod}): one meter per quantity. */
    private static final class LoadGauges {
        private final String tag;
        private final MultiGauge utilization;
        private final MultiGauge pauses;
        private final MultiGauge marks;

        LoadGauges(final MeterRegistry registry, final String tag) {
            this.tag = tag;
            this.utilization = MultiGauge.builder("fabric." + tag + ".utilization.ratio")
                .description("Tx utilization of the " + tag + "'s ports (tx bits over capacity), observed and the twin's")
                .register(registry);
            this.pauses = MultiGauge.builder("fabric." + tag + ".pfc.pauses.per.second")
                .description("PFC pause frames the " + tag + "'s ports sent per second, observed and the twin's")
                .register(registry);
            this.marks = MultiGauge.builder("fabric." + tag + ".ecn.marks.per.second")
                .description("ECN-marked packets per second on the " + tag + "'s ports, observed and the twin's")
                .register(registry);
        }

        void register(final Map<String, Load> loads) {
            final List<MultiGauge.Row<?>> u = new ArrayList<>();
            final List<MultiGauge.Row<?>> p = new ArrayList<>();
            final List<MultiGauge.Row<?>> m = new ArrayList<>();
            loads.forEach((name, l) -> {
                final Tags observed = Tags.of(tag, name, "kind", "observed");
                final Tags expected = Tags.of(tag, name, "kind", "expected");
                u.add(MultiGauge.Row.of(observed, l.observedBps / l.capacityBps));
                u.add(MultiGauge.Row.of(expected, l.expectedBps / l.capacityBps));
                p.add(MultiGauge.Row.of(observed, l.observedPausesPerSec));
                p.add(MultiGauge.Row.of(expected, l.expectedPausesPerSec));
                m.add(MultiGauge.Row.of(observed, l.observedMarksPerSec));
                m.add(MultiGauge.Row.of(expected, l.expectedMarksPerSec));
            });
            utilization.register(u, true);
            pauses.register(p, true);
            marks.register(m, true);
        }
    }
}
