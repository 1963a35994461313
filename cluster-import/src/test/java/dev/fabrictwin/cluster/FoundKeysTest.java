package dev.fabrictwin.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fabrictwin.cluster.topology.EosLldpJson;

class FoundKeysTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aKeyWithALineBreakStaysOnOneLine() {
        // the fuzzer's find: an EOS document whose only key is a newline made a two-line error
        final ObjectNode root = JSON.createObjectNode().put("\n", 1);
        assertThatThrownBy(() -> EosLldpJson.read("leaf-1", root)).hasMessage("not EOS 'show lldp neighbors detail | "
            + "json' output: expected an object with lldpNeighbors, found keys [\\n]");
    }

    @Test
    void controlCharactersAreEscapedAndLongKeysCut() {
        assertThat(FoundKeys.printable("a\tb\r\u001b\u2028")).isEqualTo("a\\tb\\r\\u001b\\u2028");
        assertThat(FoundKeys.printable("k".repeat(100))).isEqualTo("k".repeat(FoundKeys.MAX_KEY_LENGTH) + "...");
    }

    @Test
    void onlyTheFirstKeysAreListed() {
        final ObjectNode root = JSON.createObjectNode();
        for (int i = 0; i < 10; i++) {
            root.put("k" + i, i);
        }
        assertThat(FoundKeys.of(root, 3)).isEqualTo("[k0, k1, k2]...");
        assertThat(FoundKeys.of(root, 10)).isEqualTo("[k0, k1, k2, k3, k4, k5, k6, k7, k8, k9]");
        assertThat(FoundKeys.of(null, 3)).isEqualTo("[]");
    }
}
