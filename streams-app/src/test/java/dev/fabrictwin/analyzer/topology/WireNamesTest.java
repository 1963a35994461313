package dev.fabrictwin.analyzer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WireNamesTest {

    @Test
    void shouldGiveEachNameOfTheTableItsCodeWhateverStringSpellsIt() {
        for (int code = 1; ; code++) {
            final String name;
            try {
                name = WireNames.name(code);
            } catch (IllegalArgumentException end) {
                assertThat(code).as("the table's size").isEqualTo(46);
                break;
            }
            assertThat(WireNames.code(name)).isEqualTo(code);
            assertThat(WireNames.code(new String(name.toCharArray()))).as("not the interned instance").isEqualTo(code);
        }
    }

    @Test
    void shouldGiveNoCodeToANameOutsideTheTable() {
        for (final String name : new String[] {"", "tx_byte", "tx_bytes ", "TX_BYTES", "vendor_crc_errors", "tx_pfc_pause.8"}) {
            assertThat(WireNames.code(name)).as(name).isZero();
        }
    }
}
