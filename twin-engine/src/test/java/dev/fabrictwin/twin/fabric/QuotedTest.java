package dev.fabrictwin.twin.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class QuotedTest {
    @Test
    void controlCharactersAreEscapedOntoOneLine() {
        assertThat(Quoted.of("a\nb\r\tc\u0000\u2028")).isEqualTo("'a\\nb\\r\\tc\\u0000\\u2028'");
    }

    @Test
    void longTextIsCutWithItsLength() {
        assertThat(Quoted.of("x".repeat(1000))).startsWith("'" + "x".repeat(Quoted.MAX_CHARS) + "…'")
            .endsWith("(1000 chars)");
    }

    @Test
    void theFuzzedTechnologyFailsOnOneLine() {
        assertThatThrownBy(() -> Technology.parse("\n"))
            .hasMessage("unknown technology '\\n' (expected roce, infiniband or ethernet)");
    }

    @Test
    void namesWithControlCharactersAreRefused() {
        assertThatThrownBy(() -> new Node(0, "leaf\n1", Tier.LEAF, -1))
            .hasMessage("node name must not contain control characters, was 'leaf\\n1'");
        assertThat(Quoted.requirePrintable("leaf-1 ü", "node name")).isEqualTo("leaf-1 ü");
    }
}
