package dev.fabrictwin.ingest.format;

import java.io.IOException;
import java.io.InputStream;

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
}
