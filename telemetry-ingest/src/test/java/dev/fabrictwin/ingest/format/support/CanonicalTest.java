package dev.fabrictwin.ingest.format.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CanonicalTest {

    @Test
    void shouldTellSampleCountersFromBarePerPriorityNames() {
        assertThat(Canonical.isSampleCounter("rx_bytes")).isTrue();
        assertThat(Canonical.isSampleCounter("rx_pfc_pause.3")).isTrue();
        assertThat(Canonical.isSampleCounter("rx_pfc_pause")).isFalse();
        assertThat(Canonical.isSampleCounter("rx_pfc_pause.")).isFalse();
        assertThat(Canonical.isSampleCounter("rx_bytes.3")).isFalse();
        assertThat(Canonical.isCounter("rx_pfc_pause")).isTrue();
        assertThat(Canonical.isCounter("rx_pfc_pause.3")).isTrue();
        assertThat(Canonical.isCounter("oper_up")).isFalse();
        assertThat(Canonical.isGauge("oper_up")).isTrue();
    }
}
