package dev.fabrictwin.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.model.CounterNames;
import dev.fabrictwin.twin.scenario.Scenario;
import dev.fabrictwin.twin.scenario.ScenarioParser;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * A fabric whose ports export rates ({@code tx_bps}, {@code rx_bps}) instead of byte counters is judged like
 * one that exports the counters.
 */
class RateTelemetryTest {

    private static final Set<FaultType> JUDGED = Set.of(FaultType.LINK_DOWN, FaultType.UNEXPECTED_TRAFFIC);

    private static Scenario scenario() {
        return ScenarioParser.parse(ScenarioParser.tree("""
            name: rates
            seed: 5
            duration: 90s
            fabric: {kind: spine-leaf, spines: 4, leaves: 4, hostsPerLeaf: 4, nicsPerHost: 1, linkSpeed: 400G}
            jobs:
              - {id: ring, hosts: 8, pattern: ring-allreduce, bytesPerIteration: 8GB, iterationPeriod: 2s, commFraction: 0.35}
            faults:
              - {type: LINK_DOWN, target: {device: leaf-1, peer: spine-2}, start: 20s, end: 40s}
              - {type: UNEXPECTED_TRAFFIC, target: {device: host-13, port: nic0}, start: 50s, end: 80s, senders: 1}
            """), Path.of("."));
    }

    private static List<String> roots(final SimulatedRun run) {
        return run.alerts().stream()
            .filter(a -> a.state() == Alert.State.OPEN && a.rootCause() && JUDGED.contains(a.type()))
            .map(Alert::id).distinct().sorted().toList();
    }

    /** The samples as a rate exporter gives them: each port's byte counters replaced by its mean bit/s since its last sample. */
    private static List<Sample> ratesOnly(final List<Sample> samples) {
        final Map<String, Sample> last = new HashMap<>();
        final List<Sample> out = new ArrayList<>(samples.size());
        for (final Sample s : samples) {
            final Sample before = last.put(s.device() + "/" + s.port(), s);
            final Map<String, Long> counters = new LinkedHashMap<>(s.counters());
            counters.remove(CounterNames.TX_BYTES);
            counters.remove(CounterNames.RX_BYTES);
            final Map<String, Double> gauges = new LinkedHashMap<>(s.gauges());
            if (before != null && s.ts() > before.ts()) {
                final double seconds = (s.ts() - before.ts()) / 1000.0;
                gauges.put(CounterNames.TX_BPS, bitsPerSecond(before, s, CounterNames.TX_BYTES, seconds));
                gauges.put(CounterNames.RX_BPS, bitsPerSecond(before, s, CounterNames.RX_BYTES, seconds));
            }
            out.add(new Sample(s.ts(), s.device(), s.port(), "rates", counters, gauges));
        }
        return out;
    }

    private static double bitsPerSecond(final Sample before, final Sample now, final String counter, final double seconds) {
        return (now.counters().get(counter) - before.counters().get(counter)) * 8 / seconds;
    }

    @Test
    void shouldFindTheSameLinkDownAndUnexpectedTrafficFromRatesAsFromByteCounters() throws Exception {
        final AnalyzerConfig config = AnalyzerConfig.defaults(1_000);
        final SimulatedRun counted = SimulatedRun.of(scenario(), config);
        final SimulatedRun rates = SimulatedRun.of(scenario(), config, RateTelemetryTest::ratesOnly);

        assertThat(roots(counted)).containsExactly("LINK_DOWN:link:leaf-1~spine-2", "UNEXPECTED_TRAFFIC:port:host-13/nic0");
        assertThat(roots(rates)).isEqualTo(roots(counted));
    }
}
