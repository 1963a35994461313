package dev.fabrictwin.ingest.format.gnmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.ingest.format.AdapterContract;
import dev.fabrictwin.ingest.format.CollectingSink;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.ingest.format.influx.InfluxLineAdapter;
import dev.fabrictwin.twin.telemetry.Sample;

class GnmiProtoJsonAdapterTest extends AdapterContract {

    private static final Path ISSUE_14063 = refdata("telegraf-gnmi/issue_14063.responses.json");
    private static final Path ISSUE_14530 = refdata("telegraf-gnmi/issue_14530.responses.json");

    @Override
    protected FormatAdapter adapter() {
        return new GnmiProtoJsonAdapter();
    }

    @Override
    protected List<Path> fixtures() {
        return List.of(ISSUE_14063, ISSUE_14530, refdata("telegraf-gnmi/issue_16476.responses.json"),
            refdata("telegraf-gnmi/issue_16515.responses.json"));
    }

    @Test
    void shouldReadTelegrafCaptureWithThePortFromThePathKey() throws IOException {
        final CollectingSink sink = parse(ISSUE_14530);

        // no prefix.target in the capture: the device is the context's (--device)
        final Sample s = sink.only("dut", "Ethernet35");
        assertThat(s.ts()).isEqualTo(1_704_442_117_721L); // "1704442117721474264" ns
        assertThat(s.source()).isEqualTo("gnmi-protojson");
        // expected.out: in_octets=0u,out_octets=0u,in_pkts=0u,out_pkts=0u,in_discards=0u,out_discards=0u,in_fcs_errors=0u
        assertThat(s.counters()).containsEntry("rx_bytes", 0L).containsEntry("tx_bytes", 0L).containsEntry("rx_packets", 0L)
            .containsEntry("tx_packets", 0L).containsEntry("rx_drops", 0L).containsEntry("tx_drops", 0L)
            .containsEntry("fcs_errors", 0L)
            // totals exist, so unicast stays under its own name
            .containsEntry("in-unicast-pkts", 0L).containsEntry("in-broadcast-pkts", 0L)
            .hasSize(15); // the 15 fields of expected.out
    }

    @Test
    void shouldNameThePortFromTheInterfaceNameLeafWhenThePathHasNoKey() throws IOException {
        final CollectingSink sink = parse(ISSUE_14063);

        // oc-if:interfaces/oc-if:interface has no key; its state/name leaf is the string \"1\ (Telegraf's name field),
        // Ciena's quoted list key: the quotes are no part of the port
        final Sample s = sink.only("dut", "1");
        assertThat(s.ts()).isEqualTo(1_696_617_695_101L);
        assertThat(s.counters()).containsEntry("rx_bytes", 0L).containsEntry("tx_bytes", 0L)
            .containsEntry("fcs_errors", 0L) // in-crc-error-pkts
            .containsEntry("in-1024-to-1518-octet-pkts", 0L)
            .containsEntry("link-flap-events", 0L)
            .doesNotContainKeys("last-clear", "name", "oc-if:counters")
            .hasSize(33); // 35 fields of expected.out minus name (the port) and last_clear (a timestamp)
    }

    /**
     * Telegraf read these same responses into expected.out; our influx adapter reads expected.out. Both routes
     * must give the same port, time and counters (snake_case versus hyphenated names aside).
     */
    @Test
    void shouldAgreeWithTelegrafsExpectedOutputForTheSameCapture() throws IOException {
        for (final String issue : List.of("issue_14063", "issue_14530", "issue_16476")) {
            final Sample proto = parse(refdata("telegraf-gnmi/" + issue + ".responses.json")).samples.get(0);
            final CollectingSink influx = new CollectingSink();
            new InfluxLineAdapter().parse(Files.newInputStream(refdata("telegraf-gnmi/" + issue + ".expected.out")),
                context(), influx);
            final Sample line = influx.samples.get(0);

            assertThat(proto.port()).as(issue).isEqualTo(line.port());
            assertThat(proto.ts()).as(issue).isEqualTo(line.ts());
            assertThat(proto.counters()).as(issue).hasSameSizeAs(line.counters());
            for (final Map.Entry<String, Long> e : line.counters().entrySet()) {
                // canonical names are the same on both routes; others are in_octets there and in-octets here
                final String name = proto.counters().containsKey(e.getKey()) ? e.getKey() : e.getKey().replace('_', '-');
                assertThat(proto.counters()).as(issue + " " + e.getKey()).containsEntry(name, e.getValue());
            }
        }
    }

    @Test
    void shouldReadTypedValuesTargetsAndBase64JsonValues() {
        final String json = Base64.getEncoder().encodeToString(
            "{\"openconfig-interfaces:counters\":{\"in-octets\":\"123456789012\",\"out-pkts\":\"77\"},\"oper-status\":\"UP\"}"
                .getBytes(StandardCharsets.UTF_8));
        final String input = """
            {"update":{"timestamp":"1700000000999999999","prefix":{"target":"leaf-3","elem":[{"name":"interfaces"},{"name":"interface","key":{"name":"Ethernet1"}},{"name":"state"}]},
              "update":[{"path":{"elem":[{"name":"counters"},{"name":"in-octets"}]},"val":{"uintVal":4096}},
                        {"path":{"elem":[{"name":"counters"},{"name":"out-octets"}]},"val":{"uint_val":"18446744073709551615"}},
                        {"path":{"elem":[{"name":"oper-status"}]},"val":{"stringVal":"DOWN"}},
                        {"path":{"elem":[{"name":"counters"},{"name":"in-fcs-errors"}]},"val":{"intVal":"3"}}]}}
            {"update":{"timestamp":1700000001000000000,"prefix":{"target":"leaf-3"},
              "update":[{"path":{"elem":[{"name":"interfaces"},{"name":"interface","key":{"name":"Ethernet2"}},{"name":"state"}]},"val":{"jsonIetfVal":"%s"}}]}}
            {"syncResponse":true}
            """.formatted(json);

        final CollectingSink sink = parse(input.getBytes(StandardCharsets.UTF_8));

        final Sample e1 = sink.only("leaf-3", "Ethernet1");
        assertThat(e1.ts()).isEqualTo(1_700_000_000_999L);
        assertThat(e1.counters()).containsEntry("rx_bytes", 4096L).containsEntry("fcs_errors", 3L);
        assertThat(Long.toUnsignedString(e1.counter("tx_bytes", 0))).isEqualTo("18446744073709551615");
        assertThat(e1.gauges()).containsEntry("oper_up", 0.0);
        final Sample e2 = sink.only("leaf-3", "Ethernet2");
        assertThat(e2.counters()).containsEntry("rx_bytes", 123_456_789_012L).containsEntry("tx_packets", 77L);
        assertThat(e2.gauges()).containsEntry("oper_up", 1.0);
        assertThat(sink.records).isEqualTo(3);
        assertThat(sink.rejections).extracting(Rejection::reason).containsExactly(RejectReason.NO_COUNTERS);
    }

    /** IOS-XR's interface-brief list is keyed by interface-name; its line state and kbit/s bandwidth. */
    @Test
    void shouldNameThePortFromAnInterfaceNameKeyAndReadIosXrLineStateAndBandwidth() {
        final String brief = "{\"update\":{\"timestamp\":\"1558249391728000000\",\"prefix\":{\"origin\":\"Cisco-IOS-XR-pfi-im-cmd-oper\","
            + "\"elem\":[{\"name\":\"interfaces\"},{\"name\":\"interface-briefs\"},{\"name\":\"interface-brief\","
            + "\"key\":{\"interface-name\":\"HundredGigE0/0/0/2\"}}],\"target\":\"leaf7\"},\"update\":["
            + "{\"path\":{\"elem\":[{\"name\":\"line-state\"}]},\"val\":{\"stringVal\":\"im-state-down\"}},"
            + "{\"path\":{\"elem\":[{\"name\":\"state\"}]},\"val\":{\"stringVal\":\"im-state-up\"}},"
            + "{\"path\":{\"elem\":[{\"name\":\"bandwidth\"}]},\"val\":{\"uintVal\":\"100000000\"}}]}}";

        final CollectingSink sink = parse(brief.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.rejections).isEmpty();
        // the line protocol is down although the interface is not shut: the port is down
        assertThat(sink.only("leaf7", "HundredGigE0/0/0/2").gauges()).containsOnly(entry("oper_up", 0.0), entry("speed_bps", 100e9));
    }

    @Test
    void shouldRejectEachBadResponseWithItsReasonAndKeepGoing() {
        final String ok = "{\"update\":{\"timestamp\":\"1700000000000000000\",\"prefix\":{\"elem\":[{\"name\":\"interfaces\"},"
            + "{\"name\":\"interface\",\"key\":{\"name\":\"e1\"}}]},\"update\":[{\"path\":{\"elem\":[{\"name\":\"state\"},"
            + "{\"name\":\"counters\"},{\"name\":\"in-octets\"}]},\"val\":{\"uintVal\":\"5\"}}]}}";
        final String input = String.join("\n",
            ok.replace("{\"uintVal\":\"5\"}", "{\"intVal\":\"-5\"}"),          // negative counter
            ok.replace("{\"uintVal\":\"5\"}", "{\"uintVal\":\"lots\"}"),       // not a number
            ok.replace("{\"uintVal\":\"5\"}", "{\"doubleVal\":\"NaN\"}"),      // NaN
            ok.replace("{\"name\":\"interface\",\"key\":{\"name\":\"e1\"}}", "{\"name\":\"system\"}"), // no port
            ok.replace("\"1700000000000000000\"", "\"-1\""),                 // before the epoch
            "{\"error\":{\"code\":14,\"message\":\"unavailable\"}}",
            ok,
            ok.substring(0, ok.length() / 2));                                // truncated JSON

        final CollectingSink sink = parse(input.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.records).isEqualTo(8);
        assertThat(sink.samples).singleElement().satisfies(s -> {
            assertThat(s.port()).isEqualTo("e1");
            assertThat(s.counters()).containsEntry("rx_bytes", 5L);
        });
        assertThat(sink.rejections).extracting(Rejection::reason).containsExactly(RejectReason.NEGATIVE_COUNTER,
            RejectReason.NON_NUMERIC, RejectReason.NOT_FINITE, RejectReason.MISSING_PORT, RejectReason.TIMESTAMP_OUT_OF_RANGE,
            RejectReason.NO_COUNTERS, RejectReason.MALFORMED);
        assertThat(sink.rejections.get(6).location()).isEqualTo("line 8");
        assertThat(new String(sink.rejections.get(6).raw(), StandardCharsets.UTF_8)).isEqualTo(ok.substring(0, ok.length() / 2));
    }

    @Test
    void shouldReportGnmicsProtoJsonConfigExampleAsCarryingNoTelemetry() throws IOException {
        // gnmic's docs show configure/system/name = "sr123" in this format: valid, but nothing to sample
        final CollectingSink sink = parse(refdata("gnmic-docs-outputs/output_intro.L89-117.json"));

        assertThat(sink.records).isEqualTo(1);
        assertThat(sink.rejections).extracting(Rejection::reason).containsExactly(RejectReason.NO_COUNTERS);
    }

    @Test
    void shouldReadJunosQueueMonitoringWithKeyOnlyPathElementsPerQueue() throws IOException {
        final CollectingSink sink = parse(refdata("telegraf-gnmi/issue_16515.responses.json"));

        // {qmon-sw}, {key: {name: xe-0/0/0:0}} and {egress}, {key: {queue-number: 3}}: keys of the element before
        assertThat(sink.rejections).isEmpty();
        final Sample s = sink.only("dut", "xe-0/0/0:0");
        assertThat(s.ts()).isEqualTo(1_739_811_071_353L);
        assertThat(s.counters()).containsEntry("tx_bytes.q0", 25_084_650_213L).containsEntry("tx_packets.q0", 97_812_973L)
            .containsEntry("tx_bytes.q9", 16_919_364_168L).containsEntry("tx_packets.q9", 157_255_632L)
            .containsEntry("tx_drops.q2", 0L).containsEntry("egress.red-drop-packets-color-3.q7", 0L)
            .doesNotContainKeys("tx_bytes", "tx_packets"); // a switch's queues are not summed into the port
        assertThat(s.gauges()).containsEntry("buffer_watermark_bytes.q0", 416.0).containsEntry("buffer_watermark_bytes.q6", 624.0)
            .containsEntry("egress.peak-buffer-occupancy-percent.q0", 0.0);
        assertThat(s.counters().keySet()).noneMatch(k -> k.contains("peak"));
        assertThat(s.counters()).hasSize(10 * 12);
        assertThat(s.gauges()).hasSize(10 * 2);
    }

    @Test
    void shouldStripCienaQuotesFromThePortName() throws IOException {
        final Sample s = parse(refdata("telegraf-gnmi/issue_16476.responses.json")).only("dut", "1");

        assertThat(s.ts()).isEqualTo(1_739_206_587_847L);
        assertThat(s.counters()).containsEntry("rx_bytes", 95_890_972_327_359L).containsEntry("tx_bytes", 885_293_268_981_054L)
            .containsEntry("rx_packets", 222_159_970_919L).containsEntry("tx_packets", 677_379_680_498L)
            .containsEntry("rx_drops", 236L).containsEntry("fcs_errors", 0L).containsEntry("in-dropped-octets", 31_492L)
            .doesNotContainKeys("name", "last-clear");
    }

    @Test
    void shouldRejectAKeyOnlyPathElementWithNothingBeforeIt() {
        final CollectingSink sink = parse("""
            {"update":{"timestamp":"1700000000000000000","prefix":{"elem":[{"key":{"name":"et-0/0/0"}}]},
              "update":[{"path":{"elem":[{"name":"bytes"}]},"val":{"uintVal":"1"}}]}}
            """.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.samples).isEmpty();
        assertThat(sink.rejections).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.MALFORMED);
            assertThat(r.message()).isEqualTo("a path element with neither a name nor keys of the element before it");
        });
    }
}
