package dev.fabrictwin.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.ingest.Formats;
import dev.fabrictwin.ingest.format.IngestSink;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.twin.telemetry.Sample;

/** The test's collector messages are what the real adapters read back into the sample they came from. */
class CollectorMessagesTest {

    private static final Sample SWITCH = new Sample(1_735_689_601_040L, "leaf01", "Ethernet64", "sim",
        Map.of("rx_bytes", -1_000L, "tx_bytes", 7_887_933_049_740_542_976L, "rx_packets", 5L, "tx_packets", 6L,
            "fcs_errors", 2L, "ecn_marked", 3L, "rx_pfc_pause.3", 4L),
        Map.of("oper_up", 0.0, "latency_p99_us", 1.5));
    private static final Sample HOST = new Sample(1_735_689_601_029L, "gpu01", "eth0", "sim",
        Map.of("rx_bytes", 10L, "tx_bytes", 20L, "rx_pfc_pause.3", 7L, "tx_pfc_pause.3", 8L, "ecn_marked", 9L),
        Map.of("oper_up", 1.0));

    private static List<Sample> read(final String format, final String text) throws Exception {
        final List<Sample> out = new ArrayList<>();
        final List<Rejection> rejected = new ArrayList<>();
        Formats.adapter(format).parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
            ParseContext.defaults(Clock.systemUTC()).withoutTimeWindow(), new IngestSink() {
                @Override
                public void record() {
                }

                @Override
                public void warn(final String message) {
                }

                @Override
                public void sample(final Sample sample) {
                    out.add(sample);
                }

                @Override
                public void reject(final Rejection rejection) {
                    rejected.add(rejection);
                }

                @Override
                public void dropped(final String reason) {
                    throw new AssertionError("a value dropped: " + reason);
                }
            });
        assertThat(rejected).isEmpty();
        return out;
    }

    @Test
    void aGnmicEventReadsBackAsTheSwitchPortsCountersAndState() throws Exception {
        final List<Sample> back = read("gnmic", CollectorMessages.gnmicEvent(SWITCH));

        assertThat(back).singleElement().satisfies(s -> {
            assertThat(s.device()).isEqualTo("leaf01");
            assertThat(s.port()).isEqualTo("Ethernet64");
            assertThat(s.ts()).isEqualTo(SWITCH.ts());
            assertThat(s.counters()).containsEntry("rx_bytes", -1_000L).containsEntry("tx_bytes", 7_887_933_049_740_542_976L)
                .containsEntry("fcs_errors", 2L).containsEntry("ecn_marked", 3L).doesNotContainKey("rx_pfc_pause.3");
            assertThat(s.gauges()).containsEntry("oper_up", 0.0);
        });
    }

    @Test
    void aTelegrafEthtoolLineReadsBackAsTheNicsCounters() throws Exception {
        final List<Sample> back = read("influx", CollectorMessages.telegrafEthtool(HOST));

        assertThat(back).singleElement().satisfies(s -> {
            assertThat(s.device()).isEqualTo("gpu01");
            assertThat(s.port()).isEqualTo("eth0");
            assertThat(s.ts()).isEqualTo(HOST.ts());
            assertThat(s.counters()).containsEntry("tx_bytes", 20L).containsEntry("rx_pfc_pause.3", 7L)
                .containsEntry("tx_pfc_pause.3", 8L).containsEntry("ecn_marked", 9L);
        });
    }
}
