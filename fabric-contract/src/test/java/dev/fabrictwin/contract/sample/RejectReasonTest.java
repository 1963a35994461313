package dev.fabrictwin.contract.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.twin.fabric.PortNames;

/** The codes are a compatibility surface: dead-letter headers, the {@code reason} metric tag and summaries. */
class RejectReasonTest {

    @Test
    void shouldSpellEveryReasonAsDocumentedInContracts() {
        assertThat(Arrays.stream(RejectReason.values()).map(RejectReason::code)).containsExactly(
            "malformed", "missing-device", "missing-port", "missing-timestamp", "negative-counter", "negative-gauge",
            "non-numeric", "not-finite", "timestamp-out-of-range", "oversized", "no-counters", "name-too-long",
            "no-topology", "bad-document", "duplicate-interval", "unknown-device", "unknown-port", "deserialization",
            "processing");
    }

    @Test
    void shouldSpellTheTwinsUnmatchedNamesAsTheirReasons() {
        assertThat(PortNames.Resolution.unknownDevice().reason()).isEqualTo(RejectReason.UNKNOWN_DEVICE.code());
        assertThat(PortNames.Resolution.unknownPort().reason()).isEqualTo(RejectReason.UNKNOWN_PORT.code());
    }
}
