package dev.fabrictwin.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.ingest.format.gnmi.GnmicAdapter;
import dev.fabrictwin.ingest.format.influx.InfluxLineAdapter;
import dev.fabrictwin.ingest.format.support.Canonical;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * One IOS-XR poll (generic-counters, data-rate and interface-briefs of two ports) read through Telegraf's
 * {@code cisco_telemetry_mdt} as line protocol and through gnmic, in its event and its default output, gives the same
 * canonical samples (hand-made fixtures of one poll's real values: {@code handmade/ios-xr-mdt/README.md}).
 */
class IosXrRoutesTest {

    private static final long RATES_UP = 1_558_249_391_616L;
    private static final long RATES_DOWN = 1_558_249_391_619L;
    private static final long COUNTERS = 1_558_249_391_714L;
    private static final long BRIEFS = 1_558_249_391_728L;
    private static final String UP = "HundredGigE0/0/0/0";
    private static final String DOWN = "HundredGigE0/0/0/2";

    /** A sample without its source (which names the format) and with its canonical values only. */
    private record Canon(long ts, String device, String port, Map<String, Long> counters, Map<String, Double> gauges) {
    }

    /** What the poll says, by the canonical names: the same whichever tool carried it. */
    private static final List<Canon> EXPECTED = List.of(
        new Canon(RATES_UP, "leaf7", UP, Map.of(), Map.of("rx_bps", 19_761_262_000.0, "tx_bps", 78_817_000.0, "speed_bps", 100e9)),
        new Canon(RATES_DOWN, "leaf7", DOWN, Map.of(), Map.of("rx_bps", 0.0, "tx_bps", 0.0, "speed_bps", 100e9)),
        new Canon(COUNTERS, "leaf7", UP, Map.of("rx_bytes", 513_494_830_923_339L, "tx_bytes", 603_477_158_609_806L,
            "rx_packets", 121_439_389_556L, "tx_packets", 103_280_935_381L, "rx_drops", 0L, "tx_drops", 0L, "fcs_errors", 0L,
            "link_flaps", 3L), Map.of()),
        new Canon(COUNTERS, "leaf7", DOWN, Map.of("rx_bytes", 0L, "tx_bytes", 0L, "rx_packets", 0L, "tx_packets", 0L,
            "rx_drops", 0L, "tx_drops", 0L, "fcs_errors", 0L, "link_flaps", 0L), Map.of()),
        new Canon(BRIEFS, "leaf7", UP, Map.of(), Map.of("oper_up", 1.0, "speed_bps", 100e9)),
        new Canon(BRIEFS, "leaf7", DOWN, Map.of(), Map.of("oper_up", 0.0, "speed_bps", 100e9)));

    @Test
    void shouldGiveTheSameCanonicalSamplesThroughTelegrafMdtAndGnmic() throws IOException {
        assertThat(canonical(read(new InfluxLineAdapter(), "leaf7.telegraf-mdt.influx"))).isEqualTo(EXPECTED);
        assertThat(canonical(read(new GnmicAdapter(), "leaf7.gnmic-event.json"))).isEqualTo(EXPECTED);
        assertThat(canonical(read(new GnmicAdapter(), "leaf7.gnmic-subscribe.json"))).isEqualTo(EXPECTED);
    }

    @Test
    void shouldKeepTheOtherLeavesUnderTheirSourceNamesDifferingOnlyInTelegrafsUnderscores() throws IOException {
        final TreeSet<String> telegraf = others(read(new InfluxLineAdapter(), "leaf7.telegraf-mdt.influx"));
        final TreeSet<String> gnmic = others(read(new GnmicAdapter(), "leaf7.gnmic-subscribe.json"));

        assertThat(gnmic).isEqualTo(others(read(new GnmicAdapter(), "leaf7.gnmic-event.json")));
        assertThat(new TreeSet<>(gnmic.stream().map(n -> n.replace('-', '_')).toList())).isEqualTo(telegraf);
        // rates and loads are kept as read; the states, names and the MTU (configuration) are no values
        assertThat(telegraf).contains(COUNTERS + " " + UP + " broadcast_packets_received=6",
            COUNTERS + " " + DOWN + " seconds_since_packet_received=4294967295",
            RATES_UP + " " + UP + " input_packet_rate=315928", RATES_UP + " " + UP + " peak_input_data_rate=0.0");
        assertThat(telegraf).noneMatch(v -> v.contains(" mtu=") || v.contains("state") || v.contains("interface="));
    }

    private static CollectingSink read(final FormatAdapter adapter, final String file) throws IOException {
        final CollectingSink sink = new CollectingSink();
        try (InputStream in = IosXrRoutesTest.class.getResourceAsStream("/handmade/ios-xr-mdt/" + file)) {
            adapter.parse(in, ParseContext.defaults(AdapterContract.CLOCK).withoutTimeWindow(), sink);
        }
        assertThat(sink.rejections).as("rejections of %s", file).isEmpty();
        assertThat(sink.records).as("records of %s", file).isEqualTo(6);
        return sink;
    }

    private static List<Canon> canonical(final CollectingSink sink) {
        return sink.samples.stream()
            .map(s -> new Canon(s.ts(), s.device(), s.port(), only(s.counters(), Canonical::isSampleCounter),
                only(s.gauges(), Canonical::isGauge)))
            .sorted(Comparator.comparingLong(Canon::ts).thenComparing(Canon::port))
            .toList();
    }

    private static <V> Map<String, V> only(final Map<String, V> values, final Predicate<String> canonical) {
        final Map<String, V> out = new TreeMap<>(values);
        out.keySet().removeIf(canonical.negate());
        return Map.copyOf(out);
    }

    /** Every non-canonical value of the samples, as {@code "<ts> <port> <name>=<value>"}. */
    private static TreeSet<String> others(final CollectingSink sink) {
        final TreeSet<String> out = new TreeSet<>();
        for (final Sample s : sink.samples) {
            s.counters().forEach((n, v) -> {
                if (!Canonical.isSampleCounter(n)) {
                    out.add(s.ts() + " " + s.port() + " " + n + "=" + Long.toUnsignedString(v));
                }
            });
            s.gauges().forEach((n, v) -> {
                if (!Canonical.isGauge(n)) {
                    out.add(s.ts() + " " + s.port() + " " + n + "=" + v);
                }
            });
        }
        return out;
    }
}
