package dev.fabrictwin.contract;

import java.nio.charset.StandardCharsets;
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
        headers.add(ERROR, error.getBytes(StandardCharsets.UTF_8));
        headers.add(SOURCE, source.getBytes(StandardCharsets.UTF_8));
        headers.add(OFFSET, offset.getBytes(StandardCharsets.UTF_8));
        return headers;
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
