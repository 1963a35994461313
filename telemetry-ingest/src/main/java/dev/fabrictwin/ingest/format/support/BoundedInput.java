package dev.fabrictwin.ingest.format.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reads a whole input into memory up to a cap, counting (and skipping) whatever lies beyond it. */
public final class BoundedInput {

    /** The kept bytes and the input's full length. */
    public record Read(byte[] bytes, long total) {
        public boolean truncated() {
            return total > bytes.length;
        }
    }

    private BoundedInput() {
    }

    public static Read readAll(final InputStream in, final int cap) throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(cap, 64 * 1024));
        final byte[] buffer = new byte[64 * 1024];
        long total = 0;
        int n;
        while ((n = in.read(buffer)) > 0) {
            final long room = cap - (long) out.size();
            if (room > 0) {
                out.write(buffer, 0, (int) Math.min(room, n));
            }
            total += n;
        }
        return new Read(out.toByteArray(), total);
    }
}
