package dev.fabrictwin.contract.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import dev.fabrictwin.twin.telemetry.Sample;

/** The fast path and Jackson agree on everything: same sample, or the fast path defers. */
class SampleJsonProperties {

    @Property(tries = 500)
    void writingThenReadingGivesTheSameSampleOnBothPaths(@ForAll("samples") final Sample sample) throws Exception {
        final byte[] json = SampleJson.writeBytes(sample);

        final Sample jackson = SampleJson.readWithJackson(json, 0, json.length);
        assertThat(jackson).isEqualTo(sample);
        final Sample fast = CanonicalFastPath.tryParse(json, 0, json.length);
        if (fast != null) {
            assertThat(fast).isEqualTo(jackson);
        }
        assertThat(SampleJson.write(SampleJson.read(json))).isEqualTo(new String(json, StandardCharsets.UTF_8));
    }

    @Property(tries = 1000)
    void aMutatedLineIsNeverAcceptedByTheFastPathUnlessJacksonAcceptsTheSame(
            @ForAll("samples") final Sample sample, @ForAll @IntRange(min = 0, max = 10_000) final int at,
            @ForAll("edits") final String edit) {
        final String text = SampleJson.write(sample);
        final int pos = (int) ((long) at * text.length() / 10_000);
        final byte[] mutated = (text.substring(0, pos) + edit + text.substring(Math.min(text.length(), pos + 1)))
            .getBytes(StandardCharsets.UTF_8);

        final Sample fast = CanonicalFastPath.tryParse(mutated, 0, mutated.length);
        Sample jackson;
        try {
            jackson = SampleJson.readWithJackson(mutated, 0, mutated.length);
        } catch (SampleFormatException e) {
            jackson = null;
        }
        if (fast != null) {
            assertThat(fast).isEqualTo(jackson);
        }
    }

    @Provide
    Arbitrary<Sample> samples() {
        final Arbitrary<String> names = Arbitraries.of("tx_bytes", "rx_bytes", "tx_pfc_pause.3", "ecn_marked", "in-octets",
            "weird name", "ünï", "q\"uote", "back\\\\slash");
        final Arbitrary<Long> counterValues = Arbitraries.oneOf(Arbitraries.longs().between(0, 1_000),
            Arbitraries.longs().between(0, Long.MAX_VALUE), Arbitraries.longs().between(Long.MIN_VALUE, -1)); // unsigned high half
        final Arbitrary<Double> gaugeValues = Arbitraries.oneOf(Arbitraries.doubles().between(-1e6, 1e12),
            Arbitraries.of(0.0, 1.0, 1.473, 400e9, 1e-7, 123456.789012345));
        final Arbitrary<Map<String, Long>> counters = Arbitraries.maps(names, counterValues).ofMaxSize(8)
            .map(LinkedHashMap::new);
        final Arbitrary<Map<String, Double>> gauges = Arbitraries.maps(names, gaugeValues).ofMaxSize(4)
            .map(LinkedHashMap::new);
        return Combinators.combine(Arbitraries.longs().between(1, 4_102_444_800_000L),
                Arbitraries.of("leaf-2", "host-0", "dev ice", "ü"), Arbitraries.of("eth5", "nic0", "1/1/c1"),
                Arbitraries.of("sim", "", "gnmic"), counters, gauges)
            .as(Sample::new);
    }

    @Provide
    Arbitrary<String> edits() {
        return Arbitraries.of("", "-", "0", "00", "1e5", ".", ".5", "\"", "\\", "{", "}", ",", ":", " ", "\n", "x",
            "99999999999999999999", "NaN", "null", "\u0001", "é");
    }
}
