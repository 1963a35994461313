package dev.fabrictwin.twin.sim;

import static dev.fabrictwin.twin.TwinFixtures.shipped;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.fabric.PortRef;
import dev.fabrictwin.twin.model.ModelParams;
import dev.fabrictwin.twin.scenario.ScenarioParser;

/**
 * Pins the simulation to the bit: library scenarios run for a minute or more of simulated time, and a SHA-256 of every
 * iteration record, flow completion and every port's counters and gauges over each second must stay what the
 * simulation gave before it was carved into parts. A change of physics changes these digests on purpose:
 * record the new ones, and say why, in the same commit.
 */
class SimulationDigestTest {

    @Test
    void shouldGiveTheSameCountersAsBeforeWithFaultsAndJitter() {
        final Twin twin = twin("mixed-down-drop-ecn.yaml");
        twin.simulation().setComputeJitter(0.03);
        assertThat(digest(twin, 90))
            .isEqualTo("a90aea941e9ad82c2d2c83c5d6b2e2afaa9b120985a1bf840b93a2b5aa6c0057");
    }

    @Test
    void shouldGiveTheSameCountersAsBeforeThroughAPfcStorm() {
        final Twin twin = twin("pfc-storm-small.yaml");
        twin.simulation().runUntil(100);
        twin.simulation().forgetBefore(100);
        assertThat(digest(twin, 100, 140))
            .isEqualTo("df32a6d704c4bfe5ef3f32184a4cd73cef0915b1f3fd10e0a7aa4ff799335d22");
    }

    @Test
    void shouldGiveTheSameCountersAsBeforeForExplicitFlowsOnTheCompletionGrid() {
        final Twin twin = twin("ecmp-undeclared.yaml");
        twin.simulation().setCompletionGrid(0.05);
        assertThat(digest(twin, 60))
            .isEqualTo("2a847ddaa171cfd74da2fd47bf6e125a751e33428fd61909fca025da65e6d0dd");
    }

    @Test
    void shouldGiveTheSameIterationsAsBeforeWithoutCongestionControl() {
        final Twin twin = twin("fidelity/ringx-64m-2to1.yaml");
        twin.simulation().stopRecording();
        twin.simulation().runUntil(5);
        final MessageDigest sha = sha();
        records(twin.simulation(), sha);
        assertThat(HexFormat.of().formatHex(sha.digest()))
            .isEqualTo("b5652632cc2db7778c2b3ea1e3d4fa2fe233a2a4fac3e5f934780aec9a98f9fc");
    }

    @Test
    void shouldGiveTheSameCountersAsBeforeForFlowClasses() {
        final Twin twin = twin("all-to-all-classes.yaml");
        assertThat(digest(twin, 8))
            .isEqualTo("fe89d3d317e5418197be335cffc1f365a1aef6a8bdd396b3554163d8ecff4a71");
    }

    private static Twin twin(final String scenario) {
        return Twin.withFaults(ScenarioParser.parse(shipped(scenario)), ModelParams.defaults());
    }

    private static String digest(final Twin twin, final int seconds) {
        return digest(twin, 0, seconds);
    }

    /** Runs to {@code to} and hashes the records and every port's counters over each second from {@code from}. */
    private static String digest(final Twin twin, final int from, final int to) {
        twin.simulation().runUntil(to);
        final MessageDigest sha = sha();
        records(twin.simulation(), sha);
        final CounterIntegrator counters = twin.counters();
        for (final PortRef port : twin.fabric().ports()) {
            for (int t = from; t < to; t++) {
                final PortCounters c = counters.expected(port, t, t + 1);
                put(sha, port.toString());
                put(sha, new TreeMap<>(c.counters()));
                put(sha, new TreeMap<>(c.gauges()));
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static void records(final FluidSimulation sim, final MessageDigest sha) {
        for (final IterationRecord r : sim.iterations()) {
            put(sha, r.job() + '#' + r.iteration());
            put(sha, r.computeStart(), r.commStart(), r.commEnd());
        }
        for (final FlowCompletion f : sim.flowCompletions()) {
            put(sha, f.flow() + '#' + f.round());
            put(sha, f.start(), f.end());
        }
    }

    private static void put(final MessageDigest sha, final Map<String, Double> values) {
        values.forEach((k, v) -> {
            put(sha, k);
            put(sha, v);
        });
    }

    private static void put(final MessageDigest sha, final String s) {
        sha.update(s.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
    }

    private static void put(final MessageDigest sha, final double... values) {
        final ByteBuffer b = ByteBuffer.allocate(8 * values.length);
        for (final double v : values) {
            b.putLong(Double.doubleToRawLongBits(v));
        }
        sha.update(b.array());
    }

    private static MessageDigest sha() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
