package dev.fabrictwin.ingest.format.influx;

import static dev.fabrictwin.ingest.format.AdapterContract.refdata;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.ingest.format.AdapterContract;
import dev.fabrictwin.ingest.format.CollectingSink;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;
import dev.fabrictwin.twin.telemetry.Sample;

/**
 * Telegraf's JSON serializer: the real examples of its README (standard and batch form; docker metrics, which name
 * no port) and a hand-written {@code net} metric (handmade/telegraf-json: no public capture of a network plugin in
 * this form was found), mapped with the influx adapter's rules.
 */
class TelegrafJsonAdapterTest {

    private final TelegrafJsonAdapter adapter = new TelegrafJsonAdapter();

    private static CollectingSink parse(final byte[] input) throws IOException {
        final CollectingSink sink = new CollectingSink();
        new TelegrafJsonAdapter().parse(new ByteArrayInputStream(input), ParseContext.defaults(AdapterContract.CLOCK)
            .withoutTimeWindow(), sink);
        return sink;
    }

    private static byte[] handmadeNet() throws IOException {
        try (InputStream in = TelegrafJsonAdapterTest.class.getResourceAsStream("/handmade/telegraf-json/net-eth0.json")) {
            return in.readAllBytes();
        }
    }

    @Test
    void shouldMapANetMetricLikeItsLineProtocolForm() throws IOException {
        final CollectingSink sink = parse(handmadeNet());

        assertThat(adapter.format()).isEqualTo("telegraf-json");
        assertThat(sink.records).isEqualTo(1);
        assertThat(sink.rejections).isEmpty();
        final Sample eth0 = sink.only("HOST", "eth0");
        assertThat(eth0.ts()).isEqualTo(1_492_834_180_000L); // "timestamp": 1492834180 (seconds, Telegraf's default)
        assertThat(eth0.source()).isEqualTo("telegraf-json");
        assertThat(eth0.counters()).containsEntry("rx_bytes", 3_284_081_640L).containsEntry("tx_bytes", 451_838_509L)
            .containsEntry("rx_packets", 3_585_442L).containsEntry("rx_drops", 4L);

        // the same metric in line protocol (net.README.L73) gives the same counters
        final CollectingSink line = new CollectingSink();
        new InfluxLineAdapter().parse(Files.newInputStream(refdata("telegraf-readme-examples/net.README.L73-73.text")),
            ParseContext.defaults(AdapterContract.CLOCK).withoutTimeWindow(), line);
        assertThat(eth0.counters()).isEqualTo(line.only("HOST", "eth0").counters());
    }

    @Test
    void shouldRejectTheReadmeStandardFormBecauseADockerMetricNamesNoPort() throws IOException {
        final CollectingSink sink = parse(Files.readAllBytes(refdata("telegraf-readme-examples/serializers_json.README.L41-53.json")));

        assertThat(sink.records).isEqualTo(1);
        assertThat(sink.samples).isEmpty();
        final Rejection r = sink.rejections.get(0);
        assertThat(r.reason()).isEqualTo(RejectReason.MISSING_PORT);
        assertThat(r.message()).isEqualTo("no interface/name/device+port tag names the port of docker [host]");
        assertThat(r.format()).isEqualTo("telegraf-json");
        assertThat(r.location()).isEqualTo("line 1");
    }

    @Test
    void shouldTreatTheReadmeBatchAsOneMessageAndRejectItWhole() throws IOException {
        final CollectingSink sink = parse(Files.readAllBytes(refdata("telegraf-readme-examples/serializers_json.README.L61-90.json")));

        assertThat(sink.records).isEqualTo(1);
        assertThat(sink.rejections).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.MISSING_PORT);
            assertThat(new String(r.raw(), StandardCharsets.UTF_8)).startsWith("{\n    \"metrics\": [");
        });
    }

    @Test
    void shouldReadABatchOfNetMetricsAsOneSampleEach() throws IOException {
        final String net = new String(handmadeNet(), StandardCharsets.UTF_8).strip();
        final String eth1 = net.replace("\"eth0\"", "\"eth1\"");
        final CollectingSink sink = parse(("{\"metrics\":[" + net + "," + eth1 + "]}").getBytes(StandardCharsets.UTF_8));

        assertThat(sink.records).isEqualTo(1);
        assertThat(sink.samples).extracting(Sample::port).containsExactly("eth0", "eth1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1492834180", "1492834180000", "1492834180000000", "1492834180000000000",
        "\"2017-04-22T04:09:40Z\"", "1492834180.0"})
    void shouldTellTheTimestampUnitByMagnitude(final String timestamp) throws IOException {
        final String net = new String(handmadeNet(), StandardCharsets.UTF_8).replace("1492834180", "TS").replace("TS", timestamp);
        final CollectingSink sink = parse(net.getBytes(StandardCharsets.UTF_8));

        assertThat(sink.rejections).isEmpty();
        assertThat(sink.only("HOST", "eth0").ts()).isEqualTo(1_492_834_180_000L);
    }

    @Test
    void shouldRejectMessagesThatAreNoTelegrafMetricWithTheReason() throws IOException {
        final CollectingSink sink = parse(String.join("\n",
            "{\"name\":\"net\",\"tags\":{\"host\":\"h\",\"interface\":\"eth0\"}}",
            "{\"metrics\":{}}",
            "{\"fields\":{\"bytes_recv\":1},\"name\":\"net\",\"tags\":{\"host\":\"h\",\"interface\":\"eth0\"},\"timestamp\":\"yesterday\"}",
            "{\"fields\":{\"bytes_recv\":-1},\"name\":\"net\",\"tags\":{\"host\":\"h\",\"interface\":\"eth0\"},\"timestamp\":1492834180}",
            "{\"metrics\":[]}").getBytes(StandardCharsets.UTF_8));

        assertThat(sink.records).isEqualTo(5);
        assertThat(sink.samples).isEmpty();
        assertThat(sink.rejections).extracting(Rejection::error).containsExactly(
            "malformed: not a Telegraf JSON metric: needs \"name\" and a \"fields\" object (or a \"metrics\" batch)",
            "malformed: \"metrics\" must be an array of metrics",
            "malformed: \"timestamp\" is neither a number nor RFC 3339: 'yesterday'",
            "negative-counter: counter bytes_recv is negative: -1",
            "no-counters: an empty batch (\"metrics\": [])");
    }

    @Test
    void shouldMakeOneSampleOfABatchsQueueMetricsForOnePortAndTime() throws IOException {
        // hand-written: Telegraf's JSON form of two queue_number metrics of the Junos qmon capture (issue_16515)
        final String q0 = "{\"fields\":{\"egress/bytes\":25084650213,\"egress/peak_buffer_occupancy_bytes\":416},\"name\":\"qmon\","
            + "\"tags\":{\"name\":\"xe-0/0/0:0\",\"queue_number\":\"0\",\"source\":\"127.0.0.1\"},\"timestamp\":1739811071}";
        final String q2 = q0.replace("25084650213", "10957969881").replace("416", "208").replace("\"queue_number\":\"0\"",
            "\"queue_number\":\"2\"");
        final CollectingSink sink = parse(("{\"metrics\":[" + q0 + "," + q2 + "]}").getBytes(StandardCharsets.UTF_8));

        assertThat(sink.records).isEqualTo(1);
        final Sample s = sink.only("127.0.0.1", "xe-0/0/0:0");
        assertThat(s.counters()).containsOnly(entry("tx_bytes.q0", 25_084_650_213L), entry("tx_bytes.q2", 10_957_969_881L));
        assertThat(s.gauges()).containsOnly(entry("buffer_watermark_bytes.q0", 416.0), entry("buffer_watermark_bytes.q2", 208.0));
    }
}
