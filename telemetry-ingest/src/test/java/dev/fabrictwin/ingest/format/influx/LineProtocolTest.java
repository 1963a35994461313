package dev.fabrictwin.ingest.format.influx;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.ingest.format.support.InputValue;

class LineProtocolTest {

    @Test
    void shouldReadNumbersInStringsWithLineProtocolSyntax() {
        assertThat(LineProtocol.numberInString(" 12 ")).isEqualTo(InputValue.integer("12"));
        assertThat(LineProtocol.numberInString("12u")).isEqualTo(InputValue.integer("12")); // the i/u suffix is line protocol's
        assertThat(LineProtocol.numberInString("-5i")).isEqualTo(InputValue.integer("-5"));
        assertThat(LineProtocol.numberInString("1.5").kind()).isEqualTo(InputValue.Kind.FLOAT);
        assertThat(LineProtocol.numberInString("t")).isEqualTo(InputValue.string("t")); // booleans stay state
        assertThat(LineProtocol.numberInString("lots")).isEqualTo(InputValue.string("lots"));
    }
}
