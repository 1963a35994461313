package dev.fabrictwin.ingest.format.gnmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.ingest.format.AdapterContract;
import dev.fabrictwin.ingest.format.CollectingSink;
import dev.fabrictwin.ingest.format.FormatAdapter;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.twin.telemetry.Sample;

class GnmicAdapterTest extends AdapterContract {

    private static final Path EVENT_RAW = refdata("gnmic-docs-outputs/event_strings.L137-159.json");
    private static final Path EVENT_RAW_SHORT = refdata("gnmic-docs-outputs/event_strings.L74-92.json");
    private static final Path SUBSCRIBE_BASH = refdata("gnmic-docs-outputs/basic_usage.L74-90.bash");
    private static final Path GET_BASH = refdata("gnmic-docs-outputs/basic_usage.L29-44.bash");
    private static final Path SUBSCRIPTIONS = refdata("gnmic-docs-outputs/subscriptions.L421-482.json");
    /** The default-format subscribe output of basic_usage.L74-90, without the shell command printed above it. */
    private static final Path SUBSCRIBE_OUTPUT = jsonOnly(SUBSCRIBE_BASH);

    @Override
    protected FormatAdapter adapter() {
        return new GnmicAdapter();
    }

    @Override
    protected List<Path> fixtures() {
        // the only raw event output in the docs (the other event_strings files were rewritten by processors),
        // and the one default-format subscribe output, as gnmic printed it (minus the command line)
        return List.of(EVENT_RAW, EVENT_RAW_SHORT, SUBSCRIBE_OUTPUT);
    }

    @Test
    void shouldReadRawEventOutputWithDeviceFromSourceTagAndPortFromInterfaceTag() throws IOException {
        final CollectingSink sink = parse(EVENT_RAW);

        final Sample s = sink.only("172.23.23.2", "mgmt0");
        assertThat(s.ts()).isEqualTo(1_607_291_271_894L); // 1607291271894072397 ns
        assertThat(s.source()).isEqualTo("gnmic");
        assertThat(s.counters())
            .containsEntry("rx_bytes", 65_382_630L)
            .containsEntry("tx_bytes", 64_721_394L)
            .containsEntry("fcs_errors", 0L)
            // no in-packets total in this SR Linux output: unicast packets stand in for it
            .containsEntry("rx_packets", 107_154L)
            .containsEntry("tx_packets", 105_876L)
            // unknown counters keep their source names (module prefix stripped)
            .containsEntry("in-multicast-packets", 288_033L)
            .containsEntry("in-broadcast-packets", 3_797L)
            .containsEntry("link_flaps", 1L) // carrier-transitions
            .doesNotContainKeys("in-unicast-packets", "in-octets", "/srl_nokia-interfaces:interface/statistics/in-octets");
        assertThat(sink.records).isEqualTo(1);
    }

    @Test
    void shouldReadDefaultFormatWithPortFromPrefixKeysAndRejectTheShellCommandAbove() throws IOException {
        final CollectingSink sink = parse(SUBSCRIBE_BASH);

        final Sample s = sink.only("0.tcp.eu.ngrok.io", "1/1/c1/1");
        assertThat(s.ts()).isEqualTo(1_592_832_965_197L);
        assertThat(s.counters()).containsExactly(Assertions.entry("rx_packets", 12_142L));
        assertThat(sink.records).isEqualTo(2);
        assertThat(sink.rejections).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.MALFORMED);
            assertThat(r.location()).isEqualTo("line 1");
            assertThat(new String(r.raw(), StandardCharsets.UTF_8)).startsWith("gnmic -a 10.1.0.11:57400");
        });
    }

    @Test
    void shouldKeepGoingPastNonPortMessagesAndTerminalNoise() throws IOException {
        final CollectingSink sink = parse(SUBSCRIPTIONS);

        // two vpls service oper-states (no interface/port key), two port counters, then "^C received signal"
        assertThat(sink.records).isEqualTo(5);
        assertThat(sink.rejections).extracting(Rejection::reason)
            .containsExactly(RejectReason.MISSING_PORT, RejectReason.MISSING_PORT, RejectReason.MALFORMED);
        assertThat(sink.rejections.get(0).message()).contains("vpls[service-name=testvpls]");
        assertThat(sink.rejections.get(2).location()).isEqualTo("line 61");
        assertThat(sink.samples).hasSize(2).allSatisfy(s -> {
            assertThat(s.device()).isEqualTo("router1.lab.com");
            assertThat(s.port()).isEqualTo("1/1/c1/1");
            assertThat(s.ts()).isEqualTo(1_594_065_873_938L);
        });
        assertThat(sink.samples.get(0).counters()).containsExactly(Assertions.entry("rx_bytes", 671_552L));
        assertThat(sink.samples.get(1).counters()).containsExactly(Assertions.entry("tx_bytes", 370_930L));
    }

    @Test
    void shouldReportMessagesWithoutTelemetryInsteadOfDroppingThem() throws IOException {
        assertThat(parse(refdata("gnmic-docs-outputs/output_intro.L145-159.json")).rejections).extracting(Rejection::reason)
            .containsExactly(RejectReason.NO_COUNTERS); // configure/system/name = "sr123"
        assertThat(parse(refdata("gnmic-docs-outputs/output_intro.L163-175.json")).rejections).extracting(Rejection::reason)
            .containsExactly(RejectReason.NO_COUNTERS); // the same, as an event array
        assertThat(parse(GET_BASH).rejections).extracting(Rejection::reason)
            .containsExactly(RejectReason.MALFORMED, RejectReason.NO_COUNTERS); // command line, platform string
        final CollectingSink proto = parse(refdata("gnmic-docs-outputs/output_intro.L89-117.json"));
        assertThat(proto.rejections).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.MALFORMED);
            assertThat(r.message()).contains("gnmi-protojson");
        });
    }

    @Test
    void shouldReadArraysConcatenatedObjectsNestedJsonValuesAndOperState() {
        final String input = """
            [{"source":"leaf1:57400","timestamp":1700000000123456789,"updates":[{"Path":"srl_nokia-interfaces:interface[name=ethernet-1/1]",
              "values":{"srl_nokia-interfaces:interface":{"oper-state":"up","description":"to spine","statistics":{"in-octets":"100","out-octets":200,"in-packets":"3"}}}}]},
             {"source":"leaf1:57400","timestamp":1700000000123456789,"updates":[{"Path":"/","values":{"interface":[
               {"name":"ethernet-1/2","oper-state":"down","statistics":{"in-octets":"5"}},
               {"name":"ethernet-1/3","ethernet":{"port-speed":"100G"},"statistics":{"out-octets":"18446744073709551615"}}]}}]}]
            {"name":"s","timestamp":1700000001000000000,"tags":{"source":"[2001:db8::1]:57400","interface_name":"e1"},"values":{"/interface/oper-status":"UP"}}{"name":"s","timestamp":1700000002000000000,"tags":{"source":"spine-0","interface_name":"e2"},"values":{"in-octets":7}}
            """;

        final CollectingSink sink = parse(input.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.rejections).isEmpty();
        assertThat(sink.records).isEqualTo(4);
        final Sample e11 = sink.only("leaf1", "ethernet-1/1");
        assertThat(e11.ts()).isEqualTo(1_700_000_000_123L);
        assertThat(e11.counters()).containsEntry("rx_bytes", 100L).containsEntry("tx_bytes", 200L).containsEntry("rx_packets", 3L);
        assertThat(e11.gauges()).containsEntry("oper_up", 1.0);
        assertThat(sink.only("leaf1", "ethernet-1/2").gauges()).containsEntry("oper_up", 0.0);
        assertThat(sink.only("leaf1", "ethernet-1/2").counters()).containsOnlyKeys("rx_bytes");
        final Sample e13 = sink.only("leaf1", "ethernet-1/3");
        assertThat(Long.toUnsignedString(e13.counter("tx_bytes", 0))).isEqualTo("18446744073709551615");
        assertThat(e13.gauges()).containsEntry("speed_bps", 100e9);
        assertThat(sink.only("2001:db8::1", "e1").gauges()).containsEntry("oper_up", 1.0);
        assertThat(sink.only("spine-0", "e2").counters()).containsEntry("rx_bytes", 7L);
    }

    /** IOS-XR's data rates (kbit/s) and carrier transitions, as gnmic writes the infra-statsd-oper paths. */
    @Test
    void shouldMapIosXrDataRatesToBitsPerSecondAndCarrierTransitionsToLinkFlaps() {
        final String input = """
            {"name":"xr","timestamp":1700000000000000000,"tags":{"source":"leaf4:57400","interface_name":"HundredGigE0/0/0/4"},
             "values":{"Cisco-IOS-XR-infra-statsd-oper:infra-statistics/interfaces/interface/latest/data-rate/output-data-rate":"2500000",
                       "Cisco-IOS-XR-infra-statsd-oper:infra-statistics/interfaces/interface/latest/data-rate/input-data-rate":"17",
                       "Cisco-IOS-XR-infra-statsd-oper:infra-statistics/interfaces/interface/latest/data-rate/peak-output-data-rate":"9000000"}}
            {"name":"xr","timestamp":1700000000000000000,"tags":{"source":"leaf4:57400","interface_name":"HundredGigE0/0/0/5"},
             "values":{"Cisco-IOS-XR-infra-statsd-oper:infra-statistics/interfaces/interface/latest/generic-counters/carrier-transitions":"14"}}
            """;

        final CollectingSink sink = parse(input.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.rejections).isEmpty();
        assertThat(sink.only("leaf4", "HundredGigE0/0/0/4").gauges()).containsEntry("tx_bps", 2.5e9).containsEntry("rx_bps", 17e3)
            .containsEntry("peak-output-data-rate", 9e6);
        assertThat(sink.only("leaf4", "HundredGigE0/0/0/5").counters()).containsEntry("link_flaps", 14L);
    }

    @Test
    void shouldKeepQueueCountersPerQueueAndNameSubinterfacesLikeSrLinux() {
        final String input = """
            {"source":"sw1","timestamp":1700000000000000000,"prefix":"openconfig-qos:qos/interfaces/interface[interface-id=Ethernet1]/output/queues/queue[name=3]/state",
             "updates":[{"Path":"transmit-octets","values":{"transmit-octets":"4096"}},{"Path":"dropped-pkts","values":{"dropped-pkts":"2"}}]}
            {"source":"sw1","timestamp":1700000000000000000,"prefix":"interfaces/interface[name=Ethernet1]/subinterfaces/subinterface[index=0]/state/counters",
             "updates":[{"Path":"in-octets","values":{"in-octets":"10"}}]}
            {"source":"sw1","timestamp":1700000000000000000,"prefix":"openconfig:/interfaces/interface[name=Ethernet9]/state/counters",
             "updates":[{"Path":"out-pkts","values":{"out-pkts":"11"}}]}
            """;

        final CollectingSink sink = parse(input.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.rejections).isEmpty();
        // docs/ingest.md "Queues and priorities": <canonical>.q<N>, never summed into the port on a switch
        assertThat(sink.only("sw1", "Ethernet1").counters()).containsOnly(entry("tx_bytes.q3", 4096L), entry("tx_drops.q3", 2L));
        assertThat(sink.only("sw1", "Ethernet1.0").counters()).containsEntry("rx_bytes", 10L);
        assertThat(sink.only("sw1", "Ethernet9").counters()).containsEntry("tx_packets", 11L); // origin "openconfig:" stripped
    }

    @Test
    void shouldTakeTheDeviceFromTheDataAndTheContextDeviceOnlyWhenTheDataNamesNone() {
        final String input = """
            {"name":"s","timestamp":1700000000000000000,"tags":{"interface_name":"e1"},"values":{"in-octets":"1"}}
            {"name":"s","timestamp":1700000000000000000,"tags":{"interface_name":"e1","source":"leaf-7:57400"},"values":{"in-octets":"1"}}
            """;

        final CollectingSink sink = parse(input.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.samples).extracting(Sample::device).containsExactly("dut", "leaf-7");
        final CollectingSink noDevice = new CollectingSink();
        parseWith(input, ParseContext.defaults(CLOCK).withoutTimeWindow(), noDevice);
        assertThat(noDevice.rejections).extracting(Rejection::reason).containsExactly(RejectReason.MISSING_DEVICE);
        assertThat(noDevice.samples).extracting(Sample::device).containsExactly("leaf-7");
    }

    @Test
    void shouldRejectEachBadMessageWithItsReasonAndKeepGoing() {
        final String ok = "{\"name\":\"s\",\"timestamp\":1700000000000000000,\"tags\":{\"source\":\"a\",\"interface_name\":\"e1\"},"
            + "\"values\":{\"in-octets\":\"1\"}}";
        final List<String> bad = List.of(
            ok.replace("\"1\"", "\"-5\""),                       // negative counter as RFC 7951 string
            ok.replace("\"1\"", "-5"),                           // negative counter as JSON number
            ok.replace("\"1\"", "\"lots\""),                     // a canonical counter that is text
            ok.replace("\"1\"", "\"NaN\""),                      // NaN
            ok.replace("\"1\"", "18446744073709551616"),         // beyond uint64
            ok.replace("\"interface_name\":\"e1\"", "\"subscription-name\":\"x\""), // no port
            ok.replace("1700000000000000000", "\"soon\""),       // timestamp not a number
            ok.replace(",\"timestamp\":1700000000000000000", ""), // no timestamp
            "{\"name\":\"s\",\"timestamp\":1700000000000000000,\"tags\":{\"source\":\"a\""); // truncated JSON
        final String input = String.join("\n", bad.subList(0, 8)) + "\n" + ok + "\n" + bad.get(8);

        final CollectingSink sink = parse(input.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.records).isEqualTo(10);
        assertThat(sink.samples).singleElement().satisfies(s -> assertThat(s.counters()).containsEntry("rx_bytes", 1L));
        assertThat(sink.rejections).extracting(Rejection::reason).containsExactly(RejectReason.NEGATIVE_COUNTER,
            RejectReason.NEGATIVE_COUNTER, RejectReason.NON_NUMERIC, RejectReason.NOT_FINITE, RejectReason.NON_NUMERIC,
            RejectReason.MISSING_PORT, RejectReason.MALFORMED, RejectReason.MISSING_TIMESTAMP, RejectReason.MALFORMED);
        assertThat(sink.rejections.get(0).location()).isEqualTo("line 1");
        assertThat(new String(sink.rejections.get(0).raw(), StandardCharsets.UTF_8)).isEqualTo(bad.get(0));
        assertThat(sink.rejections.get(8).location()).isEqualTo("line 10");
        assertThat(sink.rejections.get(8).message()).contains("truncated");
    }

    @Test
    void shouldIgnoreStateStringsButRejectUnknownNegativeNumbers() {
        final String input = """
            {"name":"s","timestamp":1700000000000000000,"tags":{"source":"a","interface_name":"e1"},"values":{"in-octets":"9","admin-state":"enable","last-change":"2024-01-01T00:00:00Z","mtu":9000}}
            {"name":"s","timestamp":1700000000000000000,"tags":{"source":"a","interface_name":"e1"},"values":{"in-octets":"9","some-counter":"-1"}}
            """;

        final CollectingSink sink = parse(input.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.only("a", "e1").counters()).containsOnlyKeys("rx_bytes");
        assertThat(sink.rejections).extracting(Rejection::reason).containsExactly(RejectReason.NEGATIVE_COUNTER);
    }

    @Test
    void shouldRejectOversizedMessagesAndReadTheNextOne() {
        final String big = "{\"name\":\"s\",\"timestamp\":1700000000000000000,\"tags\":{\"source\":\"a\",\"interface_name\":\"e1\"},"
            + "\"values\":{\"description\":\"" + "x".repeat(500) + "\",\"in-octets\":\"1\"}}";
        final String small = "{\"name\":\"s\",\"timestamp\":1700000000000000000,\"tags\":{\"source\":\"a\",\"interface_name\":\"e2\"},"
            + "\"values\":{\"in-octets\":\"2\"}}";
        final ParseContext tight = new ParseContext("dut", null, 1, CLOCK, Duration.ofDays(365L * 100), Duration.ofDays(365L * 100), 300);
        final CollectingSink sink = new CollectingSink();

        parseWith(big + small, tight, sink);

        assertThat(sink.rejections).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.OVERSIZED);
            assertThat(r.raw()).hasSize(300);
        });
        assertThat(sink.only("a", "e2").counters()).containsEntry("rx_bytes", 2L);
    }

    private void parseWith(final String input, final ParseContext context, final CollectingSink sink) {
        try {
            adapter().parse(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), context, sink);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The JSON a doc example printed: from the first line starting a JSON value to the last line closing one. */
    static Path jsonOnly(final Path doc) {
        try {
            final List<String> lines = Files.readAllLines(doc);
            int first = 0;
            while (first < lines.size() && !lines.get(first).startsWith("{") && !lines.get(first).startsWith("[")) {
                first++;
            }
            int last = lines.size() - 1;
            while (last > first && !lines.get(last).startsWith("}") && !lines.get(last).startsWith("]")) {
                last--;
            }
            final Path out = Files.createTempFile("gnmic-", "-" + doc.getFileName() + ".json");
            out.toFile().deleteOnExit();
            Files.write(out, new ArrayList<>(lines.subList(first, last + 1)));
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void shouldTakeQueuesFromQueueNumberKeysAndUnquoteCienaInterfaceKeys() {
        // hand-written: gnmic's rendering of a Junos-style queue-number list and of a Ciena-quoted interface key
        final CollectingSink sink = parse("""
            {"source":"r1","timestamp":1700000000000000000,"prefix":"interfaces/interface[name=et-0/0/1]/egress[queue-number=3]",
             "updates":[{"Path":"bytes","values":{"bytes":"500"}},{"Path":"peak-buffer-occupancy-bytes","values":{"peak-buffer-occupancy-bytes":"64"}}]}
            {"source":"c1","timestamp":1700000000000000000,"prefix":"interfaces/interface[name=\\"7\\"]/state/counters",
             "updates":[{"Path":"in-octets","values":{"in-octets":"9"}}]}
            """.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.rejections).isEmpty();
        final Sample r1 = sink.only("r1", "et-0/0/1");
        assertThat(r1.counters()).containsOnly(entry("tx_bytes.q3", 500L));
        assertThat(r1.gauges()).containsOnly(entry("buffer_watermark_bytes.q3", 64.0));
        assertThat(sink.only("c1", "7").counters()).containsOnly(entry("rx_bytes", 9L));
    }
}
