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

    @Test
    void shouldTakeOnlyAsciiDigitsWithAnOptionalSignForAnInteger() {
        assertThat(LeafValues.isInteger("0")).isTrue();
        assertThat(LeafValues.isInteger("+65382630")).isTrue();
        assertThat(LeafValues.isInteger("-7")).isTrue();
        assertThat(LeafValues.isInteger("")).isFalse();
        assertThat(LeafValues.isInteger("+")).isFalse();
        assertThat(LeafValues.isInteger("-")).isFalse();
        assertThat(LeafValues.isInteger("1-2")).isFalse();
        assertThat(LeafValues.isInteger("+-1")).isFalse();
        assertThat(LeafValues.isInteger("\u0663")).isFalse(); // an Arabic-Indic three: a digit, but not JSON's
        assertThat(LeafValues.ofText("\u0663")).isEqualTo(InputValue.string("\u0663"));
        assertThat(LeafValues.ofText("-")).isEqualTo(InputValue.string("-"));
    }
}
