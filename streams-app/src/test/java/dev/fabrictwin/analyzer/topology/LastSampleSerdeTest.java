package dev.fabrictwin.analyzer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.twin.telemetry.Sample;

class LastSampleSerdeTest {

    /** Table names and others, an unsigned counter past 2^63, a fractional gauge, names beyond ASCII. */
    private static Sample sample() {
        final Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("tx_bytes", 1_234_567_890_123L);
        counters.put("vendor_crc_errors", 7L);
        counters.put("rx_bytes", -2L); // 2^64 - 2, unsigned
        final Map<String, Double> gauges = new LinkedHashMap<>();
        gauges.put("speed_bps", 400e9);
        gauges.put("temperature_c", 41.375);
        return new Sample(1_735_689_600_000L, "leaf-ü1", "Ethernet1/5", "gnmic", counters, gauges);
    }

    @Test
    void shouldReadBackTheSampleItWrote() {
        final byte[] bytes = LastSampleSerde.write(sample());

        assertThat(bytes[0]).isEqualTo((byte) 1);
        assertThat(LastSampleSerde.read(bytes)).isEqualTo(sample());
        assertThat(LastSampleSerde.read(bytes).counters()).containsExactlyEntriesOf(sample().counters());
    }

    @Test
    void shouldReadAValueTheStoreHeldAsCanonicalJsonBeforeTheBinaryForm() {
        final byte[] json = SampleJson.writeBytes(sample());

        assertThat(LastSampleSerde.read(json)).isEqualTo(sample());
        assertThat(LastSampleSerde.read((" \n" + new String(json, StandardCharsets.UTF_8))
            .getBytes(StandardCharsets.UTF_8))).isEqualTo(sample());
    }

    @Test
    void shouldReadANegativeZeroGaugeAsZeroAsTheJsonFormDid() {
        final Sample withMinusZero = new Sample(1_735_689_600_000L, "leaf-1", "eth0", "", Map.of(),
            Map.of("queue_depth_bytes", -0.0));

        final double fromBinary = LastSampleSerde.read(LastSampleSerde.write(withMinusZero)).gauges().get("queue_depth_bytes");
        final double fromJson = LastSampleSerde.read(SampleJson.writeBytes(withMinusZero)).gauges().get("queue_depth_bytes");

        assertThat(Double.doubleToRawLongBits(fromBinary)).isEqualTo(Double.doubleToRawLongBits(fromJson))
            .isEqualTo(Double.doubleToRawLongBits(0.0));
    }

    @Test
    void shouldRefuseAnUnknownVersionAndATruncatedRecordInOneLine() {
        final byte[] bytes = LastSampleSerde.write(sample());
        final byte[] future = bytes.clone();
        future[0] = 5;

        assertThatThrownBy(() -> LastSampleSerde.read(future))
            .hasMessage("unknown last-sample encoding version 5");
        assertThatThrownBy(() -> LastSampleSerde.read(Arrays.copyOf(bytes, 20)))
            .hasMessage("truncated last-sample record of 20 bytes");
    }

    @Test
    void shouldTakeATombstoneForNoSample() {
        assertThat(LastSampleSerde.write(null)).isNull();
        assertThat(LastSampleSerde.read(null)).isNull();
        assertThat(LastSampleSerde.writeHeld(null)).isNull();
        assertThat(LastSampleSerde.readHeld(null)).isNull();
    }

    @Test
    void shouldReadBackAHeldSampleAndAMarkWithTheirBatchNumbers() {
        final byte[] held = LastSampleSerde.writeHeld(new HeldSample(sample(), 42));
        final byte[] mark = LastSampleSerde.writeHeld(HeldSample.sentThrough(1L << 40));

        assertThat(held[0]).isEqualTo((byte) 2);
        assertThat(held).hasSize(LastSampleSerde.write(sample()).length + 8);
        assertThat(LastSampleSerde.readHeld(held)).isEqualTo(new HeldSample(sample(), 42));
        assertThat(mark).hasSize(9);
        assertThat(LastSampleSerde.readHeld(mark)).satisfies(m -> {
            assertThat(m.isMark()).isTrue();
            assertThat(m.batch()).isEqualTo(1L << 40);
        });
        assertThatThrownBy(() -> LastSampleSerde.readHeld(Arrays.copyOf(held, 6)))
            .hasMessage("truncated last-sample record of 6 bytes");
        assertThatThrownBy(() -> LastSampleSerde.readHeld(Arrays.copyOf(mark, 10)))
            .hasMessage("last-sample mark of 10 bytes, not 9");
    }

    @Test
    void shouldReadASampleStoredBeforeBatchNumbersAsUnnumbered() {
        for (final byte[] before : List.of(LastSampleSerde.write(sample()), SampleJson.writeBytes(sample()))) {
            assertThat(LastSampleSerde.readHeld(before)).isEqualTo(new HeldSample(sample(), HeldSample.UNNUMBERED));
        }
    }
}
