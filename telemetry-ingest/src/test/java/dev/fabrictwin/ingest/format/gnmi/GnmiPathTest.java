package dev.fabrictwin.ingest.format.gnmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class GnmiPathTest {

    @Test
    void shouldParseARepeatedPathOnceAndHandOutTheSameUnmodifiableElements() {
        final String path = "/srl_nokia-interfaces:interface[name=ethernet-1/7]/statistics/in-octets";

        final List<GnmiPath.Elem> first = GnmiPath.parse(path);

        assertThat(first).containsExactly(new GnmiPath.Elem("interface", Map.of("name", "ethernet-1/7")),
            new GnmiPath.Elem("statistics", Map.of()), new GnmiPath.Elem("in-octets", Map.of()));
        assertThat(GnmiPath.parse(new String(path))).isSameAs(first);
        assertThatThrownBy(() -> first.add(new GnmiPath.Elem("x", Map.of()))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void shouldParseALongPathEachTimeRatherThanKeepIt() {
        final String path = "/interface[name=" + "e".repeat(600) + "]/statistics/in-octets";

        final List<GnmiPath.Elem> first = GnmiPath.parse(path);

        assertThat(first.get(0).keys()).containsEntry("name", "e".repeat(600));
        assertThat(GnmiPath.parse(path)).isEqualTo(first).isNotSameAs(first);
    }
}
