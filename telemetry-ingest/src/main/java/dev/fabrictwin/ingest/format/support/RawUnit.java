package dev.fabrictwin.ingest.format.support;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * The raw bytes of one multi-line input unit (a scrape, a dump, a port's archive entries), kept up to a
 * limit for dead letters, while counting the unit's full size to detect oversized units.
 */
public final class RawUnit {

    private final int limit;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    private long size;

    public RawUnit(final int limit) {
        this.limit = limit;
    }

    /** Appends one line and its newline. */
    public void addLine(final byte[] line) {
        append(line);
        append(new byte[] {'\n'});
    }

    public void append(final byte[] data) {
        size += data.length;
        final int room = limit - bytes.size();
        if (room > 0) {
            bytes.write(data, 0, Math.min(room, data.length));
        }
    }

    /** The unit's full size in bytes, including what was not kept. */
    public long size() {
        return size;
    }

    public boolean oversized() {
        return size > limit;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The kept bytes (at most the limit); a trailing newline that the input did not need is removed. */
    public byte[] bytes() {
        final byte[] b = bytes.toByteArray();
        if (b.length > 0 && b[b.length - 1] == '\n' && size <= limit) {
            return Arrays.copyOf(b, b.length - 1);
        }
        return b;
    }
}
