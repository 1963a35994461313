package dev.fabrictwin.contract;

import java.util.function.Function;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/** Serdes from a record's JSON codec: null stays null (a tombstone), everything else goes through the codec. */
public final class JsonSerdes {

    private JsonSerdes() {
    }

    public static <T> Serde<T> of(final Function<T, byte[]> write, final Function<byte[], T> read) {
        return Serdes.serdeFrom((Serializer<T>) (topic, value) -> value == null ? null : write.apply(value),
            (Deserializer<T>) (topic, bytes) -> bytes == null ? null : read.apply(bytes));
    }
}
