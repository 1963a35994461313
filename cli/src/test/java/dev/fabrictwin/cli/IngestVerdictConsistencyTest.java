package dev.fabrictwin.cli;

import static dev.fabrictwin.cli.IngestExitStatusTest.runToStdout;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.fabrictwin.cli.FabricTwinCliTest.Run;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.contract.sample.SampleJson;
import dev.fabrictwin.contract.sample.SampleNames;

/**
 * The same logical input gets the same verdict in every format that can say it: a key repeated in
 * one sample, a 100,000-character counter, port or device name, a sample with neither counters nor gauges, and a
 * timestamp of 1 or 1000 ms. Each case goes through {@code ingest --format F --file IN --output -}, and the exit
 * status, the summary line, the warnings, the dead letter's reason and the sample written must be the same.
 */
class IngestVerdictConsistencyTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A minute ago, on a whole second (Telegraf's JSON carries seconds). */
    private static final long NOW = (System.currentTimeMillis() / 1000 - 60) * 1000;
    private static final long NOW_NS = NOW * 1_000_000L;
    private static final String LONG = "c".repeat(100_000);
    private static final String SYSFS = "fixtures/sys/class/infiniband/";
    private static final String TTAR_SEP = "# ttar - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -\n";

    @TempDir
    Path dir;

    /** What {@code ingest} must say about the input; {@code error} is null when nothing is rejected. */
    private record Verdict(int exit, String summary, List<String> warnings, String error, Map<String, Long> counters) {

        static Verdict rejected(final String reason, final String message) {
            return new Verdict(1, "ingest: nothing ingested: records in: 1, samples out: 0, rejected: 1 (" + reason + " 1)",
                List.of(), reason + ": " + message, null);
        }
    }

    /** One format's spelling of the case: its {@code --format}, the {@code --device} it needs (or null), the input. */
    private record Input(String format, String device, String text) {
        @Override
        public String toString() {
            return format;
        }
    }

    @ParameterizedTest(name = "{0} as {1}")
    @MethodSource("cases")
    void shouldGiveTheSameInputTheSameVerdictInEveryFormat(final String what, final Input input, final Verdict expected)
            throws IOException {
        final Path in = Files.writeString(dir.resolve("in." + input.format()), input.text());
        final Path rejected = dir.resolve("in.rejected");
        final List<String> args = new ArrayList<>(List.of("ingest", "--format", input.format(), "--file", in.toString(),
            "--output", "-", "--rejected", rejected.toString()));
        if (input.device() != null) {
            args.addAll(List.of("--device", input.device()));
        }

        final Run r = runToStdout(args.toArray(String[]::new));

        final List<String> err = new ArrayList<>();
        expected.warnings().forEach(w -> err.add("ingest: warning: " + w));
        err.add(expected.summary());
        assertThat(r.errLines()).as("stderr").containsExactlyElementsOf(err);
        assertThat(r.exitCode()).as("exit status").isEqualTo(expected.exit());
        if (expected.error() == null) {
            assertThat(rejected).as("nothing rejected").doesNotExist();
            final List<String> lines = r.out().lines().filter(l -> l.startsWith("{")).toList();
            assertThat(lines).hasSize(1);
            final Map<String, Long> counters = readSample(lines.get(0));
            assertThat(counters).containsExactlyInAnyOrderEntriesOf(expected.counters());
        } else {
            assertThat(r.out()).as("no sample written").doesNotContain("\"ts\"");
            final List<String> dead = Files.readAllLines(rejected);
            assertThat(dead).hasSize(1);
            assertThat(JSON.readTree(dead.get(0)).get("error").asText()).startsWith(expected.error());
        }
    }

    private static Map<String, Long> readSample(final String line) {
        try {
            return SampleJson.read(line).counters();
        } catch (SampleFormatException e) {
            throw new AssertionError("ingest wrote a sample it cannot read back: " + line, e);
        }
    }

    static Stream<Arguments> cases() {
        final List<Arguments> all = new ArrayList<>();
        duplicateKey(all);
        longNames(all);
        emptySample(all);
        tooManyValues(all);
        tinyTimestamps(all);
        return all.stream();
    }

    /**
     * rx_bytes twice (10, then 20) beside tx_bytes 5: the first value is kept, the repeat left out, counted and named.
     * perfquery and sysfs count 4-byte words, hence the ×4.
     */
    private static void duplicateKey(final List<Arguments> all) {
        final String what = "a key repeated in one sample";
        final Object[][] inputs = {
            {in("canonical", null, canonical("leaf-1", "eth0", NOW, "\"tx_bytes\":5,\"rx_bytes\":10,\"rx_bytes\":20")), "rx_bytes", 1},
            {in("influx", null, "net,host=leaf-1,interface=eth0 bytes_sent=5i,bytes_recv=10i,bytes_recv=20i " + NOW_NS + "\n"),
                "bytes_recv", 1},
            {in("telegraf-json", null, telegraf("leaf-1", "eth0", NOW / 1000, "\"bytes_sent\":5,\"bytes_recv\":10,\"bytes_recv\":20")),
                "bytes_recv", 1},
            {in("gnmic", null, gnmic("leaf-1", "eth0", NOW_NS, "\"/interfaces/interface/state/counters/out-octets\":\"5\","
                + "\"/interfaces/interface/state/counters/in-octets\":\"10\",\"/interfaces/interface/state/counters/in-octets\":\"20\"")),
                "/interfaces/interface/state/counters/in-octets", 1},
            {in("gnmi-protojson", null, protojson("leaf-1", "eth0", NOW_NS, update("out-octets", "5") + ","
                + update("in-octets", "10") + "," + update("in-octets", "20"))), "in-octets", 1},
            {in("prometheus", "leaf-1", "node_network_transmit_bytes_total{device=\"eth0\"} 5\n"
                + "node_network_receive_bytes_total{device=\"eth0\"} 10\nnode_network_receive_bytes_total{device=\"eth0\"} 20\n"),
                "node_network_receive_bytes_total", 1},
            {in("ethtool", "leaf-1", "# ethtool -S eth0\nNIC statistics:\n     tx_bytes: 5\n     rx_bytes: 10\n     rx_bytes: 20\n"),
                "rx_bytes", 1},
            {in("sonic", "leaf-1", sonic("Ethernet0", "\"SAI_PORT_STAT_IF_OUT_OCTETS\":\"5\",\"SAI_PORT_STAT_IF_IN_OCTETS\":\"10\","
                + "\"SAI_PORT_STAT_IF_IN_OCTETS\":\"20\"")), "SAI_PORT_STAT_IF_IN_OCTETS", 1},
            {in("perfquery", "leaf-1", "# Port extended counters: Lid 7 port 1 (CapMask: 0x5300)\nPortXmitData:....5\n"
                + "PortRcvData:....10\nPortRcvData:....20\n"), "PortRcvData", 4},
            {in("sysfs", "leaf-1", sysfs("mlx5_0/ports/1/counters/port_xmit_data", "5") + sysfs("mlx5_0/ports/1/counters/port_rcv_data", "10")
                + sysfs("mlx5_0/ports/1/counters/port_rcv_data", "20")), "port_rcv_data", 4},
            {in("rdma", "leaf-1", rdma("\"tx_bytes\":5,\"rx_bytes\":10,\"rx_bytes\":20")), "rx_bytes", 1},
        };
        for (final Object[] i : inputs) {
            final long scale = ((Integer) i[2]).longValue();
            all.add(Arguments.of(what, i[0], new Verdict(0,
                "ingest: records in: 1, samples out: 1, rejected: 0, values dropped: 1 (duplicate-key 1)",
                List.of("duplicate key '" + i[1] + "': the first value is kept, the repeat left out"), null,
                Map.of("tx_bytes", 5 * scale, "rx_bytes", 10 * scale))));
        }
    }

    /** A counter, a port and a device named with 100,000 characters: refused as name-too-long, naming field and length. */
    private static void longNames(final List<Arguments> all) {
        final String what = "a 100,000-character counter name";
        final Verdict counter = Verdict.rejected("name-too-long", "counter name '" + LONG.substring(0, 80) + "…' (100000 chars) "
            + "is longer than the " + SampleNames.MAX_LENGTH + " characters allowed");
        for (final Input i : List.of(
                in("canonical", null, canonical("leaf-1", "eth0", NOW, "\"tx_bytes\":5,\"" + LONG + "\":1")),
                in("influx", null, "net,host=leaf-1,interface=eth0 bytes_sent=5i," + LONG + "=1i " + NOW_NS + "\n"),
                in("telegraf-json", null, telegraf("leaf-1", "eth0", NOW / 1000, "\"bytes_sent\":5,\"" + LONG + "\":1")),
                in("gnmic", null, gnmic("leaf-1", "eth0", NOW_NS, "\"/interfaces/interface/state/counters/out-octets\":\"5\","
                    + "\"/interfaces/interface/state/counters/" + LONG + "\":1")),
                in("gnmi-protojson", null, protojson("leaf-1", "eth0", NOW_NS, update("out-octets", "5") + "," + update(LONG, "1"))),
                in("prometheus", "leaf-1", "node_network_transmit_bytes_total{device=\"eth0\"} 5\n" + LONG + "{device=\"eth0\"} 1\n"),
                in("ethtool", "leaf-1", "# ethtool -S eth0\nNIC statistics:\n     tx_bytes: 5\n     " + LONG + ": 1\n"),
                in("sonic", "leaf-1", sonic("Ethernet0", "\"SAI_PORT_STAT_IF_OUT_OCTETS\":\"5\",\"" + LONG + "\":\"1\"")),
                in("perfquery", "leaf-1", "# Port extended counters: Lid 7 port 1 (CapMask: 0x5300)\nPortXmitData:....5\n"
                    + LONG + ":....1\n"),
                in("sysfs", "leaf-1", sysfs("mlx5_0/ports/1/counters/port_xmit_data", "5") + sysfs("mlx5_0/ports/1/counters/" + LONG, "1")),
                in("rdma", "leaf-1", rdma("\"np_cnp_sent\":5,\"" + LONG + "\":1")))) {
            all.add(Arguments.of(what, i, counter));
        }

        final Verdict port = Verdict.rejected("name-too-long", "port '" + LONG.substring(0, 80) + "…' (100000 chars) "
            + "is longer than the " + SampleNames.MAX_LENGTH + " characters allowed");
        for (final Input i : List.of(
                in("canonical", null, canonical("leaf-1", LONG, NOW, "\"tx_bytes\":5")),
                in("influx", null, "net,host=leaf-1,interface=" + LONG + " bytes_sent=5i " + NOW_NS + "\n"),
                in("telegraf-json", null, telegraf("leaf-1", LONG, NOW / 1000, "\"bytes_sent\":5")),
                in("gnmic", null, gnmic("leaf-1", LONG, NOW_NS, "\"/interfaces/interface/state/counters/out-octets\":\"5\"")),
                in("gnmi-protojson", null, protojson("leaf-1", LONG, NOW_NS, update("out-octets", "5"))),
                in("prometheus", "leaf-1", "node_network_transmit_bytes_total{device=\"" + LONG + "\"} 5\n"),
                in("ethtool", "leaf-1", "# ethtool -S " + LONG + "\nNIC statistics:\n     tx_bytes: 5\n"),
                in("sonic", "leaf-1", sonic(LONG, "\"SAI_PORT_STAT_IF_OUT_OCTETS\":\"5\"")))) {
            all.add(Arguments.of("a 100,000-character port name", i, port));
        }

        final Verdict device = Verdict.rejected("name-too-long", "device '" + LONG.substring(0, 80) + "…' (100000 chars) "
            + "is longer than the " + SampleNames.MAX_LENGTH + " characters allowed");
        for (final Input i : List.of(
                in("canonical", null, canonical(LONG, "eth0", NOW, "\"tx_bytes\":5")),
                in("influx", null, "net,host=" + LONG + ",interface=eth0 bytes_sent=5i " + NOW_NS + "\n"),
                in("telegraf-json", null, telegraf(LONG, "eth0", NOW / 1000, "\"bytes_sent\":5")),
                in("gnmic", null, gnmic(LONG, "eth0", NOW_NS, "\"/interfaces/interface/state/counters/out-octets\":\"5\"")),
                in("gnmi-protojson", null, protojson(LONG, "eth0", NOW_NS, update("out-octets", "5"))),
                in("prometheus", LONG, "node_network_transmit_bytes_total{device=\"eth0\"} 5\n"),
                in("ethtool", LONG, "# ethtool -S eth0\nNIC statistics:\n     tx_bytes: 5\n"),
                in("sonic", LONG, sonic("Ethernet0", "\"SAI_PORT_STAT_IF_OUT_OCTETS\":\"5\"")),
                in("perfquery", LONG, "# Port extended counters: Lid 7 port 1 (CapMask: 0x5300)\nPortXmitData:....5\n"),
                in("sysfs", LONG, sysfs("mlx5_0/ports/1/counters/port_xmit_data", "5")),
                in("rdma", LONG, rdma("\"np_cnp_sent\":5")))) {
            all.add(Arguments.of("a 100,000-character device name", i, device));
        }
    }

    /** A real port's sample with neither counters nor gauges (state only): no-counters in every format. */
    private static void emptySample(final List<Arguments> all) {
        final Verdict empty = Verdict.rejected("no-counters", "");
        for (final Input i : List.of(
                in("canonical", null, canonical("leaf-1", "eth0", NOW, "") .replace("}}", "},\"gauges\":{}}")),
                in("influx", null, "net,host=leaf-1,interface=eth0 description=\"uplink\" " + NOW_NS + "\n"),
                in("telegraf-json", null, telegraf("leaf-1", "eth0", NOW / 1000, "\"description\":\"uplink\"")),
                in("gnmic", null, gnmic("leaf-1", "eth0", NOW_NS, "\"/interfaces/interface/state/description\":\"uplink\"")),
                in("gnmi-protojson", null, protojson("leaf-1", "eth0", NOW_NS,
                    "{\"path\":{\"elem\":[{\"name\":\"interfaces\"},{\"name\":\"interface\",\"key\":{\"name\":\"eth0\"}},"
                        + "{\"name\":\"state\"},{\"name\":\"description\"}]},\"val\":{\"stringVal\":\"uplink\"}}")),
                in("prometheus", "leaf-1", "# TYPE node_network_mtu_bytes gauge\nnode_network_mtu_bytes{device=\"eth0\"} 1500\n"),
                in("ethtool", "leaf-1", "# ethtool -S eth0\nNIC statistics:\n"),
                in("sonic", "leaf-1", sonic("Ethernet0", "")),
                in("perfquery", "leaf-1", "# Port extended counters: Lid 7 port 1 (CapMask: 0x5300)\nPortSelect:....1\n"),
                in("rdma", "leaf-1", rdma("\"ifindex\":0")))) {
            all.add(Arguments.of("a sample with neither counters nor gauges", i, empty));
        }
    }

    /** 20,000 counters on one port (a 1 MiB record of short names could carry 150,000): oversized in every format. */
    private static void tooManyValues(final List<Arguments> all) {
        final int n = 20_000;
        final Verdict oversized = Verdict.rejected("oversized", "sample for leaf-1/eth0 carries " + n
            + " counters and 0 gauges: more than the 16384 of each a sample may carry");
        final StringBuilder json = new StringBuilder();
        final StringBuilder influx = new StringBuilder();
        final StringBuilder ethtool = new StringBuilder("# ethtool -S eth0\nNIC statistics:\n");
        for (int c = 0; c < n; c++) {
            json.append(c == 0 ? "" : ",").append("\"c").append(c).append("\":1");
            influx.append(c == 0 ? "" : ",").append('c').append(c).append("=1i");
            ethtool.append("     c").append(c).append(": 1\n");
        }
        for (final Input i : List.of(
                in("canonical", null, canonical("leaf-1", "eth0", NOW, json.toString())),
                in("influx", null, "net,host=leaf-1,interface=eth0 " + influx + " " + NOW_NS + "\n"),
                in("ethtool", "leaf-1", ethtool.toString()))) {
            all.add(Arguments.of("20,000 counters on one port", i, oversized));
        }
    }

    /** {@code ts} of 1 and 1000 ms (seconds, or a counter, where epoch ms belong), in each format's own unit. */
    private static void tinyTimestamps(final List<Arguments> all) {
        for (final long ms : new long[] {1, 1000}) {
            final Verdict tiny = Verdict.rejected("timestamp-out-of-range", "timestamp " + ms + " (" + Instant.ofEpochMilli(ms)
                + ") is before 2000-01-01T00:00:00Z: not epoch milliseconds");
            for (final Input i : List.of(
                    in("canonical", null, canonical("leaf-1", "eth0", ms, "\"rx_bytes\":1")),
                    in("influx", null, "net,host=leaf-1,interface=eth0 bytes_recv=1i " + ms * 1_000_000L + "\n"),
                    in("telegraf-json", null, telegraf("leaf-1", "eth0", null, "\"bytes_recv\":1")
                        .replace("\"timestamp\":null", "\"timestamp\":\"" + Instant.ofEpochMilli(ms) + "\"")),
                    in("gnmic", null, gnmic("leaf-1", "eth0", ms * 1_000_000L, "\"/interfaces/interface/state/counters/in-octets\":\"1\"")),
                    in("gnmi-protojson", null, protojson("leaf-1", "eth0", ms * 1_000_000L, update("in-octets", "1"))),
                    in("prometheus", "leaf-1", "node_network_receive_bytes_total{device=\"eth0\"} 1 " + ms + "\n"))) {
                all.add(Arguments.of("ts " + ms, i, tiny));
            }
        }
    }

    private static Input in(final String format, final String device, final String text) {
        return new Input(format, device, text);
    }

    private static String canonical(final String device, final String port, final long ts, final String counters) {
        return "{\"ts\":" + ts + ",\"device\":\"" + device + "\",\"port\":\"" + port + "\",\"counters\":{" + counters + "}}\n";
    }

    private static String telegraf(final String host, final String iface, final Long seconds, final String fields) {
        return "{\"name\":\"net\",\"tags\":{\"host\":\"" + host + "\",\"interface\":\"" + iface + "\"},\"fields\":{" + fields
            + "},\"timestamp\":" + seconds + "}\n";
    }

    private static String gnmic(final String source, final String iface, final long ns, final String values) {
        return "{\"name\":\"sub\",\"timestamp\":" + ns + ",\"tags\":{\"source\":\"" + source + "\",\"interface_name\":\"" + iface
            + "\"},\"values\":{" + values + "}}\n";
    }

    private static String protojson(final String target, final String iface, final long ns, final String updates) {
        return "{\"update\":{\"timestamp\":\"" + ns + "\",\"prefix\":{\"target\":\"" + target + "\",\"elem\":[{\"name\":"
            + "\"interfaces\"},{\"name\":\"interface\",\"key\":{\"name\":\"" + iface + "\"}}]},\"update\":[" + updates + "]}}\n";
    }

    /** One update of a leaf of the interface's state counters, as a uint64. */
    private static String update(final String leaf, final String value) {
        return "{\"path\":{\"elem\":[{\"name\":\"state\"},{\"name\":\"counters\"},{\"name\":\"" + leaf + "\"}]},"
            + "\"val\":{\"uintVal\":\"" + value + "\"}}";
    }

    private static String sonic(final String port, final String stats) {
        return "{\"COUNTERS_PORT_NAME_MAP\":{\"" + port + "\":\"oid:0x1\"},\"COUNTERS:oid:0x1\":{" + stats + "}}\n";
    }

    /** {@code rdma statistic show -j} of port mlx5_0/1 with these counters. */
    private static String rdma(final String counters) {
        return "[{\"ifname\":\"mlx5_0\",\"port\":1," + counters + "}]\n";
    }

    private static String sysfs(final String path, final String value) {
        return "Path: " + SYSFS + path + "\nLines: 1\n" + value + "\nMode: 644\n" + TTAR_SEP;
    }
}
