package dev.fabrictwin.contract.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import dev.fabrictwin.twin.fuzz.FuzzTries;
import dev.fabrictwin.twin.fuzz.JsonShapes;
import dev.fabrictwin.twin.fuzz.Mutants;
import dev.fabrictwin.twin.telemetry.Sample;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * The canonical codec on hostile bytes: every input is either a sample that writes back to itself or a
 * {@link SampleFormatException} with a reason; nothing else escapes (docs/development.md, Fuzzing).
 */
@Tag("fuzz")
@AddLifecycleHook(FuzzTries.class)
class SampleJsonFuzzProperties {

    private static final List<String> SEEDS = List.of(
        "{\"ts\":1700000000000,\"device\":\"leaf-2\",\"port\":\"eth5\",\"source\":\"sim\",\"counters\":{\"tx_bytes\":123,"
            + "\"rx_pfc_pause.3\":7,\"ecn_marked\":18446744073709551615},\"gauges\":{\"oper_up\":1,\"speed_bps\":4.0E11}}",
        "{\"device\":\"host-0\",\"port\":\"nic0\",\"ts\":1,\"counters\":{},\"gauges\":{\"queue_depth_bytes\":1.5e3}}",
        "{ \"ts\" : 1700000000001 , \"device\" : \"d\\u00fc\" , \"port\" : \"1/1/c1\" , \"extra\" : [1,{\"a\":null}] ,"
            + " \"counters\" : { \"in-octets\" : 0 } }");

    @Property(tries = 3000)
    void everyMutatedLineIsASampleOrARejectionWithAReason(@ForAll("mutants") final byte[] line) {
        assertReadsOrRejects(line);
    }

    @Property(tries = 1000)
    void everyStructuredDocumentIsASampleOrARejectionWithAReason(@ForAll("documents") final String json) {
        assertReadsOrRejects(json.getBytes(StandardCharsets.UTF_8));
    }

    @Example
    void deepNestingIsMalformedNotAStackOverflow() {
        assertRejected(Mutants.nested("[", 100_000), RejectReason.MALFORMED);
        assertRejected("{\"ts\":1,\"device\":\"d\",\"port\":\"p\",\"x\":" + Mutants.nested("{\"a\":", 100_000),
            RejectReason.MALFORMED);
    }

    @Example
    void aTwentyMegabyteLineIsRejectedWithoutReadingItAll() {
        final byte[] huge = Mutants.longLine("{\"ts\":1,\"device\":\"", 20 << 20);
        assertThatThrownBy(() -> SampleJson.read(huge)).isInstanceOf(SampleFormatException.class);
    }

    @Example
    void hostileNumbersGetTheirOwnReasons() throws SampleFormatException {
        assertRejected(line("\"ts\":32503680000000000000", "\"c\":1"), RejectReason.TIMESTAMP_OUT_OF_RANGE);
        assertRejected(line("\"ts\":0", "\"c\":1"), RejectReason.TIMESTAMP_OUT_OF_RANGE);
        assertRejected(line("\"ts\":1", "\"c\":-1"), RejectReason.NEGATIVE_COUNTER);
        assertRejected(line("\"ts\":1", "\"c\":18446744073709551616"), RejectReason.NON_NUMERIC);
        assertRejected(line("\"ts\":1", "\"c\":NaN"), RejectReason.MALFORMED);
        assertRejected("{\"ts\":1,\"device\":\"d\",\"port\":\"p\",\"gauges\":{\"g\":1e309}}", RejectReason.NOT_FINITE);
        // year 3000 and 2^63 are valid values here: the time window and counter jumps are the ingest's and analyzer's
        final Sample jump = SampleJson.read(line("\"ts\":32503680000000", "\"c\":9223372036854775808"));
        assertThat(jump.counters()).isEqualTo(Map.of("c", Long.MIN_VALUE));
        assertThat(jump.ts()).isEqualTo(32_503_680_000_000L);
    }

    /** Found by everyMutatedLineIsASampleOrARejectionWithAReason: "-0.0" read as -0.0, written as 0, read back as 0.0. */
    @Example
    void negativeZeroGaugeReadsAsZeroOnBothPaths() throws SampleFormatException {
        for (final String zero : List.of("-0", "-0.0", "-0e0", "\"-0\"")) {
            final byte[] json = ("{\"ts\":1,\"device\":\"d\",\"port\":\"p\",\"gauges\":{\"q\":" + zero + "}}")
                .getBytes(StandardCharsets.UTF_8);
            assertThat(SampleJson.read(json).gauges()).as(zero).isEqualTo(Map.of("q", 0.0));
            assertThat(SampleJson.readWithJackson(json, 0, json.length).gauges()).as(zero).isEqualTo(Map.of("q", 0.0));
        }
    }

    private static String line(final String ts, final String counter) {
        return "{" + ts + ",\"device\":\"d\",\"port\":\"p\",\"counters\":{" + counter + "}}";
    }

    private static void assertRejected(final String json, final RejectReason reason) {
        assertThatThrownBy(() -> SampleJson.read(json.getBytes(StandardCharsets.UTF_8)))
            .isInstanceOfSatisfying(SampleFormatException.class, e -> assertThat(e.reason()).isEqualTo(reason));
    }

    private static void assertReadsOrRejects(final byte[] line) {
        final Sample sample;
        try {
            sample = SampleJson.read(line);
        } catch (SampleFormatException e) {
            assertThat(e.reason()).isNotNull();
            assertThat(e.getMessage()).isNotBlank().doesNotContain("\n");
            return;
        }
        assertThat(sample.gauges().values()).allMatch(Double::isFinite);
        try {
            assertThat(SampleJson.read(SampleJson.writeBytes(sample))).isEqualTo(sample);
        } catch (SampleFormatException e) {
            throw new AssertionError("a sample it read does not read back: " + SampleJson.write(sample), e);
        }
    }

    @Provide
    Arbitrary<byte[]> mutants() {
        return Mutants.of(SEEDS.stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toList());
    }

    @Provide
    Arbitrary<String> documents() {
        return JsonShapes.documents(SEEDS);
    }
}
