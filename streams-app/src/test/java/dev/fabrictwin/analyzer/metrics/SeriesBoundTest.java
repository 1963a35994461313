package dev.fabrictwin.analyzer.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.TickReport;
import dev.fabrictwin.analyzer.tick.HandTicks;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.SpineLeaf;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/** What a scrape holds on a large fabric: per-device series bounded, alerted devices always in, aggregates exact. */
class SeriesBoundTest {

    private static final Pattern DEVICE = Pattern.compile("device=\"([^\"]+)\"");
    private static final double LINE = HandTicks.LINE_BYTES_PER_S;

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    /** 2,048 hosts on 64 leaves under 16 spines, 100G: 6,144 ports. */
    private static final HandTicks LARGE = HandTicks.on(new SpineLeaf(16, 64, 32, 1, HandTicks.LINK_BPS, HandTicks.LINK_BPS,
        Technology.ROCE_V2).build("large"));

    @Test
    void shouldHoldTheDeviceCapOnALargeFabricWithTheAlertedDevicesAndTheLargestResidualsListed() {
        final AnalyzerMetrics metrics = AnalyzerMetrics.refreshedByCaller(registry, new SeriesLimits(200, 20));
        final Fabric fabric = LARGE.fabric();
        final Set<String> quiet = Set.of("leaf-3", "spine-7", "host-1000");
        final Map<PortRef, Double> residuals = randomResiduals(fabric, quiet);
        final Alert link = alert("LINK_DEGRADED:link:leaf-3~spine-7", FaultType.LINK_DEGRADED, Entity.link("leaf-3", "spine-7"), true);
        final Alert victim = alert("PFC_STORM:port:host-1000/nic0", FaultType.PFC_STORM,
            Entity.port(new PortRef("host-1000", "nic0")), false);

        metrics.tick(new TickReport(fabric, tick(LARGE, 1, residuals), List.of(victim, link), 1, 0, Map.of()));
        metrics.refresh();
        final String scrape = registry.scrape();

        final Set<String> listed = devices(scrape, "fabric_device_utilization_ratio");
        assertThat(fabric.nodes()).hasSize(2_128);
        assertThat(listed).hasSize(200).contains("leaf-3", "spine-7", "host-1000");
        // the other 197 places go to the largest residuals, every kind of series for each device
        assertThat(listed).containsAll(largestDevices(residuals, quiet, 197));
        assertThat(lines(scrape, "fabric_device_")).hasSize(200 * 3 * 2);
        assertThat(lines(scrape, "fabric_port_utilization_ratio")).as("20 by residual and the alerted port, 2 kinds")
            .hasSize((20 + 1) * 2);
        assertThat(devices(scrape, "fabric_port_utilization_ratio")).contains("host-1000");
        assertThat(lines(scrape, "fabric_tier_")).hasSize(3 * 3 * 2);
        assertThat(lines(scrape, "fabric_pod_")).as("32 leaf groups and the spines").hasSize(33 * 3 * 2);
    }

    @Test
    void shouldSumEveryPortIntoItsTierAndItsPod() {
        final AnalyzerMetrics metrics = AnalyzerMetrics.refreshedByCaller(registry, SeriesLimits.defaults());
        final Fabric fabric = LARGE.fabric();
        final HandTicks.TickBuilder b = LARGE.tick(1);
        final Map<String, double[]> pods = new TreeMap<>(); // pod -> {tx bytes, capacity bytes, ECN marks}
        final Map<String, double[]> tiers = new TreeMap<>();
        int i = 0;
        for (final PortRef p : fabric.ports()) {
            final double tx = LINE * (i % 97) / 100.0;
            final long marks = i % 13 * 1_000L;
            b.port(p).observed(CounterNames.TX_BYTES, tx).observed(CounterNames.ECN_MARKED, marks);
            // the rule written out again: leaves in runs of two, host-h on leaf-(h/32), spines shared
            final int n = Integer.parseInt(p.device().substring(p.device().indexOf('-') + 1));
            final int leaf = p.device().startsWith("leaf") ? n : n / 32;
            final String pod = p.device().startsWith("spine") ? "shared"
                : "leaf-" + leaf / 2 * 2 + "..leaf-" + (leaf / 2 * 2 + 1);
            final String tier = p.device().substring(0, p.device().indexOf('-'));
            for (final double[] sums : List.of(pods.computeIfAbsent(pod, k -> new double[3]),
                tiers.computeIfAbsent(tier, k -> new double[3]))) {
                sums[0] += Math.round(tx);
                sums[1] += LINE;
                sums[2] += marks;
            }
            i++;
        }
        metrics.tick(new TickReport(fabric, b.build(), List.of(), 1, 0, Map.of()));
        metrics.refresh();

        assertThat(pods).hasSize(33);
        pods.forEach((pod, sums) -> {
            assertThat(gauge("fabric.pod.utilization.ratio", "pod", pod)).isCloseTo(sums[0] / sums[1], within(1e-12));
            assertThat(gauge("fabric.pod.ecn.marks.per.second", "pod", pod)).isCloseTo(sums[2], within(1e-6));
        });
        tiers.forEach((tier, sums) -> {
            assertThat(gauge("fabric.tier.utilization.ratio", "tier", tier)).isCloseTo(sums[0] / sums[1], within(1e-12));
            assertThat(gauge("fabric.tier.ecn.marks.per.second", "tier", tier)).isCloseTo(sums[2], within(1e-6));
        });
        final double allMarks = pods.values().stream().mapToDouble(s -> s[2]).sum();
        assertThat(registry.find("fabric.pod.ecn.marks.per.second").tag("kind", "observed").gauges().stream()
            .mapToDouble(g -> g.value()).sum()).isCloseTo(allMarks, within(1e-3));
    }

    @Test
    void shouldRemoveTheSeriesOfDevicesThatLeaveTheList() {
        final HandTicks small = HandTicks.on(HandTicks.spineLeaf(4));
        final AnalyzerMetrics metrics = AnalyzerMetrics.refreshedByCaller(registry, new SeriesLimits(3, 1));
        final Alert storm = alert("PFC_STORM:port:host-5/nic0", FaultType.PFC_STORM, Entity.port(new PortRef("host-5", "nic0")),
            true);
        final Tick first = small.tick(1).everyPort()
            .port("host-0", "nic0").observed(CounterNames.TX_BYTES, LINE * 0.3)
            .port("host-1", "nic0").observed(CounterNames.TX_BYTES, LINE * 0.2)
            .port("host-2", "nic0").observed(CounterNames.TX_BYTES, LINE * 0.1).build();
        metrics.tick(new TickReport(small.fabric(), first, List.of(storm), 1, 0, Map.of()));
        metrics.refresh();
        String scrape = registry.scrape();
        assertThat(devices(scrape, "fabric_device_ecn_marks_per_second")).containsExactlyInAnyOrder("host-5", "host-0", "host-1");
        assertThat(devices(scrape, "fabric_port_utilization_ratio")).containsExactlyInAnyOrder("host-5", "host-0");

        // the alert resolves and six other devices carry residuals more than twice the listed ones' peaks
        final HandTicks.TickBuilder second = small.tick(2).everyPort();
        for (final String d : List.of("host-2", "host-3", "host-4", "host-6", "host-7")) {
            second.port(d, "nic0").observed(CounterNames.TX_BYTES, LINE * 0.8);
        }
        second.port("leaf-0", "eth4").observed(CounterNames.TX_BYTES, LINE * 0.9);
        metrics.tick(new TickReport(small.fabric(), second.build(), List.of(), 1, 0, Map.of()));
        metrics.refresh();
        scrape = registry.scrape();

        assertThat(devices(scrape, "fabric_device_")).hasSize(3).contains("leaf-0")
            .doesNotContain("host-0", "host-1", "host-5");
        assertThat(devices(scrape, "fabric_port_utilization_ratio")).containsExactly("leaf-0");
        assertThat(scrape).doesNotContain("device=\"host-5\"", "device=\"host-0\"", "host-5/nic0");
    }

    @Test
    void shouldShowAListedDeviceMissingFromATickWithItsLastValues() {
        final HandTicks small = HandTicks.on(HandTicks.spineLeaf(2));
        final AnalyzerMetrics metrics = AnalyzerMetrics.refreshedByCaller(registry, new SeriesLimits(2, 1));
        metrics.tick(new TickReport(small.fabric(), small.tick(1).everyPort()
            .port("host-0", "nic0").observed(CounterNames.TX_BYTES, LINE * 0.6)
            .port("host-1", "nic0").observed(CounterNames.TX_BYTES, LINE * 0.4).build(), List.of(), 1, 0, Map.of()));
        metrics.refresh();

        // host-0's next sample lands in tick 3: tick 2 has no interval of it
        final HandTicks.TickBuilder second = small.tick(2);
        small.fabric().ports().stream().filter(p -> !p.device().equals("host-0")).forEach(second::port);
        second.port("host-1", "nic0").observed(CounterNames.TX_BYTES, LINE * 0.4);
        metrics.tick(new TickReport(small.fabric(), second.build(), List.of(), 1, 0, Map.of()));
        metrics.refresh();

        assertThat(devices(registry.scrape(), "fabric_device_utilization_ratio")).containsExactly("host-0", "host-1");
        assertThat(registry.get("fabric.device.utilization.ratio").tags("device", "host-0", "kind", "observed").gauge().value())
            .isCloseTo(0.6, within(1e-12));
        assertThat(registry.get("fabric.port.utilization.ratio").tags("device", "host-0", "port", "nic0", "kind", "observed")
            .gauge().value()).isCloseTo(0.6, within(1e-12));
    }

    private double gauge(final String name, final String tag, final String value) {
        return registry.get(name).tags(tag, value, "kind", "observed").gauge().value();
    }

    private static Alert alert(final String id, final FaultType type, final Entity entity, final boolean root) {
        return new Alert(id, type, Alert.State.OPEN, Severity.WARNING, entity, root, null, 1_000, 2_000, 1, 0, "m", List.of(), "s");
    }

    /** A residual of tx utilization per port, up to 0.9, none on the {@code quiet} devices' ports. */
    private static Map<PortRef, Double> randomResiduals(final Fabric fabric, final Set<String> quiet) {
        final Random random = new Random(14);
        final Map<PortRef, Double> out = new HashMap<>();
        for (final PortRef p : fabric.ports()) {
            out.put(p, quiet.contains(p.device()) ? 0 : Math.round(random.nextDouble() * 90_000) / 100_000.0);
        }
        return out;
    }

    /** Every port at 5% of line rate as the twin expects it, observed that plus its residual. */
    private static Tick tick(final HandTicks hand, final long index, final Map<PortRef, Double> residuals) {
        final HandTicks.TickBuilder b = hand.tick(index);
        residuals.forEach((p, r) -> b.port(p).expected(CounterNames.TX_BYTES, LINE * 0.05)
            .observed(CounterNames.TX_BYTES, LINE * (0.05 + r)));
        return b.build();
    }

    private static List<String> largestDevices(final Map<PortRef, Double> residuals, final Set<String> except, final int n) {
        final Map<String, Double> byDevice = new HashMap<>();
        residuals.forEach((p, r) -> byDevice.merge(p.device(), r, Math::max));
        except.forEach(byDevice::remove);
        final List<Map.Entry<String, Double>> ranked = new ArrayList<>(byDevice.entrySet());
        ranked.sort(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()));
        return ranked.stream().limit(n).map(Map.Entry::getKey).toList();
    }

    private static List<String> lines(final String scrape, final String prefix) {
        return scrape.lines().filter(l -> l.startsWith(prefix)).toList();
    }

    private static Set<String> devices(final String scrape, final String prefix) {
        final Set<String> out = new TreeSet<>();
        for (final String l : lines(scrape, prefix)) {
            final Matcher m = DEVICE.matcher(l);
            if (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }
}
