package dev.fabrictwin.analyzer.tick;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.detect.Detector;
import dev.fabrictwin.analyzer.detect.Finding;
import dev.fabrictwin.analyzer.detect.TickContext;
import dev.fabrictwin.analyzer.rates.PortInterval;
import dev.fabrictwin.analyzer.twin.ReplicaSync;
import dev.fabrictwin.analyzer.twin.TwinReplica;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.FabricJson;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fabric.SpineLeaf;
import dev.fabrictwin.twin.fabric.Technology;
import dev.fabrictwin.twin.model.CongestionModel;
import dev.fabrictwin.twin.model.CounterIndex;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.workload.Pattern;

/**
 * Hand-built ticks for detector tests: a small spine-leaf fabric from twin-engine's builders, a {@link TwinReplica}
 * of it, and {@link Tick}s whose {@link PortTick}s carry exactly the observed and expected values a test writes.
 * Every port starts {@code oper_up = 1} with nothing else reported and the twin expecting zero; a tick lasts the
 * configured tick and ends at {@code EPOCH_MS + index × tickMs}.
 *
 * <pre>{@code
 * final HandTicks hand = HandTicks.on(HandTicks.spineLeaf(2));
 * final List<Finding> out = hand.tick(1).port("leaf-0", "eth2").gauge(CounterNames.OPER_UP, 0).detect(detector);
 * }</pre>
 */
public final class HandTicks {

    /** Time zero of the replica's simulation and of tick 0. */
    public static final long EPOCH_MS = Scenario.DEFAULT_EPOCH.toEpochMilli();
    /** Every link of {@link #spineLeaf}: 100 Gb/s. */
    public static final double LINK_BPS = 100e9;
    /** Bytes a link of {@link #spineLeaf} carries in one second at line rate. */
    public static final double LINE_BYTES_PER_S = LINK_BPS / 8;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final TwinReplica twin;
    private final AnalyzerConfig config;
    private final Map<String, Double> slowdowns;
    private boolean calm = true;
    /** Devices open alerts name while not calm. */
    private Set<String> covered = Set.of();

    private HandTicks(final TwinReplica twin, final AnalyzerConfig config, final Map<String, Double> slowdowns) {
        this.twin = twin;
        this.config = config;
        this.slowdowns = slowdowns;
    }

    /**
     * Two spines and two leaves, {@code hostsPerLeaf} single-NIC hosts on each, every link 100G. On {@code leaf-i}
     * {@code eth0..eth(h-1)} face its hosts and {@code eth(h)}, {@code eth(h+1)} face {@code spine-0}, {@code spine-1};
     * {@code spine-j/eth<i>} faces {@code leaf-i}.
     */
    public static Fabric spineLeaf(final int hostsPerLeaf) {
        return new SpineLeaf(2, 2, hostsPerLeaf, 1, LINK_BPS, LINK_BPS, Technology.ROCE_V2).build("hand");
    }

    /** A declared job as {@code fabric.jobs} carries it: 2 GB per 1 s iteration, half of it comm. */
    public static JsonNode job(final String id, final Pattern pattern, final String... hosts) {
        final ObjectNode o = JSON.createObjectNode().put("id", id).put("pattern", pattern.label())
            .put("bytesPerIteration", 2_000_000_000L).put("iterationPeriodMs", 1_000).put("commFraction", 0.5);
        final var list = o.putArray("hostList");
        Arrays.stream(hosts).forEach(list::add);
        return o;
    }

    /** The fabric with these declared jobs, a replica built from their JSON (as the topics carry them), 1 s ticks. */
    public static HandTicks on(final Fabric fabric, final JsonNode... jobs) {
        final TwinReplica replica = TwinReplica.from(FabricJson.toJson(fabric, JSON), List.of(jobs), EPOCH_MS);
        return new HandTicks(replica, AnalyzerConfig.defaults(1_000), new HashMap<>());
    }

    /** The same fabric and replica with ticks of {@code tickMs} (detector windows scale to it). */
    public HandTicks withTickMs(final long tickMs) {
        return new HandTicks(twin, AnalyzerConfig.defaults(tickMs), slowdowns);
    }

    /** The same fabric and replica judged with these settings. */
    public HandTicks withConfig(final AnalyzerConfig settings) {
        return new HandTicks(twin, settings, slowdowns);
    }

    /**
     * From now on ticks are not calm, open alerts naming these devices (a detector learning only from what no alert
     * covers learns nothing of their ports); {@code calm(true)} ends it.
     */
    public HandTicks covering(final String... devices) {
        this.calm = false;
        this.covered = Set.of(devices);
        return this;
    }

    /** From now on ticks are (not) calm: whether a root-cause alert was open before them (detectors learn only when calm). */
    public HandTicks calm(final boolean isCalm) {
        this.calm = isCalm;
        if (isCalm) {
            this.covered = Set.of();
        }
        return this;
    }

    /** From now on the job's comm runs {@code factor}× slower than the twin's (the phase lock's verdict). */
    public HandTicks slowdown(final String job, final double factor) {
        slowdowns.put(job, factor);
        return this;
    }

    public TwinReplica twin() {
        return twin;
    }

    public Fabric fabric() {
        return twin.fabric();
    }

    public AnalyzerConfig config() {
        return config;
    }

    /** A new tick {@code index}, ending at {@code EPOCH_MS + index × tickMs}. */
    public TickBuilder tick(final long index) {
        return new TickBuilder(index);
    }

    /**
     * Tick 1 with every port idle but these senders ({@code device/port}), each holding its peer paused {@code share}
     * of the 1 s tick (priority 3): its {@code tx_pfc_pause} and its peer's {@code rx_pfc_pause}. The last sender stays
     * selected.
     */
    public TickBuilder pausing(final double share, final String... senders) {
        final double frames = CongestionModel.pauseFramesPerSecond(LINK_BPS);
        final TickBuilder tick = tick(1).everyPort();
        for (final String s : senders) {
            final PortRef sender = new PortRef(s.substring(0, s.indexOf('/')), s.substring(s.indexOf('/') + 1));
            fabric().linkAt(sender).map(l -> l.lower().equals(sender) ? l.upper() : l.lower())
                .ifPresent(peer -> tick.port(peer).observed(CounterNames.perPriority(CounterNames.RX_PFC_PAUSE, 3),
                    share * frames));
            tick.port(sender).observed(CounterNames.perPriority(CounterNames.TX_PFC_PAUSE, 3), share * frames);
        }
        return tick;
    }

    /** What the detector finds in one tick. */
    public List<Finding> detect(final Detector detector, final Tick tick) {
        final List<Finding> out = new ArrayList<>();
        detector.detect(new TickContext(tick, twin, config, job -> slowdowns.getOrDefault(job, 1.0), calm).covering(covered), out);
        return out;
    }

    /** Asserts the finding is {@code expected} in every field but the summary, numbers within 1e-9. */
    public static void assertFinding(final Finding actual, final Finding expected) {
        assertThat(actual).usingRecursiveComparison().ignoringFields("summary")
            .withComparatorForType(HandTicks::closeTo, Double.class).isEqualTo(expected);
    }

    private static int closeTo(final Double a, final Double b) {
        return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.max(Math.abs(a), Math.abs(b))) ? 0 : Double.compare(a, b);
    }

    /** Drives the detector through ticks {@code 1..count} built by {@code tick}. */
    public Run drive(final Detector detector, final int count, final IntFunction<TickBuilder> tick) {
        final List<List<Finding>> out = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            out.add(detect(detector, tick.apply(i).build()));
        }
        return new Run(out);
    }

    /** What a detector found in each tick of a {@link #drive}; ticks are numbered from 1. */
    public record Run(List<List<Finding>> perTick) {

        public List<Finding> tick(final int index) {
            return perTick.get(index - 1);
        }

        public List<Finding> last() {
            return perTick.get(perTick.size() - 1);
        }

        /** Every finding of ticks {@code 1..index}. */
        public List<Finding> upTo(final int index) {
            return perTick.subList(0, index).stream().flatMap(List::stream).toList();
        }

        /** Every finding of every tick. */
        public List<Finding> all() {
            return upTo(perTick.size());
        }

        /** Each tick's findings, ticks {@code from..to}. */
        public List<List<Finding>> ticks(final int from, final int to) {
            return perTick.subList(from - 1, to);
        }
    }

    private static int slot(final String name) {
        final int slot = CounterIndex.of(name);
        if (slot < 0) {
            throw new IllegalArgumentException(name + " is no canonical counter or gauge: the twin has no value for it");
        }
        return slot;
    }

    /** One tick under construction; {@link #port} chooses the port the value setters write to. */
    public final class TickBuilder {

        private final long index;
        private final Map<PortRef, HandPort> ports = new LinkedHashMap<>();
        private HandPort current;
        private boolean fromTwin;

        private TickBuilder(final long index) {
            this.index = index;
        }

        /** Selects a port, adding it to the tick ({@code oper_up = 1}, nothing else) the first time. */
        public TickBuilder port(final String device, final String port) {
            return port(new PortRef(device, port));
        }

        public TickBuilder port(final PortRef ref) {
            if (fabric().portIndex(ref) < 0) { // the analyzer answers other names as unmatched, before any tick
                throw new IllegalArgumentException("a tick holds the topology's ports only, not " + ref);
            }
            current = ports.computeIfAbsent(ref, r -> new HandPort(r, config.tickMs() / 1000.0));
            return this;
        }

        /** Adds every cabled port of the fabric (each {@code oper_up = 1}, nothing else), selecting none. */
        public TickBuilder everyPort() {
            fabric().ports().forEach(this::port);
            current = null;
            return this;
        }

        /** The twin's own expectation for every port of the tick, under any expected value set by hand. */
        public TickBuilder expectedFromTwin() {
            fromTwin = true;
            return this;
        }

        /** Observed increase of a counter (reported, rounded to a whole count as telemetry sends it). */
        public TickBuilder observed(final String counter, final double value) {
            selected().observed.put(counter, Math.round(value));
            return this;
        }

        /** The twin's expected increase of a canonical counter. */
        public TickBuilder expected(final String counter, final double value) {
            selected().expected.put(slot(counter), value);
            return this;
        }

        /** Observed and expected alike: what a port that matches the twin reports. */
        public TickBuilder matching(final String counter, final double value) {
            return observed(counter, value).expected(counter, value);
        }

        /** Latest observed gauge. */
        public TickBuilder gauge(final String name, final double value) {
            selected().gauges.put(name, value);
            return this;
        }

        /** The port does not report this gauge at all. */
        public TickBuilder withoutGauge(final String name) {
            selected().gauges.remove(name);
            return this;
        }

        /** The twin's mean of a canonical gauge over the tick. */
        public TickBuilder expectedGauge(final String name, final double value) {
            selected().expectedGauges.put(slot(name), value);
            return this;
        }

        /** The port reports {@code oper_up = 0}. */
        public TickBuilder down() {
            return gauge(CounterNames.OPER_UP, 0);
        }

        /** The port's interval spans this many seconds instead of one tick. */
        public TickBuilder seconds(final double seconds) {
            selected().seconds = seconds;
            return this;
        }

        /** A counter reset inside the port's interval. */
        public TickBuilder reset() {
            selected().reset = true;
            return this;
        }

        /** The port's interval spans lost samples. */
        public TickBuilder gap() {
            selected().gap = true;
            return this;
        }

        public Tick build() {
            final long endMs = EPOCH_MS + index * config.tickMs();
            final PortTick[] built = new PortTick[twin.fabric().directedLinkCount()];
            for (final HandPort p : ports.values()) {
                built[twin.fabric().portIndex(p.ref)] = p.build(endMs);
            }
            return Tick.of(index, endMs - config.tickMs(), endMs, built);
        }

        /** Builds the tick and runs the detector on it. */
        public List<Finding> detect(final Detector detector) {
            return HandTicks.this.detect(detector, build());
        }

        private HandPort selected() {
            if (current == null) {
                throw new IllegalStateException("choose a port first");
            }
            return current;
        }

        /** One port's hand-written values. */
        private final class HandPort {

            private final PortRef ref;
            private final Map<String, Long> observed = new HashMap<>();
            private final Map<String, Double> gauges = new HashMap<>(Map.of(CounterNames.OPER_UP, 1.0));
            private final Map<Integer, Double> expected = new HashMap<>();
            private final Map<Integer, Double> expectedGauges = new HashMap<>();
            private double seconds;
            private boolean reset;
            private boolean gap;

            private HandPort(final PortRef ref, final double seconds) {
                this.ref = ref;
                this.seconds = seconds;
            }

            private PortTick build(final long endMs) {
                final PortInterval interval = new PortInterval(ref.device(), ref.port(),
                    endMs - Math.round(seconds * 1000), endMs, observed, gauges, reset, 0, gap);
                final double[] counters = new double[CounterIndex.size()];
                final double[] twinGauges = new double[CounterIndex.size()];
                if (fromTwin) {
                    twin.steer(ReplicaSync.operState(interval, twin.fabric().portIndex(ref)));
                    twin.expectedInto(interval, counters, twinGauges, new boolean[CounterIndex.size()]);
                }
                expected.forEach((slot, v) -> counters[slot] = v);
                expectedGauges.forEach((slot, v) -> twinGauges[slot] = v);
                final PortTick tick = new PortTick(ref, twin.fabric().portIndex(ref));
                tick.add(interval, counters, twinGauges);
                return tick;
            }
        }
    }
}
