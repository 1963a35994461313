package dev.fabrictwin.simulator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.LongConsumer;

import dev.fabrictwin.contract.truth.TruthRecord;
import dev.fabrictwin.twin.fabric.Fabric;
import dev.fabrictwin.twin.fabric.Node;
import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.fault.FaultDefaults;
import dev.fabrictwin.twin.fault.FaultSpec;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.simulator.reality.Reality;
import dev.fabrictwin.simulator.reality.Reality.Hidden;
import dev.fabrictwin.simulator.reality.RealityDraw;
import dev.fabrictwin.twin.scenario.Routing;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.TelemetryProfile;
import dev.fabrictwin.twin.sim.CounterIntegrator;
import dev.fabrictwin.twin.sim.PortCounters;
import dev.fabrictwin.twin.sim.Twin;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * The synthetic cluster: the twin with the scenario's faults injected, sampled the way real telemetry is.
 * Every device's clock is skewed and every sample jittered; some samples are lost or arrive late; counters
 * start at arbitrary values, wrap at 32 or 64 bits and reset when a device reboots; gauges carry measurement
 * noise; compute phases drift. Physical parameters (ECN thresholds, buffers) are perturbed per run around the
 * twin's defaults, and ECMP uses the scenario's seed: the analyzer is given none of these.
 *
 * <p>Each random source has its own stream derived from the scenario seed, so a seed replays exactly.
 *
 * <p>With a randomized reality ({@code telemetry: {reality: randomized, draw: N}}) the hidden parameters are drawn
 * from {@link Reality}'s ranges instead: device clocks offset and drifting (timestamps are the device's), the counters
 * of one poll read a few ms apart, control frames counted by some switch ports only, per-device gauge noise and base
 * latency, perturbed ECN thresholds and buffers, another ECMP hash seed, per-run loss and late rates.
 */
public final class SyntheticCluster {

    /**
     * Link history the generator keeps behind the round it samples (s; at least 5 sample intervals): far more than a
     * poll spans, so a run of any length holds the fabric's worth of state, not the run's (simulate in
     * bounded memory).
     */
    static final double HISTORY_S = 10;
    /** Late samples arrive this many rounds late, at most. */
    private static final int MAX_LATE_ROUNDS = 3;

    private final Scenario scenario;
    private final TelemetryProfile profile;
    private final Twin twin;
    private final List<PortRef> ports;
    private final Map<String, Double> deviceSkewMs = new HashMap<>();
    private final Map<String, Double> rebootAt = new HashMap<>();
    /** The randomized reality's draw, or null for the fixed one. */
    private final RealityDraw draw;
    private final Map<String, RealityDraw.Device> devices = new HashMap<>();
    private final Map<PortRef, Double> portLatency = new HashMap<>();

    public SyntheticCluster(final Scenario scenario, final TelemetryProfile profile) {
        this(scenario, profile, Reality.defaults());
    }

    /** {@code reality} gives the ranges (and which parameters vary) when the profile asks for a randomized draw. */
    public SyntheticCluster(final Scenario scenario, final TelemetryProfile profile, final Reality reality) {
        this.scenario = scenario;
        this.profile = profile;
        this.draw = profile.randomized() ? reality.draw(scenario.seed(), profile.realityDraw()) : null;
        final SplittableRandom physical = stream(scenario.seed(), 1);
        final ModelParams d = ModelParams.defaults();
        final double k = 1 + 0.1 * (physical.nextDouble() * 2 - 1);
        ModelParams perturbed = new ModelParams(d.ecnKminBytes() * k, d.ecnKmaxBytes() * k * (1 + 0.05 * physical.nextDouble()),
            d.ecnPmax(), d.bufferPerPortBytes() * (1 + 0.1 * physical.nextDouble()), d.pfcOverload() * (1 + 0.05 * (physical.nextDouble() - 0.5)),
            d.cnpIntervalUs(), d.tailToMeanQueue());
        Scenario generated = scenario;
        if (varies(Hidden.PHYSICS)) {
            perturbed = new ModelParams(d.ecnKminBytes() * draw.kminScale(), d.ecnKmaxBytes() * draw.kmaxScale(), d.ecnPmax(),
                d.bufferPerPortBytes() * draw.bufferScale(), perturbed.pfcOverload(), d.cnpIntervalUs(), d.tailToMeanQueue());
        }
        if (varies(Hidden.ECMP_HASH)) {
            final Routing r = scenario.routing();
            generated = scenario.withRouting(new Routing(r.mode(), draw.hashSeed(), r.sameSeedEverywhere()));
        }
        this.twin = Twin.withFaults(generated, perturbed);
        this.twin.simulation().setComputeJitter(profile.phaseDrift());
        this.ports = twin.fabric().ports();
        final SplittableRandom clocks = stream(scenario.seed(), 2);
        for (final Node n : twin.fabric().nodes()) {
            deviceSkewMs.put(n.name(), profile.clockSkewMs() * (clocks.nextDouble() * 2 - 1));
            if (draw != null) {
                final RealityDraw.Device dev = draw.device(n.name());
                devices.put(n.name(), dev);
                if (varies(Hidden.CLOCK)) {
                    deviceSkewMs.put(n.name(), dev.pollPhaseMs());
                }
            }
        }
        final SplittableRandom reboots = stream(scenario.seed(), 3);
        final List<Node> candidates = new ArrayList<>(twin.fabric().nodes());
        final double duration = scenario.duration().toMillis() / 1000.0;
        for (int r = 0; r < Math.min(profile.reboots(), candidates.size()); r++) {
            final Node n = candidates.remove(reboots.nextInt(candidates.size()));
            rebootAt.put(n.name(), duration * (0.2 + 0.6 * reboots.nextDouble()));
        }
    }

    private boolean varies(final Hidden h) {
        return draw != null && draw.varies(h);
    }

    /** The randomized reality's draw, or null for the fixed one (for tests and reports, never for the analyzer). */
    public RealityDraw realityDraw() {
        return draw;
    }

    public Fabric fabric() {
        return twin.fabric();
    }

    public Twin twin() {
        return twin;
    }

    public Scenario scenario() {
        return scenario;
    }

    /** Devices that reboot during the run and when (scenario seconds). */
    public Map<String, Double> reboots() {
        return Map.copyOf(rebootAt);
    }

    public List<TruthRecord> truth() {
        final List<TruthRecord> out = new ArrayList<>();
        for (final FaultSpec f : scenario.faults()) {
            final Map<String, Double> params = new TreeMap<>();
            FaultDefaults.of(f.type()).keySet().forEach(k -> params.put(k, f.param(k)));
            out.add(new TruthRecord(f.id(), f.type(), f.target(), scenario.epochMillis(f.start()),
                scenario.epochMillis(f.end()), params));
        }
        return out;
    }

    /**
     * Runs the whole scenario, handing every delivered sample to {@code sink} in delivery order.
     * {@code progress} hears the number of rounds done after each round. Returns the samples delivered.
     */
    public long run(final SampleSink sink, final LongConsumer progress) {
        final double interval = scenario.sampleInterval().toMillis() / 1000.0;
        final int rounds = (int) Math.floor(scenario.duration().toMillis() / (double) scenario.sampleInterval().toMillis());
        final SplittableRandom timing = stream(scenario.seed(), 4);
        final SplittableRandom delivery = stream(scenario.seed(), 5);
        final SplittableRandom noise = stream(scenario.seed(), 6);
        final SplittableRandom offsets = stream(scenario.seed(), 7);
        final CounterIntegrator integrator = twin.counters();
        final Map<PortRef, PortState> state = new LinkedHashMap<>();
        final double counterStartMax = Math.pow(2, profile.counterBits() - 1);
        for (final PortRef p : ports) {
            state.put(p, new PortState(offsets.nextDouble() * counterStartMax));
        }
        final double jitterMs = varies(Hidden.CLOCK) ? draw.pollJitterMs() : profile.jitterMs();
        final double lossRate = varies(Hidden.DELIVERY) ? draw.lossRate() : profile.lossRate();
        final double lateRate = varies(Hidden.DELIVERY) ? draw.lateRate() : profile.lateRate();
        final boolean spread = varies(Hidden.READ_SPREAD);
        final double maxSkewMs = varies(Hidden.CLOCK) ? Math.max(Math.abs(draw.ranges().pollPhaseMs().lo()),
            Math.abs(draw.ranges().pollPhaseMs().hi())) : profile.clockSkewMs();
        final double horizon = 1.0 + (maxSkewMs + jitterMs + (spread ? draw.ranges().readSpreadMs().hi() : 0)) / 1000;
        final ControlFrames control = varies(Hidden.CONTROL_FRAMES) ? new ControlFrames(draw, twin.fabric(), integrator) : null;
        final SplittableRandom reads = stream(scenario.seed() ^ (draw == null ? 0 : draw.runSeed()), 8);
        final PriorityQueue<Pending> late = new PriorityQueue<>();
        long delivered = 0;
        long lateSequence = 0;
        for (int k = 1; k <= rounds; k++) {
            final double roundTime = k * interval;
            twin.simulation().runUntil(roundTime + horizon);
            // counters are integrated from each port's last poll, never further back: memory stays the fabric's
            twin.simulation().forgetBefore(roundTime - Math.max(HISTORY_S, 5 * interval));
            for (final PortRef p : ports) {
                final PortState ps = state.get(p);
                final RealityDraw.Device dev = devices.get(p.device());
                // with a read spread the next poll must start after this one's last read, or a counter could go back
                final double minGap = 1e-3 + (spread ? dev.readSpreadMs() / 1000 : 0);
                final double t = Math.max(ps.lastT + minGap,
                    roundTime + (deviceSkewMs.get(p.device()) + jitterMs * (timing.nextDouble() * 2 - 1)) / 1000);
                final double previousT = ps.lastT;
                final PortCounters c = integrator.expected(p, ps.lastT, t);
                ps.lastT = t;
                final Double reboot = rebootAt.get(p.device());
                if (reboot != null && !ps.rebooted && t >= reboot) {
                    ps.rebooted = true;
                    ps.cumulative.clear();
                    ps.base = 0;
                    continue; // the device is rebooting: this round's sample is never taken
                }
                for (final var e : deviceMarking(p, c.counters()).entrySet()) {
                    ps.cumulative.merge(e.getKey(), e.getValue(), Double::sum);
                }
                if (control != null) {
                    control.count(p, previousT, t, c, ps.cumulative);
                }
                if (delivery.nextDouble() < lossRate) {
                    continue;
                }
                final Sample s;
                if (draw == null) {
                    s = sample(p, ps, c, scenario.epochMillis(t), noise);
                } else {
                    // counters read up to the device's spread after the poll: what [t, t + spread] adds, a share each
                    final Map<String, Double> later = spread
                        ? deviceMarking(p, integrator.expected(p, t, t + dev.readSpreadMs() / 1000).counters()) : Map.of();
                    final long ts = scenario.epochMillis(varies(Hidden.CLOCK) ? dev.clock(t) : t);
                    s = sample(p, ps, c, ts, noise, later, reads, dev);
                }
                if (delivery.nextDouble() < lateRate) {
                    late.add(new Pending(k + 1 + delivery.nextInt(MAX_LATE_ROUNDS), lateSequence++, s));
                    continue;
                }
                sink.accept(s);
                delivered++;
            }
            while (!late.isEmpty() && late.peek().round <= k) {
                sink.accept(late.poll().sample);
                delivered++;
            }
            progress.accept(k);
        }
        while (!late.isEmpty()) {
            sink.accept(late.poll().sample);
            delivered++;
        }
        return delivered;
    }

    private Sample sample(final PortRef p, final PortState ps, final PortCounters c, final long ts, final SplittableRandom noise) {
        return sample(p, ps, c, ts, noise, Map.of(), null, null);
    }

    private Sample sample(final PortRef p, final PortState ps, final PortCounters c, final long ts, final SplittableRandom noise,
                          final Map<String, Double> later, final SplittableRandom reads, final RealityDraw.Device dev) {
        final Map<String, Long> counters = new LinkedHashMap<>();
        final boolean wrap32 = profile.counterBits() == 32;
        for (final var e : ps.cumulative.entrySet()) {
            // Traffic counters have run since long before the capture; error and pause counters start near 0.
            final String name = e.getKey();
            if (!fecCounted() && (name.equals(CounterNames.FEC_CORRECTED) || name.equals(CounterNames.FEC_UNCORRECTABLE))) {
                continue; // this world's devices expose FCS errors only
            }
            final double start = name.endsWith("_bytes") ? ps.base
                : name.endsWith("_packets") ? Math.floor(ps.base / 1500 * (1 + (name.hashCode() & 0xff) / 256.0)) : 0;
            final double readLate = later.isEmpty() ? 0 : later.getOrDefault(name, 0.0) * reads.nextDouble();
            final double v = Math.floor(start + e.getValue() + readLate);
            final long raw = v >= 0x1p63 ? (long) (v - 0x1p64) : (long) v; // unsigned 64-bit in a long
            counters.put(e.getKey(), wrap32 ? raw & 0xFFFF_FFFFL : raw);
        }
        final Map<String, Double> gauges = new LinkedHashMap<>();
        final double gaugeNoise = varies(Hidden.GAUGE_NOISE) ? dev.gaugeNoise() : profile.gaugeNoise();
        for (final var e : c.gauges().entrySet()) {
            final String name = e.getKey();
            final boolean exact = name.equals(CounterNames.OPER_UP) || name.equals(CounterNames.SPEED_BPS);
            final double factor = exact ? 1 : Math.max(0, 1 + gaugeNoise * gaussian(noise));
            double value = e.getValue();
            if (varies(Hidden.PHYSICS) && (name.equals(CounterNames.LATENCY_P50_US) || name.equals(CounterNames.LATENCY_P99_US))) {
                value += (dev.latencyScale() - 1) * baseLatencyUs(p); // this device is faster or slower than the nominal
            }
            if (varies(Hidden.PHYSICS) && name.equals(CounterNames.LATENCY_P99_US)) {
                value *= portLatencyScale(p); // this port's steady tail level (its device, its traffic pattern)
            }
            // devices report gauges to a few decimals, not to the last bit of a double
            gauges.put(name, Math.round(value * factor * 1000) / 1000.0);
        }
        return new Sample(ts, p.device(), p.port(), "sim", counters, gauges);
    }

    /** Whether this run's devices report FEC counters (always, unless the randomized physics says otherwise). */
    private boolean fecCounted() {
        return !varies(Hidden.PHYSICS) || draw.fecCounters();
    }

    /**
     * A port's counter increments as its device reports them: with randomized physics its ECN marks are the twin's
     * times the device's marking scale (its own marking curve), never more than the packets it sent.
     */
    private Map<String, Double> deviceMarking(final PortRef p, final Map<String, Double> increments) {
        final Double marks = increments.get(CounterNames.ECN_MARKED);
        if (!varies(Hidden.PHYSICS) || marks == null || marks == 0) {
            return increments;
        }
        final Map<String, Double> out = new LinkedHashMap<>(increments);
        final double packets = increments.getOrDefault(CounterNames.TX_PACKETS, 0.0);
        out.put(CounterNames.ECN_MARKED, Math.min(packets, marks * devices.get(p.device()).markingScale()));
        return out;
    }

    /** A port's steady P99 level relative to the twin's (randomized physics only). */
    private double portLatencyScale(final PortRef p) {
        return portLatency.computeIfAbsent(p, q -> draw.port(q, !twin.fabric().node(twin.fabric().txNode(
            twin.fabric().txLink(q))).isHost()).latencyScale());
    }

    private double baseLatencyUs(final PortRef p) {
        final Fabric f = twin.fabric();
        final boolean host = f.node(f.txNode(f.txLink(p))).isHost();
        return host ? f.technology().nicLatencyUs() : f.technology().hopLatencyUs();
    }

    private static double gaussian(final SplittableRandom r) {
        final double u = 1 - r.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    /** An independent random stream per purpose, derived from the scenario seed. */
    static SplittableRandom stream(final long seed, final int purpose) {
        return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + purpose * 0xBF58476D1CE4E5B9L);
    }

    private static final class PortState {
        double base;
        double lastT;
        boolean rebooted;
        final Map<String, Double> cumulative = new LinkedHashMap<>();

        PortState(final double base) {
            this.base = base;
        }
    }

    private record Pending(int round, long sequence, Sample sample) implements Comparable<Pending> {
        @Override
        public int compareTo(final Pending o) {
            final int c = Integer.compare(round, o.round);
            return c != 0 ? c : Long.compare(sequence, o.sequence);
        }
    }
}
