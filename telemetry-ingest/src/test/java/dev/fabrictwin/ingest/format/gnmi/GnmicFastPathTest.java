package dev.fabrictwin.ingest.format.gnmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;

import dev.fabrictwin.ingest.format.AdapterContract;
import dev.fabrictwin.ingest.format.CollectingSink;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.support.RepeatedKeys;

/**
 * The gnmic event fast path ({@link GnmicAdapter#eventFormatFast}) gives what the tree path gives: the same samples,
 * rejections, drops and warnings for every message, the fixtures, the bench's messages and the shapes it declines.
 */
class GnmicFastPathTest {

    private static final ParseContext CONTEXT = ParseContext.defaults(Clock.systemUTC()).withoutTimeWindow();
    private static final String VALUES = "\"values\":{\"/srl_nokia-interfaces:interface/statistics/in-octets\":\"65382630\","
        + "\"/srl_nokia-interfaces:interface/statistics/out-octets\":\"64721394\","
        + "\"/srl_nokia-interfaces:interface/statistics/in-unicast-packets\":\"107154\"}";
    private static final String TAGS = "\"tags\":{\"interface_name\":\"ethernet-1/1\",\"source\":\"leaf-1:57400\","
        + "\"subscription-name\":\"default\"}";

    /** Event messages, the common shape first, then each thing the fast path must get right or leave to the tree. */
    private static final List<String> MESSAGES = List.of(
        "{\"name\":\"default\",\"timestamp\":1785000000000000000," + TAGS + "," + VALUES + "}",
        "{" + VALUES + ",\"timestamp\":\"1785000000000000000\"," + TAGS + ",\"name\":\"sub\"}",
        "{\"timestamp\":1785000000000000000," + TAGS + "," + VALUES + "}",
        "{\"timestamp\":\" 1785000000000000000 \"," + TAGS + "," + VALUES + "}",
        "{\"timestamp\":\"+1785000000000000000\"," + TAGS + "," + VALUES + "}",
        "{\"timestamp\":-5," + TAGS + "," + VALUES + "}",
        "{\"timestamp\":99999999999999999999999," + TAGS + "," + VALUES + "}",
        "{\"timestamp\":1.5e18," + TAGS + "," + VALUES + "}",
        "{\"timestamp\":null," + TAGS + "," + VALUES + "}",
        "{" + TAGS + "," + VALUES + "}",
        "{\"timestamp\":1785000000000000000," + VALUES + "}",
        "{\"timestamp\":1785000000000000000,\"tags\":{\"source\":\"leaf-1\"}," + VALUES + "}",
        "{\"timestamp\":1785000000000000000,\"tags\":{\"interface_name\":\"e1\"}," + VALUES + "}",
        "{\"timestamp\":1785000000000000000,\"source\":\"leaf-9:57400\",\"tags\":{\"interface_name\":\"e1\"}," + VALUES + "}",
        "{\"timestamp\":1785000000000000000," + TAGS + "}",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":{}}",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":null}",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":[1]}",
        "{\"timestamp\":1785000000000000000,\"tags\":{\"interface_name\":5,\"source\":\"leaf-1\"}," + VALUES + "}",
        "{\"timestamp\":1785000000000000000,\"tags\":{\"interface_name\":null,\"source\":\"leaf-1\"}," + VALUES + "}",
        "{\"timestamp\":1785000000000000000,\"tags\":{\"interface_name\":\"e1\",\"interface_name\":\"e2\",\"source\":\"l\"},"
            + VALUES + "}",
        "{\"timestamp\":1785000000000000000,\"timestamp\":1," + TAGS + "," + VALUES + "}",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":{\"/interface/statistics/in-octets\":\"1\","
            + "\"/interface/statistics/in-octets\":\"2\"}}",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":{\"/a:interface/statistics/in-octets\":\"1\","
            + "\"/b:interface/statistics/in-octets\":\"2\"}}",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":{\"/interface/statistics/in-octets\":12,"
            + "\"/interface/statistics/out-octets\":-3}}",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":{\"/interface/statistics/in-octets\":12,"
            + "\"/interface/statistics/out-octets\":\"-3\"}}",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":{\"/interface/statistics/in-octets\":\"18446744073709551615\","
            + "\"/interface/statistics/out-octets\":\"18446744073709551616\"}}",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":{\"/interface/statistics/in-octets\":\"99999999999999999\","
            + "\"/interface/statistics/out-octets\":123456789012345678901}}",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":{\"/interface/statistics/in-octets\":\"1.0\","
            + "\"/interface/oper-status\":\"UP\",\"/interface/admin-status\":true,\"/interface/description\":\"x\"}}",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":{\"/interface/statistics/in-octets\":1.5}}",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":{\"/interface/statistics/in-octets\":\"NaN\"}}",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":{\"/interface/statistics/in-octets\":\"lots\"}}",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":{\"/interface/statistics/in-octets\":null,"
            + "\"/interface/statistics/out-octets\":\"4\"}}",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":{\"/interface/statistics\":{\"in-octets\":\"4\"}}}",
        "{\"timestamp\":1785000000000000000,\"tags\":{\"source\":\"leaf-1\"},\"values\":{"
            + "\"/interface[name=ethernet-1/2]/statistics/in-octets\":\"7\","
            + "\"/interface[name=ethernet-1/3]/statistics/in-octets\":\"8\"}}",
        "{\"timestamp\":1785000000000000000,\"tags\":{\"interface_name\":\"e1\",\"subinterface_index\":\"0\","
            + "\"source\":\"leaf-1\"},\"values\":{\"/interface/subinterface/statistics/in-octets\":\"7\"}}",
        "{\"timestamp\":1785000000000000000,\"tags\":{\"interface_name\":\"e1\",\"queue_queue-name\":\"3\","
            + "\"source\":\"leaf-1\"},\"values\":{\"/qos/interfaces/interface/output/queues/queue/state/transmit-octets\":\"9\"}}",
        "{\"timestamp\":1785000000000000000,\"tags\":{\"interface-brief_interface-name\":\"Hu0/0/0/1\","
            + "\"source\":\"[2001:db8::1]:57400\"},\"values\":{\"/interface-brief/statistics/in-octets\":\"9\"}}",
        "{\"timestamp\":1785000000000000000,\"tags\":{\"interface_name\":\"e1\"},\"values\":{\"/interface/name\":\"e1\"}}",
        "{\"timestamp\":1785000000000000000,\"tags\":{\"interface_name\":\"e1\",\"source\":\" \"},"
            + "\"values\":{\"/interface/statistics/in-octets\":\"1\"}}",
        "{\"timestamp\":1785000000000000000,\"updates\":[]," + TAGS + "," + VALUES + "}",
        "{\"sync-response\":true}",
        "{\"timestamp\":1785000000000000000," + TAGS + "," + VALUES + ",\"extra\":1}",
        "{\"timestamp\":1785000000000000000," + TAGS + "," + VALUES + "} trailing",
        "[{\"timestamp\":1785000000000000000," + TAGS + "," + VALUES + "},{\"timestamp\":1785000000000000001,"
            + TAGS + "," + VALUES + "}]",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":{\"/interface/statistics/in-octets\":\"1\"",
        "{\"timestamp\":1785000000000000000," + TAGS + ",\"values\":{\"/interface/statistics/in-octets\":\"1\",}}",
        "{\"timestamp\":1785000000000000000," + TAGS + "," + VALUES + "}\n",
        " {\"timestamp\":1785000000000000000," + TAGS + "," + VALUES + "}",
        "\ufeff{\"timestamp\":1785000000000000000," + TAGS + "," + VALUES + "}",
        "{\"timestamp\":1785000000000000000," + TAGS + "," + VALUES + "}\n{\"timestamp\":1785000000000000000," + TAGS + ","
            + VALUES + "}",
        "{\"timestamp\":1785000000000000000,\"tags\":{\"interface_name\":\"" + "e".repeat(600) + "\",\"source\":\"l\"},"
            + VALUES + "}",
        "{\"timestamp\":1785000000000000000,\"tags\":{\"interface_name\":\"e1\",\"source\":\"l\"},\"values\":{\"/interface/"
            + "x".repeat(600) + "\":\"1\"}}",
        "",
        "   ");

    @Test
    void shouldTakeTheFastPathForTheBenchAndCollectorShape() throws IOException {
        final GnmicAdapter adapter = new GnmicAdapter();
        try (JsonParser p = new JsonFactory().createParser(MESSAGES.get(0))) {
            assertThat(adapter.eventFormatFast(p, CONTEXT, new RepeatedKeys())).hasSize(1);
        }
    }

    @Test
    void shouldLeaveAMessageOfManyKeysToTheTree() throws IOException {
        // the fast path's repeated-key check is quadratic: beyond 64 keys a message takes the tree path, same output
        final StringBuilder values = new StringBuilder("\"values\":{");
        for (int i = 0; i < 65; i++) {
            values.append(i == 0 ? "" : ",").append("\"/interface/statistics/c").append(i).append("\":\"").append(i).append('"');
        }
        final String message = "{\"timestamp\":1785000000000000000," + TAGS + "," + values + "}}";
        try (JsonParser p = new JsonFactory().createParser(message)) {
            assertThat(new GnmicAdapter().eventFormatFast(p, CONTEXT, new RepeatedKeys())).isNull();
        }
        assertSame(message.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldGiveWhatTheTreeGivesForEveryMessage() throws IOException {
        final List<byte[]> inputs = new ArrayList<>();
        MESSAGES.forEach(m -> inputs.add(m.getBytes(StandardCharsets.UTF_8)));
        for (int i = 0; i < 300; i++) {
            inputs.add(benchMessage(i));
        }
        for (final String fixture : List.of("event_strings.L137-159.json", "event_strings.L74-92.json",
                "output_intro.L145-159.json", "output_intro.L163-175.json", "output_intro.L89-117.json",
                "subscriptions.L421-482.json", "basic_usage.L29-44.bash", "basic_usage.L74-90.bash")) {
            inputs.add(Files.readAllBytes(AdapterContract.refdata("gnmic-docs-outputs/" + fixture)));
        }
        inputs.add(String.join("\n", MESSAGES).getBytes(StandardCharsets.UTF_8)); // one input, every unit in turn
        for (final byte[] input : inputs) {
            assertSame(input);
        }
    }

    private static void assertSame(final byte[] input) throws IOException {
        final GnmicAdapter adapter = new GnmicAdapter();
        final CollectingSink fast = new CollectingSink();
        adapter.parse(new ByteArrayInputStream(input), CONTEXT, fast);
        final CollectingSink tree = new CollectingSink();
        GnmiUnits.parse(new ByteArrayInputStream(input), CONTEXT, tree, GnmicAdapter.FORMAT, adapter::convert, null);
        final CollectingSink whole = new CollectingSink();
        adapter.parse(input, CONTEXT, whole); // a Kafka record's value, as ingest --from-topic hands it over
        final String what = new String(input, StandardCharsets.UTF_8);
        assertThat(whole.records).as(what).isEqualTo(tree.records);
        assertThat(whole.samples).as(what).isEqualTo(tree.samples);
        assertThat(whole.dropped).as(what).isEqualTo(tree.dropped);
        assertThat(whole.warnings).as(what).isEqualTo(tree.warnings);
        assertThat(rejections(whole)).as(what).isEqualTo(rejections(tree));
        assertThat(fast.records).as(what).isEqualTo(tree.records);
        assertThat(fast.samples).as(what).isEqualTo(tree.samples);
        assertThat(fast.samples.stream().map(s -> s.counters().keySet().toString() + s.gauges().keySet()).toList()).as(what)
            .isEqualTo(tree.samples.stream().map(s -> s.counters().keySet().toString() + s.gauges().keySet()).toList());
        assertThat(fast.dropped).as(what).isEqualTo(tree.dropped);
        assertThat(fast.warnings).as(what).isEqualTo(tree.warnings);
        assertThat(rejections(fast)).as(what).isEqualTo(rejections(tree));
    }

    private static List<String> rejections(final CollectingSink sink) {
        return sink.rejections.stream().flatMap(r -> Stream.of(r.reason().toString(), r.error(), r.format(), r.location(),
            Arrays.toString(r.raw()))).toList();
    }

    /** The message {@code bench ingest-topic} writes (IngestTopicBench.gnmicEvent). */
    private static byte[] benchMessage(final int i) {
        return ("{\"name\":\"default\",\"timestamp\":" + (1_785_000_000_000_000_000L + i * 1_000_000L)
            + ",\"tags\":{\"interface_name\":\"ethernet-1/" + (i % 64) + "\",\"source\":\"leaf-" + (i % 32)
            + ":57400\",\"subscription-name\":\"default\"},\"values\":{"
            + "\"/srl_nokia-interfaces:interface/statistics/in-octets\":\"" + (65_382_630L + i) + "\","
            + "\"/srl_nokia-interfaces:interface/statistics/out-octets\":\"" + (64_721_394L + i) + "\","
            + "\"/srl_nokia-interfaces:interface/statistics/in-unicast-packets\":\"" + (107_154L + i) + "\","
            + "\"/srl_nokia-interfaces:interface/statistics/out-unicast-packets\":\"" + (105_876L + i) + "\","
            + "\"/srl_nokia-interfaces:interface/statistics/in-fcs-error-packets\":\"0\"}}").getBytes(StandardCharsets.UTF_8);
    }
}
