package dev.fabrictwin.contract.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/** The codes are a compatibility surface: dead-letter headers, the {@code reason} metric tag and summaries. */
class RejectReasonTest {

    @Test
    void shouldSpellEveryReasonAsDocumentedInContracts() {
        assertThat(Arrays.stream(RejectReason.values()).map(RejectReason::code)).containsExactly(
            "malformed", "missing-device", "missing-port", "missing-timestamp", "negative-counter", "negative-gauge",
            "non-numeric", "not-finite", "timestamp-out-of-range", "oversized", "no-counters", "name-too-long",
            "no-topology", "bad-document", "duplicate-interval", "deserialization", "processing");
    }
}
