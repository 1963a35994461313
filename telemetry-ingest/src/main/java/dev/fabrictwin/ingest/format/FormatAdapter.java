package dev.fabrictwin.ingest.format;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Turns one input format into canonical samples. An adapter reads the whole input (a file or stdin) and
 * reports, for each unit it reads (a line, a JSON object, a dump), either samples or one {@link Rejection}
 * carrying the unit's raw bytes and the reason. It must never throw on bad input: only an {@link IOException}
 * from the stream itself escapes. Counter names go through the format's mapping file
 * ({@code mappings/<format>.tsv}); names without a mapping are kept as the source spells them.
 */
public interface FormatAdapter {

    /** The {@code --format} name. */
    String format();

    void parse(InputStream in, ParseContext context, IngestSink sink) throws IOException;

    /** One whole message (a Kafka record's value), as {@link #parse(InputStream, ParseContext, IngestSink)} reads it. */
    default void parse(final byte[] message, final ParseContext context, final IngestSink sink) {
        try {
            parse(new ByteArrayInputStream(message), context, sink);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array cannot fail to read
        }
    }
}
