package dev.fabrictwin.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Function;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Serdes for the contract's JSON records: null stays null (a tombstone), everything else goes through the codec. */
public final class JsonSerdes {

    /** Strict: a record is one JSON object, nothing after it (a cut or concatenated record is no record). */
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private JsonSerdes() {
    }

    public static <T> Serde<T> of(final Function<T, byte[]> write, final Function<byte[], T> read) {
        return Serdes.serdeFrom((Serializer<T>) (topic, value) -> value == null ? null : write.apply(value),
            (Deserializer<T>) (topic, bytes) -> bytes == null ? null : read.apply(bytes));
    }

    /** A record written and read by Jackson, field by field (every field a contract: renaming one breaks readers). */
    public static <T> byte[] write(final T value) {
        try {
            return JSON.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static <T> T read(final byte[] json, final Class<T> type) {
        final T value;
        try {
            value = JSON.readValue(json, type);
        } catch (IOException e) {
            throw new UncheckedIOException("not a " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
        if (value == null) { // the text "null": Streams would take the record for a tombstone and delete the key
            throw new IllegalArgumentException("not a " + type.getSimpleName() + ": the JSON null (a tombstone is a record"
                + " without a value)");
        }
        return value;
    }
}
