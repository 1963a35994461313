package dev.fabrictwin.twin.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FrozenMapTest {

    /** Below, at and past the size where lookups stop scanning and hash (a 1 MiB record of short names has ~150,000). */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, FrozenMap.SCAN_MAX, FrozenMap.SCAN_MAX + 1, 150_000})
    void shouldFindEveryKeyInTheOrderItCameAndKeepTheFirstOfARepeat(final int n) {
        final FrozenMap.Builder<Long> b = new FrozenMap.Builder<>(4);
        final List<String> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add("c" + i);
            assertThat(b.putNew("c" + i, (long) i)).isTrue();
        }
        for (int i = 0; i < n; i++) {
            assertThat(b.putNew(new String("c" + i), -1L)).as("a repeat, by value not identity").isFalse();
        }
        if (n > 0) {
            b.put("c0", 42L); // put replaces
        }

        final FrozenMap<Long> map = b.build();

        assertThat(map).hasSize(n);
        assertThat(map.keySet()).containsExactlyElementsOf(keys);
        for (int i = 1; i < n; i++) {
            assertThat(map.get(new String("c" + i))).isEqualTo(i);
        }
        assertThat(map.get("c" + n)).isNull();
        assertThat(map.containsKey("missing")).isFalse();
        if (n > 0) {
            assertThat(map.get("c0")).isEqualTo(42L);
        }
    }

    @Test
    void shouldReadEntriesByPositionAndFindAKeyWhereAnotherMapHadIt() {
        final FrozenMap<Long> map = new FrozenMap.Builder<Long>(4).put("tx_bytes", 1L).put("rx_bytes", 2L)
            .put("ecn_marked", 3L).build();

        assertThat(map.keyAt(1)).isEqualTo("rx_bytes");
        assertThat(map.valueAt(2)).isEqualTo(3L);
        assertThat(map.indexOf("rx_bytes", 1)).isEqualTo(1);
        assertThat(map.indexOf("rx_bytes", 0)).as("a wrong hint: found by the scan").isEqualTo(1);
        assertThat(map.indexOf(new String("ecn_marked"), 2)).as("equal, not the same instance").isEqualTo(2);
        assertThat(map.indexOf("cnp_sent", 7)).isEqualTo(-1);
        assertThatThrownBy(() -> map.keyAt(3)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void shouldFindKeysOfALargeMapReadBackFromItsSerializedForm() throws IOException, ClassNotFoundException {
        final FrozenMap.Builder<Double> b = new FrozenMap.Builder<>(4);
        for (int i = 0; i < 1_000; i++) {
            b.putAbsent("g" + i, i / 2.0);
        }
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(b.build());
        }

        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            @SuppressWarnings("unchecked")
            final FrozenMap<Double> back = (FrozenMap<Double>) in.readObject();
            assertThat(back.get("g999")).isEqualTo(499.5);
            assertThat(back.get("g1000")).isNull();
        }
    }

    @Test
    void shouldRefuseANullKeyAndAChangeAfterItWasBuiltWithTheirReasons() {
        final FrozenMap.Builder<Long> b = new FrozenMap.Builder<>(4);
        assertThatThrownBy(() -> b.put(null, 1L)).isInstanceOf(NullPointerException.class)
            .hasMessage("a FrozenMap key must not be null");
        assertThatThrownBy(() -> b.putAbsent(null, 1L)).hasMessage("a FrozenMap key must not be null");
        b.put("tx_bytes", 1L);
        final FrozenMap<Long> built = b.build();

        assertThatThrownBy(() -> b.put("tx_bytes", 2L)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("was built");
        assertThatThrownBy(() -> b.put("rx_bytes", 2L)).isInstanceOf(IllegalStateException.class);
        assertThat(built).containsExactly(java.util.Map.entry("tx_bytes", 1L));
    }
}
