package dev.fabrictwin.contract.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Counters given as text: unsigned 64-bit decimal in ASCII digits, anything else refused with a bounded error. */
class SampleJsonCountersTest {

    @Test
    void aCounterAsTextIsReadAcrossTheWholeUnsigned64BitRange() throws SampleFormatException {
        assertThat(SampleJson.parseUnsigned(" 42 ", "rx_bytes")).isEqualTo(42);
        assertThat(SampleJson.parseUnsigned("999999999999999999", "rx_bytes")).isEqualTo(999_999_999_999_999_999L);
        assertThat(SampleJson.parseUnsigned("18446744073709551615", "rx_bytes")).isEqualTo(-1L); // 2^64 - 1, unsigned
        assertRefused("18446744073709551616", RejectReason.NON_NUMERIC, "counter rx_bytes exceeds 64 bits");
    }

    @Test
    void digitsOfOtherScriptsAreNotANumber() {
        assertRefused("\uff11\uff12\uff13", RejectReason.NON_NUMERIC,
            "counter rx_bytes is not an unsigned integer: '\uff11\uff12\uff13'");
        assertRefused("+7", RejectReason.NON_NUMERIC, "counter rx_bytes is not an unsigned integer: '+7'");
    }

    @Test
    void aRefusedValueIsShownCutTo40Characters() {
        assertRefused("-" + "9".repeat(100_000), RejectReason.NEGATIVE_COUNTER,
            "counter rx_bytes is negative: -" + "9".repeat(39) + "...");
        assertRefused("x".repeat(500), RejectReason.NON_NUMERIC,
            "counter rx_bytes is not an unsigned integer: '" + "x".repeat(40) + "...'");
    }

    private static void assertRefused(final String text, final RejectReason reason, final String message) {
        assertThatThrownBy(() -> SampleJson.parseUnsigned(text, "rx_bytes"))
            .isInstanceOfSatisfying(SampleFormatException.class, e -> {
                assertThat(e.reason()).isEqualTo(reason);
                assertThat(e.getMessage()).isEqualTo(message);
            });
    }
}
