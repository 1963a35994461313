package dev.fabrictwin.contract.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

import dev.fabrictwin.contract.TopicSpec;
import dev.fabrictwin.contract.Topics;
import dev.fabrictwin.contract.sample.RejectReason;

class DocumentSerdeTest {

    private static final TopicSpec<String, TopologyDocument> TOPOLOGY = Topics.DEFAULT.topology();
    private static final TopicSpec<String, JobDocument> JOBS = Topics.DEFAULT.jobs();

    private static byte[] utf8(final String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static <D> byte[] roundTrip(final TopicSpec<String, D> spec, final byte[] written) {
        final Serde<D> serde = spec.valueSerde();
        final D read = serde.deserializer().deserialize(spec.name(), written);
        return serde.serializer().serialize(spec.name(), read);
    }

    @Test
    void aGoodDocumentGoesBackOnTheWireByteForByte() {
        // spacing, key order and a number's spelling as written: re-encoding the parsed JSON would change them
        final byte[] topology = utf8("{ \"id\" : \"lab\",\"devices\":[ ], \"speed\": 1.0e2 }\n");
        final byte[] job = utf8("{\"id\":\"train-7\",\"hosts\":8,\"unknownField\":{\"kept\":true}}");

        assertThat(roundTrip(TOPOLOGY, topology)).isEqualTo(topology);
        assertThat(roundTrip(JOBS, job)).isEqualTo(job);
        final TopologyDocument read = TOPOLOGY.valueSerde().deserializer().deserialize(TOPOLOGY.name(), topology);
        assertThat(read.json().path("id").asText()).isEqualTo("lab");
        assertThat(read.bytes()).isEqualTo(topology);
        assertThat(read.isWrittenAs(topology)).isTrue();
    }

    @Test
    void documentsAreEqualByTheirBytesAndHashTheSameEverywhere() {
        final JobDocument a = JobDocument.of(utf8("{\"id\":\"a\"}"));
        assertThat(a).isEqualTo(JobDocument.of(utf8("{\"id\":\"a\"}")));
        assertThat(a).isNotEqualTo(JobDocument.of(utf8("{ \"id\":\"a\"}"))); // the same JSON, other bytes
        assertThat(a).isNotEqualTo(TopologyDocument.of(utf8("{\"id\":\"a\"}")));
        // FNV-1a 64 of the bytes: a fixed value, so a checkpointed hash compares across processes and builds
        assertThat(fnv("a")).isEqualTo(0xaf63dc4c8601ec8cL); // the published FNV-1a 64 test vector
        assertThat(a.contentHash()).isEqualTo(fnv("{\"id\":\"a\"}"));
        assertThat(a.contentHash()).isNotEqualTo(JobDocument.of(utf8("{\"id\":\"b\"}")).contentHash());
    }

    @Test
    void aTombstoneStaysATombstone() {
        assertThat(TOPOLOGY.valueSerde().deserializer().deserialize(TOPOLOGY.name(), null)).isNull();
        assertThat(JOBS.valueSerde().serializer().serialize(JOBS.name(), null)).isNull();
    }

    @Test
    void aDocumentThatIsNoJsonObjectIsRefusedWithItsReason() {
        for (final String bad : new String[] {"{\"id\":", "not json", "[1,2]", "42", "null", ""}) {
            assertThatThrownBy(() -> TOPOLOGY.valueSerde().deserializer().deserialize(TOPOLOGY.name(), utf8(bad)))
                .as(bad)
                .isInstanceOfSatisfying(DocumentFormatException.class,
                    e -> assertThat(e.reason()).isEqualTo(RejectReason.BAD_DOCUMENT))
                .hasMessageStartingWith("not ");
            assertThatThrownBy(() -> JobDocument.of(utf8(bad))).as(bad).isInstanceOf(DocumentFormatException.class);
        }
        assertThatThrownBy(() -> JobDocument.of(utf8("[]"))).hasMessage("not a JSON object");
        assertThatThrownBy(() -> JobDocument.of(utf8("{\"id\":"))).hasMessageStartingWith("not JSON: ");
    }

    private static long fnv(final String s) {
        long h = 0xcbf29ce484222325L;
        for (final byte b : utf8(s)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return h;
    }
}
