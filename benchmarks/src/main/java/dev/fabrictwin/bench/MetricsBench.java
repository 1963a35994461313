package dev.fabrictwin.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.FabricAnalyzer;
import dev.fabrictwin.analyzer.TickReport;
import dev.fabrictwin.analyzer.metrics.AnalyzerMetrics;
import dev.fabrictwin.analyzer.metrics.SeriesLimits;
import dev.fabrictwin.analyzer.rates.PortRates;
import dev.fabrictwin.analyzer.tick.Tick;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.simulator.SimulationFiles;
import dev.fabrictwin.simulator.SyntheticCluster;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.telemetry.Sample;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * {@code bench metrics}: how many series {@code /metrics} holds at each fabric size. Each scenario's first seconds
 * of telemetry are generated and analyzed without Kafka (as {@code replay}), and every analyzed tick is handed to two
 * sets of product meters: one with the device bound ({@code --top-devices}), one listing every device (as
 * {@code /metrics} did before the bound). The series are counted in each registry's Prometheus scrape text after
 * every tick: the largest count over the run, the per-device, per-pod, per-tier and per-port ones at the end, and
 * how many devices entered or left the listed set per tick over the run's second half (the churn a dashboard sees
 * once the first ticks have set the peaks).
 */
public final class MetricsBench {

    private static final ObjectMapper JSON = new ObjectMapper();

    private MetricsBench() {
    }

    public static Map<String, Double> run(final List<Scenario> scenarios, final Duration telemetry, final int topDevices,
                                          final Consumer<String> log) {
        final Map<String, Double> figures = new LinkedHashMap<>();
        for (final Scenario scenario : scenarios) {
            final Counted bounded;
            final Counted everyDevice;
            try {
                final Counted[] both = measure(shortened(scenario, telemetry), topDevices);
                bounded = both[0];
                everyDevice = both[1];
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
            final String key = scenario.name() + ".";
            figures.put(key + "ports", (double) bounded.ports);
            figures.put(key + "devices", (double) bounded.devices);
            figures.put(key + "series", (double) bounded.maxSeries);
            figures.put(key + "deviceSeries", (double) bounded.prefixed.get("fabric_device_"));
            figures.put(key + "seriesEveryDevice", (double) everyDevice.maxSeries);
            figures.put(key + "deviceSeriesEveryDevice", (double) everyDevice.prefixed.get("fabric_device_"));
            figures.put(key + "churnPerTick", bounded.churnPerTick());
            log.accept(String.format(Locale.ROOT, "%s: %,d ports, %,d devices, %d ticks, %d open alerts at the end: "
                    + "%,d series at most with --top-devices %d (at the end %s), %,d listing every device (%s); "
                    + "listed devices entering or leaving: %.2f per tick (second half)", scenario.name(), bounded.ports,
                bounded.devices, bounded.ticks, bounded.openAlerts, bounded.maxSeries, topDevices, bounded.prefixed,
                everyDevice.maxSeries, everyDevice.prefixed, bounded.churnPerTick()));
        }
        return figures;
    }

    /** The scenario's first {@code telemetry} only (at least three ticks past the grace, so some ticks close). */
    private static Scenario shortened(final Scenario s, final Duration telemetry) {
        final Duration d = telemetry.compareTo(s.duration()) < 0 ? telemetry : s.duration();
        return new Scenario(s.name(), s.seed(), d, s.sampleInterval(), s.epoch(), s.fabric(), s.routing(), s.jobs(),
            s.faults(), s.telemetry(), s.transport(), s.flows(), s.pins());
    }

    private static Counted[] measure(final Scenario scenario, final int topDevices) throws JsonProcessingException {
        final SyntheticCluster cluster = new SyntheticCluster(scenario, scenario.telemetry());
        final List<JsonNode> jobs = new ArrayList<>();
        JSON.readTree(SimulationFiles.jobsJson(cluster)).forEach(jobs::add);
        final AnalyzerConfig config = AnalyzerConfig.defaults(scenario.sampleInterval().toMillis());
        final FabricAnalyzer analyzer = new FabricAnalyzer(TwinReplica.from(JSON.readTree(SimulationFiles.topologyJson(cluster)),
            jobs, scenario.epoch().toEpochMilli()), config);
        final Counted bounded = new Counted(new SeriesLimits(topDevices, SeriesLimits.DEFAULT_PORTS), cluster);
        final Counted everyDevice = new Counted(SeriesLimits.UNBOUNDED, cluster);
        final Map<String, Sample> last = new HashMap<>();
        cluster.run(s -> {
            final String port = s.device() + "/" + s.port();
            final PortRates.Step step = PortRates.next(last.get(port), s, config.tickMs());
            if (!step.late()) {
                last.put(port, s);
                step.interval().ifPresent(i -> {
                    final FabricAnalyzer.Output out = analyzer.accept(i);
                    bounded.analyzed(analyzer, out);
                    everyDevice.analyzed(analyzer, out);
                });
            }
        }, n -> { });
        final FabricAnalyzer.Output rest = analyzer.flush();
        bounded.analyzed(analyzer, rest);
        everyDevice.analyzed(analyzer, rest);
        return new Counted[] {bounded, everyDevice};
    }

    /** One set of product meters fed tick by tick, and what its scrapes held. */
    private static final class Counted {
        private static final List<String> PREFIXES = List.of("fabric_device_", "fabric_port_", "fabric_pod_", "fabric_tier_");

        private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        private final AnalyzerMetrics metrics;
        private final int ports;
        private final int devices;
        private final Map<String, Long> prefixed = new LinkedHashMap<>();
        private Set<String> listed;
        private long maxSeries;
        private long ticks;
        /** Devices entering or leaving the listed set, per tick after the first. */
        private final List<Integer> changes = new ArrayList<>();
        private int openAlerts;

        Counted(final SeriesLimits limits, final SyntheticCluster cluster) {
            this.metrics = AnalyzerMetrics.refreshedByCaller(registry, limits);
            this.ports = cluster.fabric().ports().size();
            this.devices = cluster.fabric().nodes().size();
        }

        void analyzed(final FabricAnalyzer analyzer, final FabricAnalyzer.Output out) {
            metrics.intervals(1);
            out.alerts().forEach(a -> metrics.alert(a, a.lastSeen()));
            out.jobHealth().forEach(metrics::jobHealth);
            for (final Tick t : out.ticks()) {
                openAlerts = analyzer.openAlerts().size();
                metrics.tick(new TickReport(analyzer.twin().fabric(), t, analyzer.openAlerts(), analyzer.lastTwinMs(),
                    analyzer.lateIntervals(), analyzer.clocksAhead()));
                metrics.refresh();
                count(registry.scrape());
            }
        }

        private void count(final String scrape) {
            final Set<String> now = new HashSet<>();
            long series = 0;
            PREFIXES.forEach(p -> prefixed.put(p, 0L));
            for (final String line : scrape.split("\n")) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                series++;
                for (final String p : PREFIXES) {
                    if (line.startsWith(p)) {
                        prefixed.merge(p, 1L, Long::sum);
                    }
                }
                if (line.startsWith("fabric_device_utilization_ratio{")) {
                    final int at = line.indexOf("device=\"") + 8;
                    now.add(line.substring(at, line.indexOf('"', at)));
                }
            }
            maxSeries = Math.max(maxSeries, series);
            if (listed != null) {
                final Set<String> entered = new HashSet<>(now);
                entered.removeAll(listed);
                final Set<String> left = new HashSet<>(listed);
                left.removeAll(now);
                changes.add(entered.size() + left.size());
            }
            listed = now;
            ticks++;
        }

        /** Mean devices entering or leaving per tick over the run's second half (the first fills the peaks). */
        double churnPerTick() {
            final List<Integer> steady = changes.subList(changes.size() / 2, changes.size());
            return steady.stream().mapToInt(Integer::intValue).average().orElse(0);
        }
    }
}
