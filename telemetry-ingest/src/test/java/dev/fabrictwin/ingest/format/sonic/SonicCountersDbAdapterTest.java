package dev.fabrictwin.ingest.format.sonic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.ingest.format.AdapterContract;
import dev.fabrictwin.ingest.format.CollectingSink;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.twin.telemetry.Sample;

import com.fasterxml.jackson.databind.ObjectMapper;

class SonicCountersDbAdapterTest extends AdapterContract {

    private static final Path COUNTERS_DB = refdata("sonic-counters-db/tests_mock_tables_counters_db.json");
    private static final Path GEARBOX_DB = refdata("sonic-counters-db/tests_mock_tables_gb_counters_db.json");
    private static final Path PG_MAPS_ONLY = refdata("sonic-counters-db/tests_pgdrop_input_counters_db.json");

    @Override
    protected FormatAdapter adapter() {
        return new SonicCountersDbAdapter();
    }

    @Override
    protected List<Path> fixtures() {
        return List.of(COUNTERS_DB, GEARBOX_DB);
    }

    private CollectingSink parse(final String text) {
        return parse(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String edit(final Path fixture, final String from, final String to) throws IOException {
        final String text = Files.readString(fixture);
        assertThat(text).contains(from);
        return text.replaceFirst(Pattern.quote(from), Matcher.quoteReplacement(to));
    }

    @Test
    void shouldResolvePortOidsAndMapBytesPacketsAndPfcPerPriority() throws IOException {
        final CollectingSink sink = parse(COUNTERS_DB);

        assertThat(sink.records).isEqualTo(3);
        assertThat(sink.samples).extracting(Sample::port).containsExactly("Ethernet0", "Ethernet4", "Ethernet8");
        final Sample e0 = sink.only("dut", "Ethernet0");
        assertThat(e0.source()).isEqualTo("sonic");
        assertThat(e0.ts()).isEqualTo(1_700_000_000_000L);
        assertThat(e0.counters()).containsEntry("rx_bytes", 800L).containsEntry("tx_bytes", 1000L)
            .containsEntry("rx_packets", 8L).containsEntry("tx_packets", 10L)
            .containsEntry("rx_pfc_pause.0", 1200L).containsEntry("rx_pfc_pause.3", 203L)
            .containsEntry("tx_pfc_pause.3", 213L).containsEntry("tx_pfc_pause.7", 217L)
            .containsEntry("rx_pause_duration_us.3", 20_000_003L)
            .containsEntry("fec_corrected", 130_402L).containsEntry("fec_uncorrectable", 3L)
            .containsEntry("EST_PORT_STAT_PFC_3_ON2OFF_RX_PKTS", 23L)
            .doesNotContainKeys("EST_PORT_STAT_PFC_3_RECENT_PAUSE_TIMESTAMP", "SAI_PORT_STAT_IN_DROP_REASON_RANGE_BASE");
        assertThat(sink.only("dut", "Ethernet4").counters()).containsEntry("tx_bytes", 4000L).containsEntry("tx_packets", 40L);
    }

    @Test
    void shouldRollQueueEcnMarksAndDropsUpIntoThePortAndKeepThemPerQueue() throws IOException {
        final CollectingSink sink = parse(COUNTERS_DB);

        final Sample e0 = sink.only("dut", "Ethernet0");
        // sum of SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS / SAI_QUEUE_STAT_DROPPED_PACKETS over Ethernet0's 20 queues
        assertThat(e0.counters()).containsEntry("ecn_marked", 1088L).containsEntry("tx_drops", 1088L)
            // the port's own SAI_PORT_STAT_IF_IN_DISCARDS wins over the sum of its PG drops (6428)
            .containsEntry("rx_drops", 100L)
            .containsEntry("ecn_marked.q3", 19L).containsEntry("tx_drops.q3", 19L)
            .containsEntry("PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED.q3", 1L)
            .containsEntry("SAI_QUEUE_STAT_PACKETS.q2", 82L)
            .doesNotContainKeys("PFC_WD_STATUS.q3", "PFC_WD_ACTION.q3");
        assertThat(e0.counters().keySet()).anyMatch(k -> k.endsWith(".pg7"));
        // Ethernet0 has 30 queues: 0-15 kept one by one, 16-29 summed into .qrest (docs/ingest.md)
        assertThat(e0.counters()).containsEntry("ecn_marked.qrest", 193L).doesNotContainKeys("ecn_marked.q16", "ecn_marked.q29");
        assertThat(e0.gauges()).containsEntry("buffer_watermark_bytes", 98.0).containsEntry("buffer_watermark_bytes.q3", 60.0);
        assertThat(sink.only("dut", "Ethernet8").counters()).containsEntry("ecn_marked", 1261L);
    }

    @Test
    void shouldReadGearboxPortsFecCounters() throws IOException {
        final CollectingSink sink = parse(GEARBOX_DB);

        assertThat(sink.only("dut", "Ethernet0_system").counters()).containsEntry("fec_corrected", 1_234_567L)
            .containsEntry("fec_uncorrectable", 3L).containsEntry("SAI_PORT_STAT_IF_IN_FEC_CODEWORD_ERRORS_S0", 26_751_321_841_084L)
            .doesNotContainKey("SAI_PORT_STAT_IF_IN_FEC_CODEWORD_ERRORS_S0_TIMESTAMP");
        assertThat(sink.only("dut", "Ethernet0_line").counters()).containsEntry("fec_corrected", 0L);
    }

    @Test
    void shouldRejectOnlyThePortWhoseEntityHasABadValueWithThatEntitysJson() throws IOException {
        final String input = edit(COUNTERS_DB, "\"SAI_PORT_STAT_IF_IN_OCTETS\" : \"400\"", "\"SAI_PORT_STAT_IF_IN_OCTETS\" : \"-400\"");

        final CollectingSink sink = parse(input);

        assertThat(sink.records).isEqualTo(3);
        assertThat(sink.samples).extracting(Sample::port).containsExactly("Ethernet0", "Ethernet8");
        final Rejection r = sink.rejections.get(0);
        assertThat(sink.rejections).hasSize(1);
        assertThat(r.reason()).isEqualTo(RejectReason.NEGATIVE_COUNTER);
        assertThat(r.location()).isEqualTo("COUNTERS:oid:0x1000000000013");
        final String raw = new String(r.raw(), StandardCharsets.UTF_8);
        assertThat(raw).startsWith("{\"COUNTERS:oid:0x1000000000013\": {").endsWith("}}")
            .contains("\"SAI_PORT_STAT_IF_IN_OCTETS\" : \"-400\"");
        assertThat(new ObjectMapper().readTree(raw).size()).isEqualTo(1);
    }

    @Test
    void shouldRejectThePortOfAQueueWithABadValueAndClassifyNanAndText() throws IOException {
        final String queueBad = edit(COUNTERS_DB, "\"PFC_WD_QUEUE_STATS_RX_PACKETS\": \"100\"", "\"PFC_WD_QUEUE_STATS_RX_PACKETS\": \"NaN\"");
        final CollectingSink sink = parse(queueBad);
        assertThat(sink.rejections).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.NOT_FINITE);
            assertThat(r.location()).isEqualTo("COUNTERS:oid:0x1500000000035a"); // queue Ethernet0:3
        });
        assertThat(sink.samples).extracting(Sample::port).containsExactly("Ethernet4", "Ethernet8");

        final CollectingSink text = parse(edit(COUNTERS_DB, "\"SAI_PORT_STAT_IF_OUT_OCTETS\" : \"6000\"",
            "\"SAI_PORT_STAT_IF_OUT_OCTETS\": \"lots\""));
        assertThat(text.rejections).singleElement().extracting(Rejection::reason).isEqualTo(RejectReason.NON_NUMERIC);
        assertThat(text.find("dut", "Ethernet8")).isEmpty();
    }

    @Test
    void shouldRejectEveryPortWithoutADeviceAndDumpsWithoutCountersOrValidJson() throws IOException {
        final CollectingSink sink = new CollectingSink();
        adapter().parse(new ByteArrayInputStream(Files.readAllBytes(COUNTERS_DB)),
            ParseContext.defaults(CLOCK).withoutTimeWindow(), sink);
        assertThat(sink.samples).isEmpty();
        assertThat(sink.rejections).hasSize(3).extracting(Rejection::reason).containsOnly(RejectReason.MISSING_DEVICE);

        final CollectingSink mapsOnly = parse(PG_MAPS_ONLY);
        assertThat(mapsOnly.records).isEqualTo(1);
        assertThat(mapsOnly.rejections).singleElement().extracting(Rejection::reason).isEqualTo(RejectReason.NO_COUNTERS);

        final CollectingSink broken = parse("{\"COUNTERS_PORT_NAME_MAP\": {\"Ethernet0\": \"oid:0x1\"}, \"COUNTERS:oid:0x1\": {\"SAI");
        assertThat(broken.rejections).singleElement().extracting(Rejection::reason).isEqualTo(RejectReason.MALFORMED);

        final CollectingSink notAHash = parse("{\"COUNTERS_PORT_NAME_MAP\": {\"Ethernet0\": \"oid:0x1\"}, \"COUNTERS:oid:0x1\": \"oops\"}");
        assertThat(notAHash.records).isEqualTo(1);
        assertThat(notAHash.rejections).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.MALFORMED);
            assertThat(new String(r.raw(), StandardCharsets.UTF_8)).isEqualTo("{\"COUNTERS:oid:0x1\": \"oops\"}");
        });
    }

    @Test
    void shouldPreferTheSaiPauseDurationOverSonicsEstimateAndUnwrapRedisDumps() {
        final CollectingSink sink = parse("""
            {"COUNTERS_PORT_NAME_MAP": {"type": "hash", "value": {"Ethernet16": "oid:0x10"}},
             "COUNTERS:oid:0x10": {"type": "hash", "value": {
                "EST_PORT_STAT_PFC_3_RX_PAUSE_DURATION_US": "900",
                "SAI_PORT_STAT_PFC_3_RX_PAUSE_DURATION_US": "1000",
                "SAI_PORT_STAT_PFC_3_RX_PKTS": 12,
                "SAI_PORT_STAT_IF_IN_OCTETS": "18446744073709551615"}}}
            {"COUNTERS_PORT_NAME_MAP": {"Ethernet16": "oid:0x10"},
             "COUNTERS:oid:0x10": {"SAI_PORT_STAT_IF_IN_OCTETS": "5"}}
            """);

        assertThat(sink.records).isEqualTo(2);
        assertThat(sink.rejections).isEmpty();
        final Sample first = sink.samples.get(0);
        assertThat(first.counters()).containsEntry("rx_pause_duration_us.3", 1000L)
            .containsEntry("EST_PORT_STAT_PFC_3_RX_PAUSE_DURATION_US", 900L).containsEntry("rx_pfc_pause.3", 12L);
        assertThat(Long.toUnsignedString(first.counter("rx_bytes", 0))).isEqualTo("18446744073709551615");
        assertThat(sink.samples.get(1).counter("rx_bytes", 0)).isEqualTo(5L);
    }

    @Test
    void shouldStoreQueueOccupancyAndWatermarkLevelsAsGauges() {
        // hand-written: SAI queue statistics the mapping file does not name, read as instant values by name
        final Sample s = parse("""
            {"COUNTERS_PORT_NAME_MAP": {"Ethernet0": "oid:0x10"},
             "COUNTERS_QUEUE_NAME_MAP": {"Ethernet0:3": "oid:0x13"},
             "COUNTERS:oid:0x10": {"SAI_PORT_STAT_IF_OUT_OCTETS": "7"},
             "COUNTERS:oid:0x13": {"SAI_QUEUE_STAT_CURR_OCCUPANCY_LEVEL": "12", "SAI_QUEUE_STAT_WATERMARK_LEVEL": "20",
                                   "SAI_QUEUE_STAT_PACKETS": "41"}}
            """).only("dut", "Ethernet0");

        assertThat(s.counters()).containsOnly(entry("tx_bytes", 7L), entry("SAI_QUEUE_STAT_PACKETS.q3", 41L));
        assertThat(s.gauges()).containsOnly(entry("SAI_QUEUE_STAT_CURR_OCCUPANCY_LEVEL.q3", 12.0),
            entry("SAI_QUEUE_STAT_WATERMARK_LEVEL.q3", 20.0));
    }
}
