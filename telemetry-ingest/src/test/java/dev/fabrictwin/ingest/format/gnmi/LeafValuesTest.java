package dev.fabrictwin.ingest.format.gnmi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.ingest.format.support.InputValue;

class LeafValuesTest {

    @Test
    void shouldReadNumbersInStringsAsRfc7951WritesThem() {
        assertThat(LeafValues.ofText(" +12 ")).isEqualTo(InputValue.integer("12"));
        assertThat(LeafValues.ofText("-5")).isEqualTo(InputValue.integer("-5"));
        assertThat(LeafValues.ofText("1.5e3")).isEqualTo(InputValue.number("1500.0", 1500));
        assertThat(LeafValues.ofText("1e999").kind()).isEqualTo(InputValue.Kind.NON_FINITE);
        assertThat(LeafValues.ofText("12u")).isEqualTo(InputValue.string("12u")); // JSON has no integer suffix
        assertThat(LeafValues.ofText("UP")).isEqualTo(InputValue.string("UP"));
    }
}
