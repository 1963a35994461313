package dev.fabrictwin.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.serialization.Serde;

import dev.fabrictwin.contract.alert.Alert;
import dev.fabrictwin.contract.alert.Entity;
import dev.fabrictwin.contract.alert.Severity;
import dev.fabrictwin.contract.job.JobHealth;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.contract.truth.TruthRecord;
import dev.fabrictwin.twin.fault.FaultTarget;
import dev.fabrictwin.twin.fault.FaultType;
import dev.fabrictwin.twin.fuzz.FuzzTries;
import dev.fabrictwin.twin.fuzz.Mutants;
import dev.fabrictwin.twin.telemetry.Sample;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * The topics' value serdes on hostile records, as Kafka Streams calls them: a value that writes back to itself, or
 * an exception the analyzer's deserialization handler dead-letters (an {@link Exception} with a message; for
 * samples an {@link SampleFormatException} with its reason), never an {@link Error} that would stop the app.
 */
@Tag("fuzz")
@AddLifecycleHook(FuzzTries.class)
class ContractCodecFuzzProperties {

    private static final Topics TOPICS = Topics.DEFAULT;
    private static final Alert ALERT = new Alert(Alert.id(FaultType.LINK_DEGRADED, Entity.link("spine-1", "leaf-2")),
        FaultType.LINK_DEGRADED, Alert.State.OPEN, Severity.CRITICAL, Entity.link("spine-1", "leaf-2"), true, null,
        1_000, 2_000, 50, 100, "tx_bytes/s", List.of("llm-a"), "link leaf-2—spine-1 is degraded");
    private static final JobHealth HEALTH = new JobHealth("llm-a", 5_000, 700, 910, 1.3, 1e9, 7.7e8, 0.95,
        "link:leaf-2~spine-1", "x");
    private static final TruthRecord TRUTH = new TruthRecord("fault-0", FaultType.PFC_STORM,
        FaultTarget.port("host-5", "nic0"), 1, 2, Map.of("rate", 0.5));
    private static final Sample SAMPLE = new Sample(1_700_000_000_000L, "leaf-2", "eth5", "sim",
        Map.of("tx_bytes", 123L, "ecn_marked", -1L), Map.of("oper_up", 1.0));

    @Property(tries = 1500)
    void everyMutatedRecordIsAValueOrADeadLetter(@ForAll("records") final byte[] record) {
        for (final Serde<?> serde : List.of(TOPICS.alerts().valueSerde(), TOPICS.jobHealth().valueSerde(),
                TOPICS.truth().valueSerde(), TOPICS.samples().valueSerde())) {
            assertValueOrDeadLetter(serde, record);
        }
    }

    @Example
    void deepNestingAndAHugeRecordAreDeadLetters() {
        for (final String record : List.of(Mutants.nested("[", 100_000), Mutants.nested("{\"id\":", 100_000),
                new String(Mutants.longLine("{\"job\":\"", 24 << 20), StandardCharsets.UTF_8))) {
            for (final Serde<?> serde : List.of(TOPICS.alerts().valueSerde(), TOPICS.jobHealth().valueSerde(),
                    TOPICS.truth().valueSerde(), TOPICS.samples().valueSerde())) {
                assertValueOrDeadLetter(serde, record.getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    /** Found by the long run: a record starting "null" read as null, which Streams takes for a tombstone. */
    @Example
    void aJsonNullOrTrailingDataIsADeadLetterNotATombstone() {
        final String alert = new String(TOPICS.alerts().valueSerde().serializer().serialize("t", ALERT), StandardCharsets.UTF_8);
        for (final String record : List.of("null", "null" + alert, alert + "{}", alert + "x")) {
            assertThatThrownBy(() -> TOPICS.alerts().valueSerde().deserializer().deserialize("t",
                record.getBytes(StandardCharsets.UTF_8))).as(record).isInstanceOf(RuntimeException.class)
                .hasMessageStartingWith("not a Alert: ");
        }
        assertThatThrownBy(() -> TOPICS.truth().valueSerde().deserializer().deserialize("t",
            (new String(TOPICS.truth().valueSerde().serializer().serialize("t", TRUTH), StandardCharsets.UTF_8) + "]")
                .getBytes(StandardCharsets.UTF_8))).isInstanceOf(UncheckedIOException.class);
    }

    private static <T> void assertValueOrDeadLetter(final Serde<T> serde, final byte[] record) {
        final T value;
        try {
            value = serde.deserializer().deserialize("t", record);
        } catch (SampleFormatException e) {
            assertThat(e.reason()).isNotNull();
            return;
        } catch (RuntimeException e) {
            assertThat(e.getMessage()).as("%s", e).isNotBlank();
            return;
        }
        assertThat(value).isNotNull();
        assertThat(serde.deserializer().deserialize("t", serde.serializer().serialize("t", value))).isEqualTo(value);
    }

    @Provide
    Arbitrary<byte[]> records() {
        return Mutants.of(List.of(TOPICS.alerts().valueSerde().serializer().serialize("t", ALERT),
            TOPICS.jobHealth().valueSerde().serializer().serialize("t", HEALTH),
            TOPICS.truth().valueSerde().serializer().serialize("t", TRUTH),
            TOPICS.samples().valueSerde().serializer().serialize("t", SAMPLE)));
    }
}
