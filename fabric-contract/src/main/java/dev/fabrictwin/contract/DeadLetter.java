package dev.fabrictwin.contract;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Why a record went to {@code telemetry.deadletter} (docs/contracts.md, Topics): the headers {@code error} (the
 * reason), {@code source} (who rejected it: {@code ingest:<format>}, {@code streams-app:<node>}) and {@code offset}
 * (where it came from: a topic-partition@offset, or a file location). The one class that writes and reads them.
 */
public record DeadLetter(String error, String source, String offset) {

    public static final String ERROR = "error";
    public static final String SOURCE = "source";
    public static final String OFFSET = "offset";
    /** Set on a dead letter whose payload was cut to {@link #MAX_PAYLOAD_BYTES}: the record's full size, its SHA-256. */
    public static final String ORIGINAL_SIZE = "original-size";
    public static final String ORIGINAL_SHA256 = "original-sha256";
    /**
     * The most of a rejected record a dead letter carries: well under the producer's default 1 MiB request with the
     * headers, so a dead letter always fits (a bad record the size of the limit would otherwise fail its own dead
     * letter and stop the writer).
     */
    public static final int MAX_PAYLOAD_BYTES = 256 * 1024;
    static final int MAX_KEY_BYTES = 1024;
    /** The longest {@code error} text kept. */
    static final int MAX_ERROR_CHARS = 2_000;

    public DeadLetter {
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(offset, "offset");
    }

    /** A Kafka position in the form the {@code offset} header carries. */
    public static String position(final String topic, final int partition, final long offset) {
        return topic + "-" + partition + "@" + offset;
    }

    /** Adds the three headers to {@code headers} (which may already hold the source record's own) and returns them. */
    public Headers addTo(final Headers headers) {
        headers.add(ERROR, (error.length() > MAX_ERROR_CHARS ? error.substring(0, MAX_ERROR_CHARS) + "…" : error)
            .getBytes(StandardCharsets.UTF_8));
        headers.add(SOURCE, source.getBytes(StandardCharsets.UTF_8));
        headers.add(OFFSET, offset.getBytes(StandardCharsets.UTF_8));
        return headers;
    }

    /**
     * The payload a dead letter carries for {@code record}: the record itself, or, past {@link #MAX_PAYLOAD_BYTES},
     * its beginning, with {@link #ORIGINAL_SIZE} and {@link #ORIGINAL_SHA256} added to {@code headers} so the
     * original can still be identified.
     */
    public static byte[] fit(final byte[] record, final Headers headers) {
        if (record == null || record.length <= MAX_PAYLOAD_BYTES) {
            return record;
        }
        headers.add(ORIGINAL_SIZE, Integer.toString(record.length).getBytes(StandardCharsets.UTF_8));
        headers.add(ORIGINAL_SHA256, sha256(record).getBytes(StandardCharsets.UTF_8));
        return Arrays.copyOf(record, MAX_PAYLOAD_BYTES);
    }

    /** A rejected record's key as a dead letter carries it: cut to 1 KiB (a key is an id, never the evidence). */
    public static byte[] fitKey(final byte[] key) {
        return key == null || key.length <= MAX_KEY_BYTES ? key : Arrays.copyOf(key, MAX_KEY_BYTES);
    }

    private static String sha256(final byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** The dead-letter headers of a record, if it has them (the last value of each wins). */
    public static Optional<DeadLetter> from(final Headers headers) {
        final String error = text(headers.lastHeader(ERROR));
        final String source = text(headers.lastHeader(SOURCE));
        final String offset = text(headers.lastHeader(OFFSET));
        return error == null || source == null || offset == null ? Optional.empty()
            : Optional.of(new DeadLetter(error, source, offset));
    }

    private static String text(final Header h) {
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
