package dev.fabrictwin.analyzer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.analyzer.rates.PortInterval;

class PortIntervalSerdeTest {

    @Test
    void shouldCarryTheGapAndTheEstimatedMarksApart() {
        final List<PortInterval> intervals = List.of(
            new PortInterval("leaf-1", "eth4", 1_000, 2_000, Map.of("tx_bytes", 5L, "link_flaps", 2L),
                Map.of("tx_bps", 40.0), false, 0, false, true),
            new PortInterval("leaf-1", "eth4", 2_000, 9_000, Map.of("tx_bytes", 7L), Map.of(), true, 1, true, false));

        final List<PortInterval> back = PortIntervalSerde.readList(PortIntervalSerde.writeList(intervals));

        assertThat(back).isEqualTo(intervals);
        assertThat(back.get(0).estimated()).isTrue();
        assertThat(back.get(0).gap()).isFalse();
        assertThat(back.get(1).estimated()).isFalse();
        assertThat(back.get(1).gap()).isTrue();
    }

    @Test
    void shouldCarryMoreCountersThanASignedShortCounts() {
        final Map<String, Long> increases = new HashMap<>();
        for (int i = 0; i < 40_000; i++) {
            increases.put("vendor_counter_" + i, (long) i);
        }
        final PortInterval v = new PortInterval("leaf-1", "eth4", 1_000, 2_000, increases, Map.of("tx_bps", 1.0), false, 0,
            false, false);

        assertThat(PortIntervalSerde.readList(PortIntervalSerde.writeList(List.of(v)))).containsExactly(v);
    }

    @Test
    void shouldWriteTheBytesADataOutputStreamWrote() throws IOException {
        // names as text too (no wire code; a NUL and non-ASCII, which DataOutputStream writes in modified UTF-8)
        final PortInterval v = new PortInterval("leaf-\u00e9\u0000\uD83D\uDE00", "eth4", 1_000, 2_000,
            Map.of("tx_bytes", 5L, "vendor_x", -3L), Map.of("tx_bps", 40.5, "temp_\u00b0c", Double.NaN), true, 7, true, true);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(2);
            out.writeInt(1);
            out.writeUTF(v.device());
            out.writeUTF(v.port());
            out.writeLong(v.t0());
            out.writeLong(v.t1());
            out.writeBoolean(v.reset());
            out.writeByte(3);
            out.writeInt(v.wraps());
            out.writeShort(v.increases().size());
            for (final var e : v.increases().entrySet()) {
                writeName(out, e.getKey());
                out.writeLong(e.getValue());
            }
            out.writeShort(v.gauges().size());
            for (final var e : v.gauges().entrySet()) {
                writeName(out, e.getKey());
                out.writeDouble(e.getValue());
            }
        }

        assertThat(PortIntervalSerde.writeList(List.of(v))).isEqualTo(bytes.toByteArray());
        assertThat(PortIntervalSerde.readList(bytes.toByteArray())).containsExactly(v);
    }

    @Test
    void shouldRefuseABrokenRecordWithItsReason() {
        final PortInterval v = new PortInterval("leaf-1", "eth4", 1_000, 2_000, Map.of("tx_bytes", 5L, "vendor_x", 1L),
            Map.of("tx_bps", 40.0), false, 0, false, false);
        final byte[] bytes = PortIntervalSerde.writeList(List.of(v));

        assertThatThrownBy(() -> PortIntervalSerde.readList(Arrays.copyOf(bytes, bytes.length - 3)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ends early");
        assertThatThrownBy(() -> PortIntervalSerde.readList(Arrays.copyOf(bytes, bytes.length + 1)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 bytes past its end");
        final byte[] hugeCount = bytes.clone();
        hugeCount[1] = 0x7F;
        assertThatThrownBy(() -> PortIntervalSerde.readList(hugeCount))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("intervals in");
    }

    @Test
    void shouldRefuseAMapThatRepeatsAName() throws IOException {
        for (final String name : List.of("tx_bytes", "vendor_x")) { // a coded name, a name written as text
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeByte(2);
                out.writeInt(1);
                out.writeUTF("leaf-1");
                out.writeUTF("eth4");
                out.writeLong(1_000);
                out.writeLong(2_000);
                out.writeBoolean(false);
                out.writeByte(0);
                out.writeInt(0);
                out.writeShort(2);
                writeName(out, name);
                out.writeLong(1);
                writeName(out, name);
                out.writeLong(2);
                out.writeShort(0);
            }

            assertThatThrownBy(() -> PortIntervalSerde.readList(bytes.toByteArray()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("repeats the name");
        }
    }

    @Test
    void shouldKeepTheWrittenOrderOfEachMap() { // the analysis reads a lane's maps in the order replay hands them over
        final Map<String, Long> increases = new LinkedHashMap<>();
        List.of("vendor_b", "tx_bytes", "vendor_a", "rx_bytes").forEach(n -> increases.put(n, (long) n.length()));
        final PortInterval v = new PortInterval("leaf-1", "eth4", 1_000, 2_000, increases, Map.of(), false, 0, false, false);

        final PortInterval back = PortIntervalSerde.readList(PortIntervalSerde.writeList(List.of(v))).get(0);

        assertThat(back.increases().keySet()).containsExactlyElementsOf(v.increases().keySet());
    }

    @Test
    void shouldJournalTheBatchItReadAsTheBytesItCameIn() {
        final byte[] bytes = PortIntervalSerde.writeList(List.of(new PortInterval("leaf-1", "eth4", 1_000, 2_000,
            Map.of("tx_bytes", 5L), Map.of(), false, 0, false, false)));

        final List<PortInterval> batch = PortIntervalSerde.readList(bytes);

        assertThat(PortIntervalSerde.writeList(batch)).isSameAs(bytes);
        assertThatThrownBy(() -> batch.add(batch.get(0))).isInstanceOf(UnsupportedOperationException.class);
        // an equal batch that is not the one read is written afresh
        final byte[] again = PortIntervalSerde.writeList(List.copyOf(batch));
        assertThat(again).isNotSameAs(bytes).isEqualTo(bytes);
    }

    private static void writeName(final DataOutputStream out, final String name) throws IOException {
        out.writeByte(WireNames.code(name));
        if (WireNames.code(name) == 0) {
            out.writeUTF(name);
        }
    }
}
