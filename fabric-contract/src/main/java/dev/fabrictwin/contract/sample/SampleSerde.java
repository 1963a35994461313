package dev.fabrictwin.contract.sample;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

import dev.fabrictwin.twin.telemetry.Sample;

/**
 * {@code telemetry.samples} values: exactly one canonical sample JSON object per record (docs/contracts.md, Canonical
 * sample), the form every producer writes. Anything else, an empty record included, fails to deserialize with a
 * {@link SampleFormatException} whose reason the analyzer's dead-letter handler records.
 */
public final class SampleSerde {

    public static final Serde<Sample> INSTANCE = Serdes.serdeFrom(
        (Serializer<Sample>) (topic, sample) -> sample == null ? null : SampleJson.writeBytes(sample),
        (Deserializer<Sample>) (topic, bytes) -> read(bytes));

    private SampleSerde() {
    }

    /** One canonical sample, or a {@link SampleFormatException} saying why these bytes are not one. */
    public static Sample read(final byte[] bytes) {
        if (bytes == null || bytes.length == 0) {
            throw new SampleFormatException(RejectReason.MALFORMED,
                "empty record: telemetry.samples carries one canonical sample per record");
        }
        if (SampleJson.isBatch(bytes)) {
            throw new SampleFormatException(RejectReason.MALFORMED,
                "a JSON array: telemetry.samples carries one canonical sample object per record");
        }
        return SampleJson.read(bytes);
    }
}
